"""What the request could not carry reaches the caller through every way of sending it, on all six
wires, over the loopback vendor server: ``Client.send``, ``AsyncClient.send`` and both streams
report exactly what ``encode_request`` reports (marked ``side="request"``), and ``strict=True``
refuses before a byte is sent. And the caller's key never comes back inside a vendor's error."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

import interlingua as il
from interlingua.kit import render_frames

from .conftest import KEY
from .drip_server import DripServer
from .vendor_server import Answer, Fault, VendorServer

WIRES = {  # wire -> (model, what the base URL adds, client options)
    "anthropic-messages": ("claude-sonnet-4-5", "", {}),
    "openai-chat": ("gpt-4.1", "/v1", {}),
    "openai-responses": ("gpt-4.1", "/v1", {}),
    "gemini": ("gemini-2.5-flash", "", {}),
    "bedrock-converse": ("us.anthropic.claude-sonnet-4-20250514-v1:0", "", {"settings": {"aws_region": "us-east-1"}}),
    "cohere-chat": ("command-a-03-2025", "", {}),
}
FAST = il.RetryPolicy(max_retries=0)


def _request(wire: str) -> il.Request:
    """A request holding an option of another vendor's: every wire reports it lost (a
    ForeignOption), and the default max_tokens keeps every wire's required fields."""
    return il.Request(
        model=WIRES[wire][0],
        max_tokens=64,
        messages=[il.Message.user("Hello")],
        provider_options={"acme": {"flux": 3}},
    )


def _events(model: str) -> list[il.StreamEvent]:
    return [
        il.MessageStart(id="msg_1", model=model),
        il.PartStart(0, il.Text("")),
        il.TextDelta(0, "Hi there"),
        il.PartEnd(0),
        il.MessageEnd("end_turn", None, il.Usage(input_tokens=5, output_tokens=2)),
    ]


def _answer(codec: il.Codec, model: str, *, stream: bool) -> Answer:
    if not stream:
        said = il.Message.assistant("Hi there")
        response = il.Response(id="msg_1", model=model, message=said, stop_reason="end_turn")
        return Answer(json=codec.encode_response(response).body)
    written = list(codec.encode_stream(_events(model)))
    if codec.name == "bedrock-converse":  # binary event-stream frames, as ConverseStream sends them
        return Answer(sse=b"".join(render_frames((e.event or "", e.data.encode()) for e in written)), chunk=31)
    return Answer(sse=b"".join(il.render_sse(written)))


def _options(wire: str, vendor: VendorServer) -> dict[str, Any]:
    _, prefix, extra = WIRES[wire]
    return {"api_key": KEY, "base_url": vendor.url + prefix, "retry": FAST, **extra}


def _expected(codec: il.Codec, request: il.Request) -> list[il.AnyWarning]:
    warnings = codec.encode_request(request).warnings
    assert warnings and any(isinstance(w, il.ForeignOption) for w in warnings)
    return [w.model_copy(update={"side": "request"}) for w in warnings]


def _request_side(warnings: list[il.AnyWarning]) -> list[il.AnyWarning]:
    return [w for w in warnings if w.side == "request"]


@pytest.mark.parametrize("wire", list(WIRES))
def test_send_and_both_streams_report_exactly_the_encode_warnings(wire: str, vendor: VendorServer) -> None:
    request = _request(wire)
    with il.Client(wire, **_options(wire, vendor)) as client:
        expected = _expected(client.codec, request)
        vendor.answer = _answer(client.codec, request.model or "", stream=False)
        response = client.send(request)
        assert _request_side(response.warnings) == expected
        assert all(w.side in ("request", "response") for w in response.warnings)

        vendor.answer = _answer(client.codec, request.model or "", stream=True)
        with client.stream(request) as events:
            assert events.request_warnings == expected  # before the first event
            streamed = events.response()
        assert streamed.message.text == "Hi there"
        assert _request_side(streamed.warnings) == expected

    async def go() -> tuple[il.Response, list[il.AnyWarning], il.Response]:
        async with il.AsyncClient(wire, **_options(wire, vendor)) as aclient:
            vendor.answer = _answer(aclient.codec, request.model or "", stream=False)
            sent = await aclient.send(request)
            vendor.answer = _answer(aclient.codec, request.model or "", stream=True)
            async with aclient.stream(request) as events:
                before = list(events.request_warnings)
                return sent, before, await events.response()

    sent, before, streamed = asyncio.run(go())
    assert _request_side(sent.warnings) == expected
    assert before == expected
    assert _request_side(streamed.warnings) == expected and streamed.message.text == "Hi there"


