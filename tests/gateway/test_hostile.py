"""Hostile callers, per caller wire: a caller's fault is a 4xx in the caller's own error shape,
and nothing of it reaches the upstream's URL or headers (issue 39). Raw HTTP, as an attacker
sends it, not through an SDK that would refuse to."""

from __future__ import annotations

import dataclasses
import json
import socket
import time
from typing import Any

import pytest

from .conftest import GATEWAY_KEY, UPSTREAM_KEY, UPSTREAMS, WIRES, Running
from .vendor import Answer, Fault

HEADERS = {
    "anthropic-messages": lambda key: {"x-api-key": key, "anthropic-version": "2023-06-01"},
    "openai-chat": lambda key: {"authorization": f"Bearer {key}"},
    "openai-responses": lambda key: {"authorization": f"Bearer {key}"},
    "gemini": lambda key: {"x-goog-api-key": key},
}


def request_for(wire: str, model: str, **settings: Any) -> tuple[str, dict[str, Any]]:
    """(path, body) of a one-line question in ``wire``, ``settings`` as the wire spells them."""
    question = [{"role": "user", "content": "hi"}]
    if wire == "anthropic-messages":
        return "/v1/messages", {"model": model, "max_tokens": 8, "messages": question} | settings
    if wire == "openai-chat":
        return "/v1/chat/completions", {"model": model, "messages": question} | settings
    if wire == "openai-responses":
        return "/v1/responses", {"model": model, "input": "hi"} | settings
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    return f"/v1beta/models/{model}:generateContent", body | ({"generationConfig": settings} if settings else {})


def post(gw: Running, wire: str, path: str, content: bytes | str, **headers: str) -> Any:
    import httpx2

    sent = {"content-type": "application/json", **HEADERS[wire](GATEWAY_KEY), **headers}
    return httpx2.post(gw.url + path, content=content, headers=sent, timeout=30)


def in_callers_shape(wire: str, answer: Any, status: int) -> str:
    """The error message, after checking the body is the caller's vendor's error shape."""
    body = answer.json()
    assert answer.status_code == status, (answer.status_code, body)
    if wire == "anthropic-messages":
        assert body["type"] == "error" and body["error"]["type"]
    elif wire == "gemini":
        assert body["error"]["code"] == status and body["error"]["status"].isupper()
    else:
        assert set(body["error"]) >= {"message", "type", "code"}
    return str(body["error"]["message"])


def _json(body: dict[str, Any]) -> str:
    return json.dumps(body)


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_json_has_no_token_for_is_a_400(gw: Running, wire: str, token: str) -> None:
    path, body = request_for(wire, "via-openai-chat")
    text = _json({**body, "temperature": 0.5}).replace("0.5", token)

    message = in_callers_shape(wire, post(gw, wire, path, text), 400)

    assert message.startswith("the request body is not JSON")
    assert gw.upstreams["openai-chat"].received == []


@pytest.mark.parametrize("wire", WIRES)
def test_deep_nesting_is_a_400(gw: Running, wire: str) -> None:
    path, body = request_for(wire, "via-openai-chat")
    text = _json(body)[:-1] + ', "x": ' + "[" * 20_000 + "]" * 20_000 + "}"

    in_callers_shape(wire, post(gw, wire, path, text), 400)
    assert gw.upstreams["openai-chat"].received == []


SETTINGS = {  # a setting of the wrong type, as each wire spells it
    "anthropic-messages": [{"max_tokens": "ten"}, {"temperature": "hot"}],
    "openai-chat": [{"max_tokens": "ten"}, {"temperature": "hot"}],
    "openai-responses": [{"max_output_tokens": "ten"}, {"temperature": "hot"}],
    "gemini": [{"maxOutputTokens": "ten"}, {"temperature": "hot"}],
}


@pytest.mark.parametrize(("wire", "setting"), [(w, s) for w in WIRES for s in SETTINGS[w]], ids=str)
def test_a_setting_of_the_wrong_type_is_a_400_and_not_a_default(gw: Running, wire: str, setting: dict) -> None:
    gw.upstreams["openai-chat"].answer = Answer(json=UPSTREAMS["openai-chat"].body())
    path, body = request_for(wire, "via-openai-chat", **setting)

    message = in_callers_shape(wire, post(gw, wire, path, _json(body)), 400)

    assert next(iter(setting)) in message
    assert gw.upstreams["openai-chat"].received == []


@pytest.mark.parametrize("wire", WIRES)
def test_a_path_trick_in_the_model_stays_in_the_upstreams_model_segment(gw: Running, wire: str) -> None:
    gw.upstreams["gemini"].answer = Answer(json=UPSTREAMS["gemini"].body())
    model = "gem-../../../../v1/secrets?x=1#"
    path, body = request_for(wire, model)
    if wire == "gemini":  # the model is in the caller's own path: escaped there, as a client does
        path = "/v1beta/models/gem-..%2F..%2F..%2F..%2Fv1%2Fsecrets%3Fx%3D1%23:generateContent"

    answer = post(gw, wire, path, _json(body))

    received = gw.upstreams["gemini"].received
    if wire == "gemini":  # a decoded "/" leaves the one segment the route takes: no route
        assert (answer.status_code, received) == (404, [])
        return
    assert answer.status_code == 200, answer.text
    assert [r.path for r in received] == [
        "/v1beta/models/gem-..%2F..%2F..%2F..%2Fv1%2Fsecrets%3Fx%3D1%23:generateContent"
    ]


