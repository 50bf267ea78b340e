"""The lingua corpus (``shared/fixtures/lingua``): real requests the vendors accepted, with their
answers and streams. Each request and answer round-trips through its own codec exactly and with
no warning (invariant 8), each stream, framed as its wire's SSE bytes, accumulates to an answer,
each refusal decodes as a ProviderError, and each request converts to every other wire with a body
that passes the target's SDK oracle and rule checker."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua import Codec, ProviderError, Request, parse_sse
from interlingua.testing import (
    assert_request_round_trip,
    assert_response_round_trip,
    check_rules,
    corpus_missing,
    lingua_fixtures_dir,
    validate_wire,
)

from .conftest import LINGUA_WIRES

_MISSING = corpus_missing("lingua")  # the one reason every corpus skip shares (the root conftest counts them)
if _MISSING is not None:
    pytest.skip(_MISSING, allow_module_level=True)
ROOT: Path = lingua_fixtures_dir()

WIRES = LINGUA_WIRES
MODELS = {  # the model a cross-converted request addresses (Gemini bodies carry none)
    "anthropic-messages": "claude-sonnet-4-5",
    "openai-chat": "gpt-4.1",
    "openai-responses": "gpt-5",
    "gemini": "gemini-3-pro-preview",
}
# Events of these wires carry their type as the SSE event name; Chat ends with ``data: [DONE]``.
NAMED_EVENTS = {"anthropic-messages", "openai-responses"}


def _files(kind: str) -> list[Path]:
    found = []
    for provider in WIRES:
        for path in sorted(ROOT.glob(f"*/{provider}/*.json")):
            name = path.stem
            kinds = {"stream": name.endswith("-streaming"), "error": name == "error"}
            kinds["request"] = name.endswith("request")
            kinds["response"] = name.endswith("response")
            if kinds[kind]:
                found.append(path)
    return sorted(found)


def _id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.parent.name}/{path.name}"


def _wire(path: Path) -> str:
    return WIRES[path.parent.name]


def _codec(wire: str) -> Codec:
    return il.get_codec(wire)


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


REQUESTS = _files("request")
RESPONSES = _files("response")
STREAMS = _files("stream")
ERRORS = _files("error")
CROSS = [(path, target) for path in REQUESTS for target in MODELS if target != _wire(path)]


def test_the_corpus_is_there() -> None:
    assert len(REQUESTS) >= 150
    assert len(RESPONSES) >= 150
    assert len(STREAMS) >= 140
    assert len(ERRORS) >= 5


@pytest.mark.parametrize("path", REQUESTS, ids=_id)
def test_request_round_trips_exactly_without_warnings(path: Path) -> None:
    if (path.parent / "error.json").exists():
        # The vendor refused this one (its error beside it): an encoder may repair it, never silently.
        codec, body = _codec(_wire(path)), _load(path)
        encoded = codec.encode_request(codec.decode_request(body))
        assert encoded.body == body or encoded.warnings
        return
    assert_request_round_trip(_codec(_wire(path)), _load(path))


@pytest.mark.parametrize("path", RESPONSES, ids=_id)
def test_response_round_trips_exactly_without_warnings(path: Path) -> None:
    assert_response_round_trip(_codec(_wire(path)), _load(path))


@pytest.mark.parametrize("path", ERRORS, ids=_id)
def test_refusal_decodes_as_a_provider_error(path: Path) -> None:
    raw = path.read_bytes()
    error = _codec(_wire(path)).decode_error(400, raw, {})
    assert isinstance(error, ProviderError)
    assert error.status == 400
    assert str(_load(path)["error"]).strip()[:40] in error.message


def _sse_bytes(wire: str, payloads: list[Any]) -> bytes:
    """The payloads framed as the wire sends them."""
    out = []
    for payload in payloads:
        name = payload.get("type") if wire in NAMED_EVENTS and isinstance(payload, dict) else None
        head = f"event: {name}\n" if isinstance(name, str) else ""
        out.append(f"{head}data: {json.dumps(payload)}\n\n")
    if wire == "openai-chat":
        out.append("data: [DONE]\n\n")
    return "".join(out).encode()


@pytest.mark.parametrize("path", STREAMS, ids=_id)
def test_stream_accumulates_to_an_answer(path: Path) -> None:
    """Not compared with the case's response.json: the corpus recorded the streamed and the plain
    answer as two separate calls, so they are two different answers."""
    wire = _wire(path)
    raw = _sse_bytes(wire, _load(path))
    chunks = [raw[i : i + 4093] for i in range(0, len(raw), 4093)]
    response = il.accumulate(_codec(wire).decode_stream(parse_sse(chunks)))
    assert response.message.role == "assistant"
    assert response.stop_reason is not None
    assert response.message.parts or response.stop_reason in ("max_tokens", "content_filter", "error", "other")


@cache
def _request(path: Path) -> Request:
    return _codec(_wire(path)).decode_request(_load(path))


@pytest.mark.parametrize(("path", "target"), CROSS, ids=[f"{_id(p)}->{t}" for p, t in CROSS])
def test_request_converts_to_every_other_wire(path: Path, target: str) -> None:
    request = _request(path).model_copy(update={"model": MODELS[target]})
    body = _codec(target).encode_request(request).body
    assert validate_wire(target, "request", body) == []
    assert check_rules(target, body, model=MODELS[target]) == []