@pytest.mark.parametrize("wire", list(WIRES))
def test_strict_refuses_before_a_byte_is_sent(wire: str, vendor: VendorServer) -> None:
    request = _request(wire)
    with il.Client(wire, **_options(wire, vendor)) as client:
        expected = _expected(client.codec, request)
        with pytest.raises(il.LossyEncodeError) as caught:
            client.send(request, strict=True)
        assert [w.model_copy(update={"side": "request"}) for w in caught.value.warnings] == expected
        with pytest.raises(il.LossyEncodeError):
            client.stream(request, strict=True)

    async def go() -> None:
        async with il.AsyncClient(wire, **_options(wire, vendor)) as aclient:
            with pytest.raises(il.LossyEncodeError):
                await aclient.send(request, strict=True)
            with pytest.raises(il.LossyEncodeError):
                async with aclient.stream(request, strict=True):
                    pass

    asyncio.run(go())
    assert vendor.received == []
    clean = request.model_copy(update={"provider_options": {}})
    with il.Client(wire, **_options(wire, vendor)) as client:
        vendor.answer = _answer(client.codec, request.model or "", stream=False)
        assert _request_side(client.send(clean, strict=True).warnings) == []  # nothing lost: sent


@pytest.mark.parametrize("wire", list(WIRES))
def test_a_key_the_vendor_echoes_in_its_error_is_hidden(wire: str, vendor: VendorServer) -> None:
    echoed = (
        b'{"error": {"message": "Incorrect API key provided: %s. Find yours at example.com", '
        b'"type": "invalid_request_error", "code": 400, "status": "INVALID_ARGUMENT"}, '
        b'"message": "Incorrect API key provided: %s"}' % (KEY.encode(), KEY.encode())
    )
    request = _request(wire).model_copy(update={"provider_options": {}})
    with il.Client(wire, **_options(wire, vendor)) as client:
        vendor.faults.append(Fault("status", 400, body=echoed))
        with pytest.raises(il.ProviderError) as caught:
            client.send(request)
    error = caught.value
    assert error.status == 400
    texts = [str(error), repr(error), error.message, repr(error.raw)]
    assert [text for text in texts if KEY in text] == []
    assert "<hidden>" in error.message


# --- timeouts that hold: a slow-drip server ------------------------------------------------------

DEADLINE = 0.5


def _first_event(wire: str) -> bytes:
    """The wire's first stream event, whole: the stream is open, then the server goes quiet."""
    codec = il.get_codec(wire)
    data = _answer(codec, WIRES[wire][0], stream=True).sse or b""
    if wire == "bedrock-converse":  # a frame starts with its total length, 4 bytes big-endian
        return data[: int.from_bytes(data[:4], "big")]
    return data[: data.index(b"\n\n") + 2]


def _drip_options(wire: str, url: str, **kw: Any) -> dict[str, Any]:
    _, prefix, extra = WIRES[wire]
    return {"api_key": KEY, "base_url": url + prefix, "retry": FAST, "timeout": DEADLINE, **extra, **kw}


@pytest.mark.parametrize("wire", list(WIRES))
@pytest.mark.parametrize("own_http", [False, True], ids=["own-client", "caller-http-client"])
def test_a_server_dripping_header_bytes_cannot_hold_a_call(wire: str, own_http: bool) -> None:
    """Each byte comes well within the read timeout; the whole call still ends at the deadline,
    with a typed TimeoutError, whatever http client was passed (its own limit is 600 s)."""
    import httpx2

    server = DripServer("headers")
    try:
        http = httpx2.Client(timeout=600.0) if own_http else None
        started = time.monotonic()
        client = il.Client(wire, **_drip_options(wire, server.url, http_client=http))
        with client, pytest.raises(il.TimeoutError):
            client.send(_request(wire).model_copy(update={"provider_options": {}}))
        assert time.monotonic() - started < DEADLINE + 1.5

        async def go() -> None:
            ahttp = httpx2.AsyncClient(timeout=600.0) if own_http else None
            async with il.AsyncClient(wire, **_drip_options(wire, server.url, http_client=ahttp)) as aclient:
                await aclient.send(_request(wire).model_copy(update={"provider_options": {}}))

        started = time.monotonic()
        with pytest.raises(il.TimeoutError):
            asyncio.run(go())
        assert time.monotonic() - started < DEADLINE + 1.5
    finally:
        server.close()


