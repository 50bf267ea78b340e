"""Invariant 5 under mutation: malformed input of any kind gives an InterlinguaError, never a bare
KeyError, TypeError, RecursionError or ValidationError; whatever a decoder accepts, every codec
encodes, or refuses with a typed error, into a body the transport can send.

The inputs are the real corpus and the golden fixtures, mutated by ``interlingua.testing
.mutations`` (``bench/fuzz_contract.py`` runs the same mutations 100k times). Deterministic in
CI (derandomized); 400 examples per wire and kind there (about 15 s), 150 elsewhere
(``INTERLINGUA_FUZZ_EXAMPLES`` overrides).
The named cases below pin the defects such runs found, each at its path.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interlingua as il
from interlingua import DecodeError, EncodeError, InterlinguaError, Request, ToolUse
from interlingua.kit import MAX_DEPTH, ToolIds
from interlingua.testing import mutations as mut
from interlingua.testing import real_fixtures_dir

ROOT = Path(__file__).resolve().parent.parent

try:
    real_fixtures_dir()
except FileNotFoundError:
    pytest.skip("shared/fixtures/real not found: the fuzz contract runs on the real corpus", allow_module_level=True)

_CI = bool(os.environ.get("CI"))
_CORPORA: dict[str, mut.Corpus] = {}


def _corpus(wire: str) -> mut.Corpus:
    if wire not in _CORPORA:
        _CORPORA[wire] = mut.load_corpus(wire, ROOT / "fixtures" / wire)
    return _CORPORA[wire]


def _contract_holds(wire: str, kind: str, value: Any) -> None:
    codecs = [il.get_codec(name) for name in mut.wires()]
    try:
        decoded = mut.decode_mutated(il.get_codec(wire), kind, value)
    except InterlinguaError:
        return
    if kind == "error":
        assert isinstance(decoded, il.ProviderError)
        return
    for codec in codecs:
        try:
            body = mut.encode_decoded(codec, decoded)
        except EncodeError as err:  # an encoder refuses only with EncodeError, naming itself
            assert err.codec == codec.name, (err.codec, codec.name)
            continue
        assert isinstance(body, dict) and body


@pytest.mark.parametrize("kind", mut.KINDS)
@pytest.mark.parametrize("wire", mut.wires())
@settings(derandomize=_CI, max_examples=int(os.environ.get("INTERLINGUA_FUZZ_EXAMPLES", 400 if _CI else 150)))
@given(rng=st.randoms(use_true_random=False))
def test_mutated_inputs_fail_only_with_typed_errors(wire: str, kind: str, rng: Any) -> None:
    value = mut.mutated_input(_corpus(wire), kind, rng)
    if value is not None:
        _contract_holds(wire, kind, value)


def test_the_corpus_has_every_kind_for_every_wire() -> None:
    for wire in mut.wires():
        corpus = _corpus(wire)
        assert corpus.requests and corpus.responses and corpus.streams and corpus.errors, wire


def test_mutations_never_touch_their_input() -> None:
    body = {"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}], "n": 1.5}
    before = json.dumps(body)
    rng = __import__("random").Random(3)
    changed = [mut.mutate_body(body, rng, rounds=1) for _ in range(200)]
    assert json.dumps(body) == before
    assert sum(c != body for c in changed) > 150


# --- the defects the runs found, each pinned at its cause ------------------------------------


def _anthropic_request(**message: Any) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}, message]}


def test_an_anthropic_block_without_type_is_a_decode_error_at_its_path() -> None:
    body = _anthropic_request(role="assistant", content=[{"text": "```python"}])
    with pytest.raises(DecodeError) as err:
        il.get_codec("anthropic-messages").decode_request(body)
    assert (err.value.codec, err.value.path) == ("anthropic-messages", "messages[1].content[0].type")
    assert err.value.reason == "required field is missing"


def test_a_chat_block_whose_type_is_a_list_is_a_decode_error_at_its_path() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": [{"type": ["text"], "text": "hi"}]}]}
    with pytest.raises(DecodeError) as err:
        il.get_codec("openai-chat").decode_request(body)
    assert (err.value.path, err.value.reason) == ("messages[0].content[0].type", "expected a string, got an array")


def test_a_responses_native_item_whose_type_is_not_a_string_is_refused() -> None:
    body = {"model": "gpt-5", "input": [{"type": {"x": 1}, "id": "ws_1"}]}
    with pytest.raises(DecodeError) as err:
        il.get_codec("openai-responses").decode_request(body)
    assert err.value.path == "input[0].type"


_DEEP = "[" * 900 + "]" * 900  # the stdlib parser builds it; jiter would refuse it

# Per wire: a body it takes, with ``DEEP`` where a decoder keeps a value verbatim (an unknown
# setting, a tool input or native block inside the messages).
_KEPT_DEEP = {
    "gemini": [
        '{"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"x": DEEP}}',
        '{"contents": [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"a": DEEP}}}]}]}',
    ],
    "anthropic-messages": [
        '{"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "hi"}], "x": DEEP}',
        '{"model": "m", "max_tokens": 1, "messages": [{"role": "assistant", "content": '
        '[{"type": "tool_use", "id": "t", "name": "f", "input": {"a": DEEP}}]}]}',
    ],
    "openai-chat": [
        '{"model": "m", "messages": [{"role": "user", "content": "hi"}], "x": DEEP}',
        '{"model": "m", "messages": [{"role": "user", "content": [{"type": "x_block", "x": DEEP}]}]}',
    ],
    "openai-responses": [
        '{"model": "m", "input": "hi", "x": DEEP}',
        '{"model": "m", "input": [{"type": "x_item", "x": DEEP}]}',
    ],
}


@pytest.mark.parametrize("wire", sorted(_KEPT_DEEP))
def test_nesting_deeper_than_the_json_parser_allows_is_a_decode_error(wire: str) -> None:
    for text in _KEPT_DEEP[wire]:
        body = json.loads(text.replace("DEEP", _DEEP))
        with pytest.raises(DecodeError) as err:
            il.get_codec(wire).decode_request(body)
        assert (err.value.codec, err.value.reason) == (wire, f"nested more than {MAX_DEPTH} levels deep"), text


@pytest.mark.parametrize("wire", sorted(_KEPT_DEEP))
def test_a_kept_value_within_the_limit_decodes_and_one_past_it_is_refused(wire: str) -> None:
    codec = il.get_codec(wire)
    for text in _KEPT_DEEP[wire]:
        within = json.loads(text.replace("DEEP", "[" * (MAX_DEPTH - 10) + "]" * (MAX_DEPTH - 10)))
        assert codec.decode_request(within) is not None
        past = json.loads(text.replace("DEEP", "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)))
        with pytest.raises(DecodeError) as err:
            codec.decode_request(past)
        assert err.value.reason == f"nested more than {MAX_DEPTH} levels deep", text


def test_nesting_within_the_limit_still_decodes() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(MAX_DEPTH - 10):
        schema = {"type": "array", "items": schema}
    body = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": schema},
    }
    request = il.get_codec("gemini").decode_request(body)
    assert request.response_format is not None


def test_a_chat_stream_refusal_that_is_not_text_is_a_decode_error() -> None:
    chunk = {"id": "c1", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"role": "assistant", "refusal": -1}}]}
    events = [il.ServerSentEvent(data=json.dumps(chunk))]
    with pytest.raises(DecodeError) as err:
        il.accumulate(il.get_codec("openai-chat").decode_stream(events))
    assert (err.value.codec, err.value.path) == ("openai-chat", "events[0].choices[0].delta.refusal")


def test_a_chat_stream_model_that_is_not_a_string_is_a_decode_error() -> None:
    chunk = {"id": "c1", "model": True, "choices": [{"index": 0, "delta": {"content": "hi"}}]}
    with pytest.raises(DecodeError) as err:
        il.accumulate(il.get_codec("openai-chat").decode_stream([il.ServerSentEvent(data=json.dumps(chunk))]))
    assert err.value.path == "model"


def test_a_tool_id_with_a_lone_surrogate_maps_to_an_id_the_rule_accepts() -> None:
    ids = ToolIds(r"[a-zA-Z0-9_-]+", length=30, prefix="toolu_")
    mapped = ids.encode("call_\ud800x")
    assert ids.accepts(mapped) and mapped.startswith("toolu_")
    assert ids.decode(mapped) == "call_\ud800x"
    assert ToolIds(r"[a-zA-Z0-9_-]+", length=30, prefix="toolu_").decode(mapped) == "call_\ud800x"  # no memory


def test_a_tool_id_that_is_not_a_string_is_an_encode_error() -> None:
    ids = ToolIds(r"[a-zA-Z0-9_-]+", length=30, prefix="toolu_")
    with pytest.raises(EncodeError, match="tool call id True is not a string"):
        ids.encode(True)  # type: ignore[arg-type]  # what a decoder that skipped a check would pass


def test_a_lone_surrogate_in_a_text_source_is_an_encode_error_for_gemini() -> None:
    body = _anthropic_request(
        role="user",
        content=[{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "\udfffgrass"}}],
    )
    request = il.get_codec("anthropic-messages").decode_request(body)
    with pytest.raises(EncodeError) as err:
        il.get_codec("gemini").encode_request(request)
    assert err.value.path == "messages[1].parts[0].source.text"


def test_body_bytes_refuses_a_lone_surrogate_with_its_path() -> None:
    from interlingua._wire import body_bytes

    with pytest.raises(EncodeError) as err:
        body_bytes({"messages": [{"role": "user", "content": "a\ud800b"}]}, "acme")
    assert (err.value.codec, err.value.path) == ("acme", "messages[0].content")


def test_body_bytes_refuses_nan_and_infinity_but_not_their_names_in_text() -> None:
    from interlingua._wire import body_bytes

    with pytest.raises(EncodeError) as err:
        body_bytes({"model": "m", "temperature": math.nan}, "acme")
    assert (err.value.path, err.value.reason) == ("temperature", "nan is not a JSON number")
    with pytest.raises(EncodeError) as err:
        body_bytes({"tools": [{"input_schema": {"maximum": math.inf}}]}, "acme")
    assert err.value.path == "tools[0].input_schema.maximum"
    assert body_bytes({"text": "NaN and Infinity"}, "acme") == b'{"text":"NaN and Infinity"}'


def test_a_decoded_nan_temperature_is_refused_by_every_encoder() -> None:
    body = json.loads('{"model": "gpt-4o", "temperature": NaN, "messages": [{"role": "user", "content": "hi"}]}')
    request: Request = il.get_codec("openai-chat").decode_request(body)
    assert math.isnan(request.temperature or 0.0)
    for wire in mut.wires():
        with pytest.raises(EncodeError) as err:
            il.get_codec(wire).encode_request(request)
        assert (err.value.codec, err.value.path, err.value.reason) == (wire, "temperature", "nan is not a JSON number")


def test_a_tool_use_keeps_its_id_through_the_mapper_when_it_is_sound() -> None:
    part = ToolUse(id="toolu_01", name="f", input={})
    assert ToolIds(r"[a-zA-Z0-9_-]+", length=30).encode(part.id) == "toolu_01"


def test_body_bytes_refuses_nesting_past_the_serializers_depth() -> None:
    from interlingua._wire import body_bytes

    deep: Any = "x"
    for _ in range(300):
        deep = [deep]
    with pytest.raises(EncodeError) as err:
        body_bytes({"metadata": deep}, "acme")
    assert (err.value.path, err.value.reason) == (
        "",
        "Error serializing to JSON: ValueError: Maximum serialization depth exceeded",
    )


# --- enum values: refused at their path, or kept verbatim; never read as a near value ----------

_STRICT_KEYS = frozenset({"role", "tool_choice", "mode", "effort", "reasoning_effort", "thinkingLevel", "ttl"})
_STRICT_KEYS |= {"status", "format", "detail", "stop_reason", "finish_reason", "stopReason", "finishReason", "level"}
"""Enum-valued keys of all six wires (roles, tool-choice modes, efforts and thinking levels,
cache lifetimes): each variant of a real value is a DecodeError at its path, or (where the wire
keeps what it does not map: provider_options, an echo, a native block) comes back unchanged."""


def _enum_cases(wire: str) -> list[tuple[str, Any, tuple[Any, ...], str]]:
    corpus = _corpus(wire)
    cases = []
    for kind, bodies in (("request", corpus.requests), ("response", corpus.responses)):
        for body in bodies:
            for at in mut.enum_paths(body, _STRICT_KEYS):
                cases += [(kind, body, at, variant) for variant in mut.enum_variants(mut._get(body, at))]
    return cases


def _at(body: Any, at: tuple[Any, ...]) -> Any:
    for step in at:
        if not isinstance(body, dict | list) or (isinstance(body, dict) and step not in body):
            return None
        if isinstance(body, list) and not (isinstance(step, int) and step < len(body)):
            return None
        body = body[step]
    return body


@pytest.mark.parametrize("wire", mut.wires())
def test_an_enum_variant_is_refused_at_its_path_or_kept_verbatim(wire: str) -> None:
    codec, guessed, cases = il.get_codec(wire), [], _enum_cases(wire)
    assert cases, f"{wire}: the corpus holds no enum-valued key"
    for kind, body, at, variant in cases:
        changed = mut._update(body, at, lambda _, v=variant: v)
        try:
            decoded = codec.decode_request(changed) if kind == "request" else codec.decode_response(changed)
        except DecodeError as err:
            if err.path != mut.dotted(at):
                guessed.append(f"{kind} {mut.dotted(at)}={variant!r}: refused at {err.path!r}")
            continue
        encoded = codec.encode_request(decoded) if isinstance(decoded, Request) else codec.encode_response(decoded)
        if _at(encoded.body, at) != variant:
            guessed.append(f"{kind} {mut.dotted(at)}={variant!r}: read as {_at(encoded.body, at)!r}")
    assert guessed == []


def test_enum_variants_cover_case_whitespace_homoglyphs_and_unknown_values() -> None:
    variants = mut.enum_variants("user")
    assert {"USER", "User", "user ", " user", "us\u0435r", "hacker"} <= set(variants)
    assert "user" not in variants
    body = {"messages": [{"role": "user", "content": [{"type": "text", "text": "role"}]}], "tool_choice": "auto"}
    assert sorted(mut.dotted(at) for at in mut.enum_paths(body)) == [
        "messages[0].content[0].type",
        "messages[0].role",
        "tool_choice",
    ]


_HI = [{"role": "user", "content": "hi"}]
_CONVERSE_HI = [{"role": "user", "content": [{"text": "hi"}]}]


def _chat(*messages: dict[str, Any], **settings: Any) -> dict[str, Any]:
    return {"model": "m", "messages": list(messages) or _HI, **settings}


def _responses(*items: dict[str, Any], **settings: Any) -> dict[str, Any]:
    return {"model": "m", "input": list(items) or "hi", **settings}


_ROLE_CASES = [
    *[("openai-responses", _responses({"role": role, "content": "hi"}), "input[0].role")
      for role in ("User", "USER", "user ", "us\u0435r", "hacker")],
    ("openai-responses", _responses({"type": "message", "role": "User", "content": "hi"}), "input[0].role"),
    ("openai-chat", _chat({"role": "wizard", "content": "hi"}), "messages[0].role"),
    ("anthropic-messages", _chat({"role": "User", "content": "hi"}, max_tokens=8), "messages[0].role"),
    ("gemini", {"contents": [{"role": "USER", "parts": [{"text": "hi"}]}]}, "contents[0].role"),
    ("bedrock-converse", {"modelId": "m", "messages": [{"role": "bot", "content": [{"text": "hi"}]}]},
     "messages[0].role"),
    ("cohere-chat", _chat({"role": "User", "content": "hi"}), "messages[0].role"),
    ("openai-chat", _chat(tool_choice="Auto"), "tool_choice"),
    ("openai-responses", _responses(tool_choice="auto "), "tool_choice"),
    ("openai-responses", _responses(reasoning={"effort": "HIGH"}), "reasoning.effort"),
    ("anthropic-messages", _chat(max_tokens=8, tool_choice={"type": "Any"}), "tool_choice.type"),
    ("gemini", {"contents": [{"parts": [{"text": "hi"}]}], "toolConfig": {"functionCallingConfig": {"mode": "auto"}}},
     "toolConfig.functionCallingConfig.mode"),
    ("bedrock-converse", {"modelId": "m", "messages": _CONVERSE_HI, "toolConfig": {"toolChoice": {"Any": {}}}},
     "toolConfig.toolChoice"),
    ("cohere-chat", _chat(tool_choice="required"), "tool_choice"),
]  # fmt: skip


@pytest.mark.parametrize(("wire", "body", "path"), _ROLE_CASES, ids=[f"{w}-{p}" for w, _, p in _ROLE_CASES])
def test_an_unknown_role_or_mode_is_a_decode_error_at_its_path(wire: str, body: dict[str, Any], path: str) -> None:
    """The issue's cases: Responses read ``User``, ``user ``, a homoglyph and ``hacker`` as the
    assistant's; Chat dropped a ``wizard`` message and sent ``{"messages": []}``."""
    with pytest.raises(DecodeError) as err:
        il.get_codec(wire).decode_request(body)
    assert (err.value.codec, err.value.path) == (wire, path)


