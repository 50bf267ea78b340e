"""Errors, limits, keys and cancellation, seen from the official SDK clients."""

from __future__ import annotations

import itertools
import json
import logging
import time
from typing import Any

import pytest

from interlingua.gateway import WARNINGS_HEADER

from . import callers
from .conftest import GATEWAY_KEY, UPSTREAM_KEY, UPSTREAMS, WIRES, Running
from .vendor import Answer, Fault

PAIRS = [pytest.param(c, u, id=f"{c}->{u}") for c, u in itertools.product(WIRES, WIRES)]

UPSTREAM_ERRORS = {  # each vendor's own error body, as its API sends it
    "anthropic-messages": lambda kind, message: {"type": "error", "error": {"type": kind, "message": message}},
    "openai-chat": lambda kind, message: {"error": {"message": message, "type": kind, "param": None, "code": None}},
    "openai-responses": lambda kind, message: {
        "error": {"message": message, "type": kind, "param": None, "code": None}
    },
    "gemini": lambda kind, message: {"error": {"code": 429, "message": message, "status": "RESOURCE_EXHAUSTED"}},
}


def status_error(exc: BaseException) -> tuple[int, dict[str, str], Any]:
    """An SDK's HTTP error as (status, headers, parsed body), whichever SDK raised it."""
    response = getattr(exc, "response", None)
    status = getattr(exc, "status_code", None) or getattr(exc, "code", None)
    headers = dict(response.headers) if response is not None else {}
    body = getattr(exc, "body", None)
    if body is None and hasattr(exc, "details"):
        body = exc.details
    return int(status), {k.lower(): v for k, v in headers.items()}, body


def raised(call: Any) -> BaseException:
    try:
        call()
    except Exception as exc:
        return exc
    raise AssertionError("no error raised")


def message_of(wire: str, body: Any) -> str:
    if wire == "anthropic-messages":
        return str(body["error"]["message"])
    return str((body.get("error") or body)["message"])


@pytest.mark.parametrize(("caller", "upstream"), PAIRS)
def test_an_upstream_429_stays_a_429_with_its_retry_after(gw: Running, caller: str, upstream: str) -> None:
    body = UPSTREAM_ERRORS[upstream]("rate_limit_error", f"slow down, key {UPSTREAM_KEY} is busy")
    gw.upstreams[upstream].faults.append(
        Fault("status", status=429, headers={"retry-after": "7"}, body=json.dumps(body).encode())
    )
    sdk = callers.client(caller, gw.url, GATEWAY_KEY)

    status, headers, error = status_error(raised(lambda: callers.ask(caller, sdk, f"via-{upstream}")))

    assert (status, headers["retry-after"]) == (429, "7")
    assert message_of(caller, error) == "slow down, key <hidden> is busy"
    assert UPSTREAM_KEY not in json.dumps(error)


@pytest.mark.parametrize(("caller", "upstream"), PAIRS)
def test_an_upstream_500_on_a_stream_comes_back_as_a_500(gw: Running, caller: str, upstream: str) -> None:
    body = UPSTREAM_ERRORS[upstream]("api_error", "the upstream broke")
    gw.upstreams[upstream].faults.append(Fault("status", status=500, body=json.dumps(body).encode()))
    gw.upstreams[upstream].answer = Answer(sse=UPSTREAMS[upstream].stream_path().read_bytes())
    sdk = callers.client(caller, gw.url, GATEWAY_KEY)

    status, _, error = status_error(raised(lambda: callers.ask(caller, sdk, f"via-{upstream}", stream=True)))

    assert status == 500
    assert message_of(caller, error) == "the upstream broke"