@pytest.mark.parametrize("wire", list(WIRES))
@pytest.mark.parametrize("mode", ["stall", "comments"])
def test_a_stream_that_goes_quiet_ends_typed_at_the_deadline(wire: str, mode: str) -> None:
    """After a first event: nothing at all (a read timeout's case, held whatever http client), or
    comment bytes that never make an event (no read timeout sees it). Sync and async end in a
    StreamTimeoutError: a StreamError with the partial answer, and a TimeoutError."""
    import httpx2

    if mode == "comments" and wire == "bedrock-converse":
        pytest.skip("binary event-stream frames have no comment lines; 'stall' holds this wire")
    server = DripServer(mode, _first_event(wire))
    request = _request(wire).model_copy(update={"provider_options": {}})
    try:
        started = time.monotonic()
        seen: list[il.StreamEvent] = []
        client = il.Client(wire, **_drip_options(wire, server.url, http_client=httpx2.Client(timeout=600.0)))
        with client, pytest.raises(il.StreamTimeoutError) as caught, client.stream(request) as events:
            seen.extend(events)
        assert isinstance(caught.value, il.TimeoutError) and isinstance(caught.value, il.StreamError)
        assert seen and caught.value.partial is not None
        assert time.monotonic() - started < DEADLINE + 1.5

        async def go() -> list[il.StreamEvent]:
            got: list[il.StreamEvent] = []
            http = httpx2.AsyncClient(timeout=600.0)
            aclient = il.AsyncClient(wire, **_drip_options(wire, server.url, http_client=http))
            async with aclient, aclient.stream(request) as events:
                async for event in events:
                    got.append(event)
            return got

        started = time.monotonic()
        with pytest.raises(il.StreamTimeoutError):
            asyncio.run(go())
        assert time.monotonic() - started < DEADLINE + 1.5
    finally:
        server.close()


@pytest.mark.parametrize("mode", ["headers", "stall", "comments"])
def test_a_gateway_routes_timeout_holds_on_its_shared_http_client(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The gateway passes one shared http client (its own limit 600 s) to every route's client:
    the route's ``timeout`` still ends an upstream dripping header bytes (504), or a stream that
    stalls or sends only comment bytes after its first event (the caller wire's error event)."""
    pytest.importorskip("starlette")
    import httpx2

    from interlingua.gateway import Gateway, GatewayConfig, Route

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = DripServer(mode, _first_event("openai-chat"))
    route = Route("*", "openai-chat", base_url=server.url + "/v1", timeout=DEADLINE)
    body = {"model": "claude-x", "max_tokens": 16, "messages": [{"role": "user", "content": "Hi"}]}

    async def go() -> tuple[int, bytes]:
        gateway = Gateway(GatewayConfig([route]))
        transport = httpx2.ASGITransport(app=gateway.app())
        async with httpx2.AsyncClient(transport=transport, base_url="http://gateway", timeout=30) as caller:
            answer = await caller.post("/v1/messages", json={**body, "stream": mode != "headers"})
        await gateway.aclose()
        return answer.status_code, answer.content

    try:
        started = time.monotonic()
        status, content = asyncio.run(go())
        assert time.monotonic() - started < DEADLINE + 2.0
        if mode == "headers":
            assert status == 504
        else:  # the stream had begun: it ends with the caller wire's error event
            assert status == 200 and b"event: error" in content
    finally:
        server.close()


@pytest.mark.parametrize("wire", list(WIRES))
def test_http_request_carries_the_encoded_it_was_built_from(wire: str) -> None:
    """Given the caller's Encoded, a codec sends that body and carries it; without one, it encodes
    once with the defaults and carries that."""
    codec = il.get_codec(wire)
    request = _request(wire)
    endpoint = il.Endpoint(base_url="http://127.0.0.1:9", api_key=KEY, settings=WIRES[wire][2].get("settings", {}))
    given = codec.encode_request(request)
    given.body["marker"] = "the caller's encode"  # a body no second encode would make
    sent = codec.http_request(request, stream=False, endpoint=endpoint, encoded=given)
    assert sent.encoded is given and sent.json["marker"] == "the caller's encode"
    assert sent.json is not given.body  # the codec changes a copy (stream keys), never the caller's body
    alone = codec.http_request(request, stream=True, endpoint=endpoint)
    assert alone.encoded is not None and alone.encoded.warnings == given.warnings
    assert "marker" not in alone.json