def test_the_deprecated_function_role_is_still_kept_whole() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "function", "name": "f", "content": "42"}]}
    codec = il.get_codec("openai-chat")
    request = codec.decode_request(body)
    assert [part.type for part in request.messages[0].parts] == ["native"]
    assert codec.encode_request(request).body["messages"] == body["messages"]


def test_an_answer_in_another_role_is_refused_on_every_wire() -> None:
    usage = {"input_tokens": 1, "output_tokens": 1}
    answers = {
        "anthropic-messages": ({"id": "m", "type": "message", "role": "user", "model": "c", "content": [],
                                "stop_reason": "end_turn", "usage": usage}, "role"),
        "openai-chat": ({"id": "c", "object": "chat.completion", "created": 1, "model": "g", "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "user", "content": "hi"}}]},
            "choices[0].message.role"),
        "gemini": ({"candidates": [{"content": {"role": "user", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}]},
                   "candidates[0].content.role"),
        "bedrock-converse": ({"output": {"message": _CONVERSE_HI[0]}, "stopReason": "end_turn",
                              "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}}, "output.message.role"),
        "cohere-chat": ({"id": "x", "message": {"role": "user", "content": [{"type": "text", "text": "hi"}]},
                         "finish_reason": "COMPLETE"}, "message.role"),
    }  # fmt: skip
    for wire, (body, path) in answers.items():
        with pytest.raises(DecodeError) as err:
            il.get_codec(wire).decode_response(body)
        assert err.value.path == path, wire
