"""Client and AsyncClient against a real local server playing each vendor, with real recorded
answers, and every fault the issue names: retries, typed errors, broken streams, timeouts."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import check_rules, read_stream_file, validate_wire

from .conftest import KEY, SCENARIOS, Scenario, body_of, codec_params, through
from .vendor_server import Answer, Fault, VendorServer

pytestmark = pytest.mark.parametrize("wire", codec_params())

FAST = il.RetryPolicy(max_retries=2, initial=0.01, max_delay=0.05)
ERRORS_SEEN: list[str] = []  # every error text and repr these tests produced, searched for the key


OPEN: list[il.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def _client(wire: str, vendor: VendorServer, **kw: Any) -> il.Client:
    scenario = SCENARIOS[wire]
    kw.setdefault("retry", FAST)
    client = il.Client(wire, api_key=KEY, base_url=vendor.url + scenario.prefix, **kw)
    OPEN.append(client)
    return client


def _aclient(wire: str, vendor: VendorServer, **kw: Any) -> il.AsyncClient:
    scenario = SCENARIOS[wire]
    kw.setdefault("retry", FAST)
    return il.AsyncClient(wire, api_key=KEY, base_url=vendor.url + scenario.prefix, **kw)


def _request(scenario: Scenario, name: str, codec: il.Codec) -> il.Request:
    body, path = scenario.recorded_request(name)
    request = codec.decode_request(body)
    if not request.model and "/models/" in path:  # Gemini names the model in the path only
        request = request.model_copy(update={"model": path.split("/models/")[1].split(":")[0]})
    return request


def _send_setup(wire: str, vendor: VendorServer) -> tuple[il.Client, il.Request, Any]:
    scenario = SCENARIOS[wire]
    client = _client(wire, vendor)
    _, response_path, _ = scenario.files(scenario.send)
    recorded = body_of(response_path)
    vendor.answer = Answer(json=recorded)
    return client, _request(scenario, scenario.send, client.codec), recorded


def _stream_setup(wire: str, vendor: VendorServer, **kw: Any) -> tuple[il.Client, il.Request, bytes]:
    scenario = SCENARIOS[wire]
    client = _client(wire, vendor, **kw)
    _, _, stream_path = scenario.files(scenario.stream)
    raw = stream_path.read_bytes()
    vendor.answer = Answer(sse=raw)
    return client, _request(scenario, scenario.stream, client.codec), raw


def _remember(error: BaseException) -> None:
    ERRORS_SEEN.extend([str(error), repr(error), repr(getattr(error, "raw", None))])


# --- send -------------------------------------------------------------------------------------


def test_send_posts_what_the_codec_encoded_and_decodes_the_answer(wire: str, vendor: VendorServer) -> None:
    client, request, recorded = _send_setup(wire, vendor)
    response = client.send(request)
    assert response == through(wire, client.codec.decode_response(recorded))
    [seen] = vendor.received
    scenario = SCENARIOS[wire]
    _, recorded_path = scenario.recorded_request(scenario.send)
    # ``?beta=true`` is how the anthropic SDK marks its beta calls, not part of the API.
    assert seen.path == scenario.prefix.removesuffix("/v1") + recorded_path.removesuffix("?beta=true")
    assert seen.headers[scenario.auth[0]] == scenario.auth[1]
    assert seen.body == client.codec.encode_request(request).body
    original, _ = scenario.recorded_request(scenario.send)
    assert validate_wire(wire, "request", seen.body) == validate_wire(wire, "request", original)
    assert check_rules(wire, seen.body) == []
    ERRORS_SEEN.append(repr(client))


def test_429_with_retry_after_is_retried_then_succeeds(wire: str, vendor: VendorServer) -> None:
    client, request, recorded = _send_setup(wire, vendor)
    vendor.faults.append(Fault("status", 429, headers={"retry-after": "0.05"}))
    assert client.send(request) == through(wire, client.codec.decode_response(recorded))
    assert len(vendor.received) == 2


def test_500_then_success(wire: str, vendor: VendorServer) -> None:
    client, request, recorded = _send_setup(wire, vendor)
    vendor.faults.append(Fault("status", 500))
    assert client.send(request) == through(wire, client.codec.decode_response(recorded))
    assert len(vendor.received) == 2


def test_529_overloaded_is_retried_and_then_typed(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _send_setup(wire, vendor)
    body = b'{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}'
    vendor.faults.extend([Fault("status", 529, body=body)] * 3)
    with pytest.raises(il.OverloadedError) as caught:
        client.send(request)
    assert caught.value.status == 529 and len(vendor.received) == 3
    _remember(caught.value)


def test_retries_are_bounded(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _send_setup(wire, vendor)
    client.retry = il.RetryPolicy(max_retries=1, initial=0.01)
    vendor.faults.extend([Fault("status", 503)] * 5)
    with pytest.raises(il.ServerError):
        client.send(request)
    assert len(vendor.received) == 2


def test_a_400_is_not_retried_and_keeps_the_vendor_message(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _send_setup(wire, vendor)
    vendor.faults.append(
        Fault("status", 400, body=b'{"error": {"message": "bad thing", "type": "invalid_request_error"}}')
    )
    with pytest.raises(il.BadRequestError) as caught:
        client.send(request)
    assert len(vendor.received) == 1 and "bad thing" in str(caught.value)
    _remember(caught.value)


def test_authentication_error_is_typed(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _send_setup(wire, vendor)
    vendor.faults.append(
        Fault("status", 401, body=b'{"error": {"message": "invalid x-api-key", "type": "authentication_error"}}')
    )
    with pytest.raises(il.AuthenticationError) as caught:
        client.send(request)
    _remember(caught.value)


def test_a_server_slower_than_the_timeout_raises_timeout(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _send_setup(wire, vendor)
    slow = _client(wire, vendor, timeout=0.2, retry=il.RetryPolicy(max_retries=0))
    vendor.faults.append(Fault("slow", seconds=1.0))
    with pytest.raises(il.TimeoutError) as caught:
        slow.send(request)
    assert isinstance(caught.value, il.TransportError)
    _remember(caught.value)
    client.close()


def test_an_answer_that_is_not_json_is_a_decode_error(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _send_setup(wire, vendor)
    vendor.answer = Answer(raw=b"{this is not json")
    with pytest.raises(il.DecodeError) as caught:
        client.send(request)
    assert caught.value.path == "body"


def test_connection_refused_is_a_transport_error(wire: str, vendor: VendorServer) -> None:
    scenario = SCENARIOS[wire]
    client = il.Client(wire, api_key=KEY, base_url="http://127.0.0.1:9" + scenario.prefix, retry=FAST)
    OPEN.append(client)
    with pytest.raises(il.TransportError) as caught:
        client.send(_request(scenario, scenario.send, client.codec))
    _remember(caught.value)


def test_a_missing_key_fails_before_any_request(
    wire: str, vendor: VendorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    codec = il.get_codec(wire)
    for name in codec.api_key_env:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(il.MissingAPIKeyError) as caught:
        il.Client(wire, base_url=vendor.url)
    for name in codec.api_key_env:
        assert name in str(caught.value)
    assert vendor.received == []


def test_the_key_comes_from_the_environment(wire: str, vendor: VendorServer, monkeypatch: pytest.MonkeyPatch) -> None:
    codec = il.get_codec(wire)
    for name in codec.api_key_env:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(codec.api_key_env[-1], KEY)
    scenario = SCENARIOS[wire]
    client = il.Client(wire, base_url=vendor.url + scenario.prefix, retry=FAST)
    OPEN.append(client)
    _, _, _ = _send_setup(wire, vendor)
    client.send(_request(scenario, scenario.send, client.codec))
    assert vendor.received[-1].headers[scenario.auth[0]] == scenario.auth[1]


# --- stream -----------------------------------------------------------------------------------


def test_stream_yields_the_codec_events_and_accumulates(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _stream_setup(wire, vendor)
    scenario = SCENARIOS[wire]
    expected = il.accumulate(client.codec.decode_stream(read_stream_file(scenario.files(scenario.stream)[2])))
    with client.stream(request) as events:
        seen = list(events)
    assert il.accumulate(seen) == expected  # the events as decoded; the stream's answer records its host
    assert vendor.received[0].body == client.codec.encode_request(request).body  # stream flag set by the codec
    with client.stream(request) as events:
        assert events.response() == through(wire, expected)


def test_leaving_a_stream_early_closes_it(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _stream_setup(wire, vendor)
    with client.stream(request) as events:
        first = next(iter(events))
    assert isinstance(first, il.MessageStart | il.PartStart)
    client2, request2, recorded = _send_setup(wire, vendor)
    assert client2.send(request2) == through(wire, client2.codec.decode_response(recorded))


def test_a_connection_reset_mid_stream_keeps_the_partial_answer(wire: str, vendor: VendorServer) -> None:
    client, request, raw = _stream_setup(wire, vendor)
    vendor.faults.append(Fault("reset", after=len(raw) * 2 // 3))
    got: list[il.StreamEvent] = []
    with pytest.raises(il.StreamError) as caught, client.stream(request) as events:
        for event in events:
            got.append(event)
    assert got, "events before the break were delivered"
    assert caught.value.partial is not None
    assert len(vendor.received) == 1  # a stream that yielded events is never retried
    _remember(caught.value)


def test_an_error_event_inside_a_200_stream_raises_with_the_partial(wire: str, vendor: VendorServer) -> None:
    client, request, raw = _stream_setup(wire, vendor)
    cut = raw.find(b"\n\n", len(raw) // 2) + 2 if b"\r\n\r\n" not in raw else raw.find(b"\r\n\r\n", len(raw) // 2) + 4
    vendor.answer = Answer(sse=raw[:cut] + ERROR_EVENTS[wire])
    with pytest.raises(il.StreamError) as caught, client.stream(request) as events:
        for _ in events:
            pass
    assert isinstance(caught.value.error, il.ProviderError)
    assert caught.value.partial is not None
    _remember(caught.value)


ERROR_EVENTS = {
    "anthropic-messages": b'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", '
    b'"message": "Overloaded"}}\n\n',
    "openai-chat": b'data: {"error": {"message": "The server had an error", "type": "server_error"}}\n\n',
    "openai-responses": b'event: error\ndata: {"type": "error", "code": "server_error", "message": '
    b'"The server had an error", "param": null, "sequence_number": 99}\n\n',
    "gemini": b'data: {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}\r\n\r\n',
}


def test_a_stream_that_fails_to_open_is_retried_then_typed(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _stream_setup(wire, vendor)
    vendor.faults.append(Fault("status", 429, headers={"retry-after-ms": "20"}))
    with client.stream(request) as events:
        assert events.response().message.parts
    assert len(vendor.received) == 2


# --- async ------------------------------------------------------------------------------------


def test_async_send_and_retry(wire: str, vendor: VendorServer) -> None:
    _, request, recorded = _send_setup(wire, vendor)

    async def go() -> il.Response:
        async with _aclient(wire, vendor) as client:
            vendor.faults.append(Fault("status", 500))
            return await client.send(request)

    response = asyncio.run(go())
    assert response == through(wire, il.get_codec(wire).decode_response(recorded))
    assert len(vendor.received) == 2


def test_async_stream_agrees_with_the_sync_stream(wire: str, vendor: VendorServer) -> None:
    client, request, _ = _stream_setup(wire, vendor)
    with client.stream(request) as events:
        expected = list(events)

    async def go() -> list[il.StreamEvent]:
        async with _aclient(wire, vendor) as aclient, aclient.stream(request) as events:
            return [event async for event in events]

    assert asyncio.run(go()) == expected


def test_async_stream_early_close_and_reset(wire: str, vendor: VendorServer) -> None:
    _, request, raw = _stream_setup(wire, vendor)

    async def early() -> il.StreamEvent:
        async with _aclient(wire, vendor) as aclient, aclient.stream(request) as events:
            async for event in events:
                return event
        raise AssertionError("no events")

    assert isinstance(asyncio.run(early()), il.MessageStart | il.PartStart)

    async def broken() -> None:
        vendor.faults.append(Fault("reset", after=len(raw) // 2))
        async with _aclient(wire, vendor) as aclient, aclient.stream(request) as events:
            async for _ in events:
                pass

    with pytest.raises(il.StreamError) as caught:
        asyncio.run(broken())
    assert caught.value.partial is not None


def test_async_error_event_raises(wire: str, vendor: VendorServer) -> None:
    _, request, raw = _stream_setup(wire, vendor)
    cut = raw.find(b"\n\n", len(raw) // 2) + 2 if b"\r\n\r\n" not in raw else raw.find(b"\r\n\r\n", len(raw) // 2) + 4
    vendor.answer = Answer(sse=raw[:cut] + ERROR_EVENTS[wire])

    async def go() -> None:
        async with _aclient(wire, vendor) as aclient:
            await aclient.stream(request).response()

    with pytest.raises(il.StreamError) as caught:
        asyncio.run(go())
    assert isinstance(caught.value.error, il.ProviderError)


# --- the key never leaks ------------------------------------------------------------------------


def test_the_key_appears_in_no_repr_error_warning_or_log(
    wire: str, vendor: VendorServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client, request, _ = _send_setup(wire, vendor)
    with warnings.catch_warnings(record=True) as caught_warnings:
        warnings.simplefilter("always")
        client.send(request)
        vendor.faults.append(Fault("status", 401, body=b'{"error": {"message": "no", "type": "authentication_error"}}'))
        with pytest.raises(il.ProviderError) as caught:
            client.send(request)
    texts = [
        repr(client),
        str(caught.value),
        repr(caught.value),
        repr(client.codec.http_request(request, stream=False, endpoint=il.Endpoint(api_key=KEY))),
    ]
    texts += [str(w.message) for w in caught_warnings] + [r.getMessage() for r in caplog.records] + ERRORS_SEEN
    assert [text for text in texts if KEY in text] == []


def test_an_event_over_the_clients_limit_ends_the_stream_typed(wire: str, vendor: VendorServer) -> None:
    assert _client(wire, vendor).max_event_size == il.MAX_EVENT_SIZE
    client, request, _ = _stream_setup(wire, vendor, max_event_size=16)
    limit = "could not be framed.*exceeded the 16 byte limit"
    with pytest.raises(il.StreamError, match=limit), client.stream(request) as events:
        for _ in events:
            pass

    async def go() -> None:
        async with _aclient(wire, vendor, max_event_size=16) as aclient, aclient.stream(request) as events:
            async for _ in events:
                pass

    with pytest.raises(il.StreamError, match=limit):
        asyncio.run(go())
