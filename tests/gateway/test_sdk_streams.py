"""The official SDKs' stream helpers through the gateway: ``client.responses.stream()`` (openai)
and ``client.messages.stream()`` (anthropic) end in the same object as the non-streamed call on
the same answer, from every upstream wire (issue 39)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from interlingua import accumulate, get_codec
from interlingua.testing import first_difference, read_stream_file

from . import callers
from .conftest import GATEWAY_KEY, UPSTREAMS, WIRES, Running
from .vendor import Answer


def _same_answer_both_ways(gw: Running, upstream: str) -> tuple[Answer, Answer]:
    """The upstream's recorded stream, and the body its codec writes for what that stream says."""
    path = UPSTREAMS[upstream].stream_path()
    codec = get_codec(upstream)
    response = accumulate(codec.decode_stream(read_stream_file(path)))
    return Answer(json=codec.encode_response(response).body), Answer(sse=path.read_bytes())


def _comparable(dump: Any) -> Any:
    """A dump without what differs by construction: the time the answer was made, and the
    stream helper's parse results (its ParsedResponse adds ``parsed_arguments`` and ``parsed``
    for structured outputs, none of which are asked for here)."""
    if isinstance(dump, dict):
        return {k: _comparable(v) for k, v in dump.items() if k not in ("created_at", "parsed_arguments", "parsed")}
    if isinstance(dump, list):
        return [_comparable(item) for item in dump]
    return dump


@pytest.mark.parametrize("upstream", WIRES)
def test_responses_stream_helper_ends_in_the_non_streamed_response(gw: Running, upstream: str) -> None:
    plain_answer, stream_answer = _same_answer_both_ways(gw, upstream)
    sdk = callers.client("openai-responses", gw.url, GATEWAY_KEY)
    kwargs = {"model": f"via-{upstream}", "input": callers.PROMPT, "tools": callers._responses_tools()}

    gw.upstreams[upstream].answer = plain_answer
    plain = sdk.responses.create(**kwargs)
    gw.upstreams[upstream].answer = stream_answer
    pieces: dict[str, list[str]] = {}
    with sdk.responses.stream(**kwargs) as events:
        for event in events:
            if event.type == "response.function_call_arguments.delta":
                pieces.setdefault(event.item_id, []).append(event.delta)
            if event.type == "response.output_item.done" and event.item.type == "function_call":
                assert event.item.arguments == "".join(pieces[event.item.id])  # byte for byte
        final = events.get_final_response()

    assert first_difference(_comparable(plain.model_dump()), _comparable(final.model_dump())) is None


@pytest.mark.parametrize("upstream", WIRES)
def test_anthropic_stream_helper_ends_in_the_non_streamed_message(gw: Running, upstream: str) -> None:
    plain_answer, stream_answer = _same_answer_both_ways(gw, upstream)
    sdk = callers.client("anthropic-messages", gw.url, GATEWAY_KEY)
    kwargs = {
        "model": f"via-{upstream}",
        "max_tokens": 256,
        "messages": [{"role": "user", "content": callers.PROMPT}],
        "tools": callers._anthropic_tools(),
    }

    gw.upstreams[upstream].answer = plain_answer
    plain = sdk.messages.create(**kwargs)
    gw.upstreams[upstream].answer = stream_answer
    with sdk.messages.stream(**kwargs) as events:
        final = events.get_final_message()

    assert json.loads(final.model_dump_json()) == json.loads(plain.model_dump_json())
