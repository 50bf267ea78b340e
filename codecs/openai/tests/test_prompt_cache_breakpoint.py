"""An explicit cache breakpoint (``prompt_cache_breakpoint``, gpt-5.6 and later: "marks the exact
end of a reusable prompt prefix", https://developers.openai.com/api/docs/guides/prompt-caching)
is the part's ``cache_control``: a wire with per-block marks carries it, the body comes back as
it came, a part whose mark the host removed goes without it, and its ``ttl`` (30m, 12h) is the
mark's, sent as the nearest lifetime by the wires that take others (5m, 1h), with a warning. The
other way, a ``cache_control`` becomes a breakpoint on a model the catalog says takes them."""

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
def test_a_breakpoints_ttl_is_the_marks_and_maps_to_the_nearest_elsewhere(wire: str) -> None:
    body = copy.deepcopy(BODIES[wire])
    block = (body.get("messages") or body["input"])[0]["content"][0]
    block["prompt_cache_breakpoint"] = {"mode": "explicit", "ttl": "12h"}
    codec = get_codec(wire)
    request = codec.decode_request(body)
    assert _marked(request).cache_control == CacheControl(ttl="12h")
    assert (codec.encode_request(request).body, codec.encode_request(request).warnings) == (body, [])
    # Converse and the Messages API keep a prefix 5m or 1h: 12h goes as the longest, with a warning
    claude = request.model_copy(update={"model": "anthropic.claude-sonnet-4-5-20250929-v1:0"})
    bedrock = get_codec("bedrock-converse").encode_request(claude)
    assert bedrock.body["system"][1] == {"cachePoint": {"type": "default", "ttl": "1h"}}
    anthropic = get_codec("anthropic-messages").encode_request(claude.model_copy(update={"model": "claude-sonnet-4-5"}))
    assert anthropic.body["system"][0]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    for encoded in (bedrock, anthropic):
        converted = [(w.path, w.action) for w in encoded.warnings]  # type: ignore[attr-defined]
        assert converted == [("messages[0].parts[0].cache_control", "converted")]


# A mark from another wire (Anthropic's cache_control) on a model that takes breakpoints: the
# catalog's feature (gpt-6-sol: "Supported for gpt-5.6 and later models", openai PromptCacheOptions).
ANTHROPIC = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 100,
    "system": [{"type": "text", "text": "the reference", "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "a", "cache_control": {"type": "ephemeral"}},
                {"type": "text", "text": "b", "cache_control": {"type": "ephemeral"}},
                {"type": "text", "text": "c", "cache_control": {"type": "ephemeral", "ttl": "5m"}},
            ],
        }
    ],
}


def _from_anthropic(model: str) -> Request:
    return get_codec("anthropic-messages").decode_request(ANTHROPIC).model_copy(update={"model": model})


def _marks(body: dict[str, Any]) -> list[Any]:
    """Each content block's breakpoint (None for none, and for content sent as a plain string)."""
    marks: list[Any] = []
    for item in body.get("messages") or body["input"]:
        blocks = item["content"] if isinstance(item["content"], list) else [{}]
        marks += [block.get("prompt_cache_breakpoint") for block in blocks]
    return marks


@pytest.mark.parametrize("wire", BODIES)
def test_cache_control_from_another_wire_becomes_a_breakpoint_on_a_model_that_takes_them(wire: str) -> None:
    encoded = get_codec(wire).encode_request(_from_anthropic("gpt-6-sol"))
    # the implicit mode writes the latest three explicit breakpoints: the earliest is reported, not sent
    mark = {"mode": "explicit"}
    assert _marks(encoded.body) == [None, mark, mark, {**mark, "ttl": "30m"}]
    assert [(w.path, w.action, "5m" in w.message) for w in encoded.warnings] == [  # type: ignore[attr-defined]
        ("messages[0].parts[0].cache_control", "dropped", False),
        ("messages[1].parts[2].cache_control", "converted", True),
    ]
    explicit = _from_anthropic("gpt-6-sol")
    options = {"openai": {"prompt_cache_options": {"mode": "explicit"}}}
    explicit = explicit.model_copy(update={"provider_options": options})
    encoded = get_codec(wire).encode_request(explicit)  # the explicit mode writes four: 1h goes as 12h
    assert _marks(encoded.body)[0] == {"mode": "explicit", "ttl": "12h"}
    paths = [w.path for w in encoded.warnings]
    assert paths == [f"messages[{i}].parts[{j}].cache_control" for i, j in ((0, 0), (1, 2))]


@pytest.mark.parametrize("wire", BODIES)
def test_a_model_without_breakpoints_reports_each_mark(wire: str) -> None:
    encoded = get_codec(wire).encode_request(_from_anthropic("gpt-5"))
    assert "prompt_cache_breakpoint" not in str(encoded.body)
    paths = [w.path for w in encoded.warnings]
    assert paths == [f"messages[{i}].parts[{j}]" for i, j in ((0, 0), (1, 0), (1, 1), (1, 2))]
    assert all("no explicit cache breakpoints" in w.message for w in encoded.warnings)