@pytest.mark.parametrize("wire", WIRES)
def test_a_callers_headers_do_not_reach_the_upstream(gw: Running, wire: str) -> None:
    gw.upstreams["openai-chat"].answer = Answer(json=UPSTREAMS["openai-chat"].body())
    path, body = request_for(wire, "via-openai-chat")
    planted = {"x-forwarded-host": "evil.test", "x-planted": "1", "openai-organization": "org-evil"}

    assert post(gw, wire, path, _json(body), **planted).status_code == 200

    [received] = gw.upstreams["openai-chat"].received
    assert received.headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert not set(planted) & set(received.headers)
    assert GATEWAY_KEY not in str(received.headers)


def _raw(gw: Running, data: bytes, wait: float = 5.0) -> bytes:
    host, port = gw.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as sock:
        sock.sendall(data)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except TimeoutError:
            pass
    return b"".join(chunks)


@pytest.mark.parametrize("wire", WIRES)
def test_a_header_with_a_line_break_is_refused_before_the_gateway(gw: Running, wire: str) -> None:
    path, body = request_for(wire, "via-openai-chat")
    content = _json(body).encode()
    head = f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {len(content)}\r\n"
    injected = f"x-api-key: {GATEWAY_KEY}\rauthorization: Bearer {GATEWAY_KEY}\r\n".encode()

    answer = _raw(gw, head.encode() + injected + b"\r\n" + content)

    assert answer.startswith(b"HTTP/1.1 400"), answer[:80]
    assert gw.upstreams["openai-chat"].received == []


@pytest.mark.parametrize("wire", WIRES)
def test_a_chunked_body_over_the_limit_is_a_413_without_a_content_length(gw: Running, wire: str) -> None:
    import httpx2

    path, _ = request_for(wire, "via-openai-chat")
    headers = {"content-type": "application/json", **HEADERS[wire](GATEWAY_KEY)}

    def pieces() -> Any:
        yield b'{"model": "via-openai-chat", "x": "'
        for _ in range(100):
            yield b"x" * 1024

    answer = httpx2.post(gw.url + path, content=pieces(), headers=headers, timeout=30)

    in_callers_shape(wire, answer, 413)
    assert gw.upstreams["openai-chat"].received == []


@pytest.mark.parametrize("wire", WIRES)
def test_a_body_dripped_slower_than_the_limit_is_a_408(gw: Running, wire: str) -> None:
    path, body = request_for(wire, "via-openai-chat")
    content = _json(body).encode()
    head = f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {len(content)}\r\n"
    auth = "".join(f"{k}: {v}\r\n" for k, v in HEADERS[wire](GATEWAY_KEY).items())
    config = gw.gateway.config
    gw.gateway.config = dataclasses.replace(config, body_timeout=0.5)
    try:
        host, port = gw.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(head.encode() + auth.encode() + b"\r\n" + content[:5])
            started = time.monotonic()
            answer = sock.recv(65536)  # the rest never comes
    finally:
        gw.gateway.config = config

    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert time.monotonic() - started < 5
    assert gw.upstreams["openai-chat"].received == []


def test_an_upstream_answer_its_wire_cannot_read_is_a_502(gw: Running) -> None:
    gw.upstreams["openai-chat"].answer = Answer(raw=b'{"choices": "not a list"}')
    path, body = request_for("anthropic-messages", "via-openai-chat")

    message = in_callers_shape("anthropic-messages", post(gw, "anthropic-messages", path, _json(body)), 502)

    assert message.startswith("the upstream's answer could not be read: openai-chat: ")



def test_a_gemini_callers_stream_broken_upstream_ends_with_a_google_status(gw: Running) -> None:
    """It said ``"status": "api_error"``, another vendor's error type (issue 39)."""
    import httpx2

    data = UPSTREAMS["openai-chat"].stream_path().read_bytes()
    gw.upstreams["openai-chat"].answer = Answer(sse=data)
    gw.upstreams["openai-chat"].faults.append(Fault("reset", after=len(data) // 2))
    path = "/v1beta/models/via-openai-chat:streamGenerateContent?alt=sse"
    body = request_for("gemini", "via-openai-chat")[1]

    answer = httpx2.post(gw.url + path, json=body, headers=HEADERS["gemini"](GATEWAY_KEY), timeout=30)

    last = [line for line in answer.text.splitlines() if line.startswith("data:")][-1]
    error = json.loads(last.removeprefix("data:"))["error"]
    assert (error["code"], error["status"]) == (500, "INTERNAL")
    assert error["message"].startswith("the stream broke off")