@pytest.mark.parametrize(("caller", "upstream"), PAIRS)
def test_a_caller_that_leaves_mid_stream_closes_the_upstream_stream(gw: Running, caller: str, upstream: str) -> None:
    server = gw.upstreams[upstream]
    server.answer = Answer(sse=UPSTREAMS[upstream].stream_path().read_bytes())
    server.hold = 10.0
    abandoned = server.abandoned
    sdk = callers.client(caller, gw.url, GATEWAY_KEY)

    events = callers.open_stream(caller, sdk, f"via-{upstream}")
    next(iter(events))
    # (A chat upstream's stream is over at its [DONE]: the gateway closes it then, before this.)
    events.close() if hasattr(events, "close") else events.response.close()

    deadline = time.monotonic() + 10
    while (gw.gateway.open_streams, server.abandoned) != (0, abandoned + 1) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert (gw.gateway.open_streams, server.abandoned) == (0, abandoned + 1)


@pytest.mark.parametrize(("caller", "upstream"), PAIRS)
def test_a_stream_broken_midway_ends_with_the_callers_error_event(gw: Running, caller: str, upstream: str) -> None:
    data = UPSTREAMS[upstream].stream_path().read_bytes()
    gw.upstreams[upstream].answer = Answer(sse=data)
    gw.upstreams[upstream].faults.append(Fault("reset", after=len(data) // 2))
    sdk = callers.client(caller, gw.url, GATEWAY_KEY)

    error = raised(lambda: callers.ask(caller, sdk, f"via-{upstream}", stream=True))

    assert type(error).__name__ in STREAM_ERRORS[caller], repr(error)
    assert "the stream broke off" in str(error)


STREAM_ERRORS = {
    "anthropic-messages": {"APIStatusError", "APIError"},
    "openai-chat": {"APIError"},
    # the error event nests an "error" object, as the API's does, so the SDK raises on it
    "openai-responses": {"APIError"},
    "gemini": {"ServerError", "APIError"},
}


@pytest.mark.parametrize("caller", WIRES)
def test_a_wrong_gateway_key_is_a_401_in_the_callers_shape(gw: Running, caller: str) -> None:
    sdk = callers.client(caller, gw.url, "not-a-key")

    status, _, error = status_error(raised(lambda: callers.ask(caller, sdk, "via-openai-chat")))

    assert (status, message_of(caller, error)) == (401, "invalid or missing gateway key")
    assert gw.upstreams["openai-chat"].received == []


@pytest.mark.parametrize("caller", WIRES)
def test_an_unknown_model_is_the_callers_404(gw: Running, caller: str) -> None:
    sdk = callers.client(caller, gw.url, GATEWAY_KEY)

    status, _, error = status_error(raised(lambda: callers.ask(caller, sdk, "nobody-serves-this")))

    assert (status, message_of(caller, error)) == (404, "model: nobody-serves-this is not served by this gateway")
    assert KIND_404[caller](error)


KIND_404 = {
    "anthropic-messages": lambda body: body["error"]["type"] == "not_found_error" and body["type"] == "error",
    "openai-chat": lambda body: body["code"] == "model_not_found",
    "openai-responses": lambda body: body["code"] == "model_not_found",
    "gemini": lambda body: body["error"]["status"] == "NOT_FOUND",
}


@pytest.mark.parametrize("caller", WIRES)
def test_a_body_over_the_limit_is_a_413_and_never_sent(gw: Running, caller: str) -> None:
    sdk = callers.client(caller, gw.url, GATEWAY_KEY)
    big = "x" * (65 * 1024)

    status, _, _ = status_error(raised(lambda: callers.ask_with_text(caller, sdk, "via-openai-chat", big)))

    assert status == 413
    assert gw.upstreams["openai-chat"].received == []


def test_an_upstream_refusing_the_gateways_key_is_a_502_that_names_no_key(gw: Running) -> None:
    body = UPSTREAM_ERRORS["openai-chat"]("invalid_request_error", f"Incorrect API key provided: {UPSTREAM_KEY}")
    gw.upstreams["openai-chat"].faults.append(Fault("status", status=401, body=json.dumps(body).encode()))
    sdk = callers.client("anthropic-messages", gw.url, GATEWAY_KEY)

    status, _, error = status_error(raised(lambda: callers.ask("anthropic-messages", sdk, "via-openai-chat")))

    assert (status, error["error"]["message"]) == (502, "the upstream refused the gateway's credentials")


def test_a_lossy_request_is_reported_in_a_header_and_refused_on_a_strict_route(gw: Running) -> None:
    gw.upstreams["gemini"].answer = Answer(json=UPSTREAMS["gemini"].body())
    sdk = callers.client("anthropic-messages", gw.url, GATEWAY_KEY)
    cached = [{"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]}]

    raw = sdk.messages.with_raw_response.create(model="via-gemini", max_tokens=64, messages=cached)
    status, _, error = status_error(
        raised(lambda: sdk.messages.create(model="strict-via-gemini", max_tokens=64, messages=cached))
    )

    # The request's cache mark (Gemini has none), and the answer's total count (Anthropic has none).
    assert raw.headers[WARNINGS_HEADER] == "2; messages[0].parts[0], usage.extra.totalTokenCount"
    assert (status, error["error"]["message"]) == (
        400,
        "strict route 'strict-via-gemini': gemini would lose messages[0].parts[0]",
    )
    assert len(gw.upstreams["gemini"].received) == 1


def test_the_log_shows_model_route_latency_tokens_and_warnings_and_never_a_key(
    gw: Running, caplog: pytest.LogCaptureFixture
) -> None:
    gw.upstreams["openai-chat"].answer = Answer(json=UPSTREAMS["openai-chat"].body())
    sdk = callers.client("anthropic-messages", gw.url, GATEWAY_KEY)
    with caplog.at_level(logging.INFO, logger="interlingua.gateway"):
        callers.ask("anthropic-messages", sdk, "via-openai-chat")
        deadline = time.monotonic() + 5
        while not caplog.records and time.monotonic() < deadline:
            time.sleep(0.01)

    [line] = [r.getMessage() for r in caplog.records if r.name == "interlingua.gateway"]
    assert line.startswith("POST /v1/messages model=via-openai-chat upstream=openai-chat/gpt-4o status=200 latency_ms=")
    assert " tokens=" in line and " warnings=" in line
    assert UPSTREAM_KEY not in line and GATEWAY_KEY not in line


def test_a_caller_that_leaves_a_plain_call_cancels_the_upstream_call(
    gw: Running, caplog: pytest.LogCaptureFixture
) -> None:
    import anthropic

    gw.upstreams["openai-chat"].faults.append(Fault("slow", seconds=3.0))
    gw.upstreams["openai-chat"].answer = Answer(json=UPSTREAMS["openai-chat"].body())
    sdk = anthropic.Anthropic(api_key=GATEWAY_KEY, base_url=gw.url, max_retries=0, timeout=0.5)
    started = time.monotonic()
    with caplog.at_level(logging.INFO, logger="interlingua.gateway"):
        assert type(raised(lambda: callers.ask("anthropic-messages", sdk, "via-openai-chat"))).__name__ == (
            "APITimeoutError"
        )
        while not caplog.records and time.monotonic() - started < 2.5:
            time.sleep(0.01)

    [line] = [r.getMessage() for r in caplog.records if r.name == "interlingua.gateway"]
    assert "status=499" in line and "the caller disconnected" in line
    assert time.monotonic() - started < 2.5  # logged before the upstream would have answered


def test_a_gemini_method_the_gateway_does_not_serve_is_a_404_in_googles_shape(gw: Running) -> None:
    import httpx2

    answer = httpx2.post(
        f"{gw.url}/v1beta/models/via-gemini:embedContent", json={"content": {}}, headers={"x-goog-api-key": GATEWAY_KEY}
    )

    assert (answer.status_code, answer.json()["error"]["status"]) == (404, "NOT_FOUND")
    assert answer.json()["error"]["message"] == (
        "/v1beta/models/via-gemini:embedContent: this gateway serves generateContent, streamGenerateContent"
        " and countTokens"
    )


def test_a_body_that_is_not_json_is_a_400_in_the_callers_shape(gw: Running) -> None:
    import httpx2

    answer = httpx2.post(f"{gw.url}/v1/messages", content=b"{nope", headers={"x-api-key": GATEWAY_KEY})

    assert answer.status_code == 400
    assert answer.json()["error"]["type"] == "invalid_request_error"
    assert answer.json()["error"]["message"].startswith("the request body is not JSON")
