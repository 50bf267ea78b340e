"""An explicit cache breakpoint (``prompt_cache_breakpoint``, gpt-5.6 and later: "marks the exact
end of a reusable prompt prefix", https://developers.openai.com/api/docs/guides/prompt-caching)
is the part's ``cache_control``: a wire with per-block marks carries it, the body comes back as
it came, a part whose mark the host removed goes without it, and a ``ttl`` (30m, 12h), which
``CacheControl`` has no value for, is reported by the wires that drop it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua import CacheControl, Request, get_codec

MARK = {"mode": "explicit"}
TEXT = {"text": "the reference", "prompt_cache_breakpoint": MARK}
BODIES: dict[str, dict[str, Any]] = {
    # ChatCompletionContentPartTextParam.prompt_cache_breakpoint (openai.types.chat)
    "openai-chat": {
        "model": "gpt-5.6",
        "messages": [
            {"role": "system", "content": [{"type": "text", **TEXT}]},
            {"role": "user", "content": "and?"},
        ],
    },
    # ResponseInputTextParam.prompt_cache_breakpoint (openai.types.responses)
    "openai-responses": {
        "model": "gpt-5.6",
        "input": [
            {"role": "system", "content": [{"type": "input_text", **TEXT}]},
            {"role": "user", "content": "and?"},
        ],
    },
}


def _marked(request: Request) -> Any:
    return request.messages[0].parts[0]


@pytest.mark.parametrize("wire", BODIES)
def test_a_breakpoint_is_the_parts_cache_mark_and_goes_back_as_it_came(wire: str) -> None:
    codec = get_codec(wire)
    request = codec.decode_request(BODIES[wire])
    assert _marked(request).cache_control == CacheControl()
    encoded = codec.encode_request(request)
    assert (encoded.body, encoded.warnings) == (BODIES[wire], [])
    to_anthropic = request.model_copy(update={"model": "claude-sonnet-4-5"})
    anthropic = get_codec("anthropic-messages").encode_request(to_anthropic)
    assert anthropic.body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert [w.path for w in anthropic.warnings] == []


@pytest.mark.parametrize("wire", BODIES)
def test_a_part_whose_mark_was_removed_goes_without_its_breakpoint(wire: str) -> None:
    codec = get_codec(wire)
    request = codec.decode_request(BODIES[wire])
    part = _marked(request).model_copy(update={"cache_control": None})
    first = request.messages[0].model_copy(update={"parts": [part]})
    body = codec.encode_request(request.model_copy(update={"messages": [first, *request.messages[1:]]})).body
    assert "prompt_cache_breakpoint" not in str(body)


@pytest.mark.parametrize("wire", BODIES)
def test_a_breakpoints_ttl_is_reported_where_it_is_dropped(wire: str) -> None:
    body = copy.deepcopy(BODIES[wire])
    block = (body.get("messages") or body["input"])[0]["content"][0]
    block["prompt_cache_breakpoint"] = {"mode": "explicit", "ttl": "12h"}
    codec = get_codec(wire)
    request = codec.decode_request(body)
    assert codec.encode_request(request).body == body
    bedrock = get_codec("bedrock-converse").encode_request(request)
    assert [w.path.rsplit(".data.", 1)[-1] for w in bedrock.warnings if ".provider_echoes" in w.path] == [
        "wire.prompt_cache_breakpoint.ttl" if wire == "openai-chat" else "extra.prompt_cache_breakpoint.ttl"
    ]
