"""Every installed codec (the six, and any found by entry point) has every member of the Codec
protocol, typed as the protocol says: the core reads these members directly, never with getattr."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import pytest

import interlingua as il
from interlingua.kit import Batching, CodecBase, Serving, Sniffed, TuningFile, TurnRules
from interlingua.testing import Conformance, conformance_for

MEMBERS = sorted(
    {*il.Codec.__annotations__, *(name for name, value in vars(il.Codec).items() if inspect.isfunction(value))}
    - {name for name in vars(il.Codec) if name.startswith("_")}
)


def test_the_protocol_names_every_hook_the_core_reads() -> None:
    assert sorted(
        [
            "name",
            "provider",
            "api_key_env",
            "capabilities",
            "rules",
            "oracle",
            "conformance",
            "serving",
            "batching",
            "genai_provider",
            "tuning",
            "encode_request",
            "decode_request",
            "decode_response",
            "encode_response",
            "decode_stream",
            "encode_stream",
            "decode_json_array_stream",
            "decode_error",
            "http_request",
            "api_key_env_for",
            "host_for",
            "sniff",
            "sniff_stream",
            "count_request",
            "read_count",
            "models_request",
            "read_models",
        ]
    ) == MEMBERS


def _parameters(function: Any) -> list[tuple[str, Any, bool]]:
    """(name, kind, has a default) of each parameter after ``self``."""
    found = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name == "self":
            continue
        found.append((parameter.name, parameter.kind, parameter.default is not inspect.Parameter.empty))
    return found


@pytest.mark.parametrize("name", il.codecs())
def test_every_installed_codec_keeps_the_protocol(name: str) -> None:
    codec = il.get_codec(name)
    missing = [member for member in MEMBERS if not hasattr(codec, member)]
    assert missing == [], f"{name} lacks {missing} (subclass interlingua.kit.CodecBase for the optional ones)"
    assert isinstance(codec, il.Codec)
    assert codec.name == name and isinstance(codec.provider, str) and codec.provider
    assert isinstance(codec.api_key_env, tuple) and all(isinstance(v, str) for v in codec.api_key_env)
    assert isinstance(codec.capabilities, il.Capabilities)
    assert isinstance(codec.rules, TurnRules)
    assert codec.oracle is None or (isinstance(codec.oracle, str) and ":" in codec.oracle)
    assert codec.serving is None or isinstance(codec.serving, Serving)
    assert codec.batching is None or isinstance(codec.batching, Batching)
    assert codec.conformance is None or isinstance(conformance_for(name), Conformance)
    assert codec.genai_provider is None or (isinstance(codec.genai_provider, str) and codec.genai_provider)
    assert codec.tuning is None or isinstance(codec.tuning, TuningFile)
    keys = codec.api_key_env_for({})
    assert keys is None or (isinstance(keys, tuple) and all(isinstance(v, str) for v in keys))
    assert codec.sniff({}) is None or isinstance(codec.sniff({}), Sniffed)
    assert codec.sniff_stream([]) is None or isinstance(codec.sniff_stream([]), Sniffed)
    error = codec.decode_error(500, b'{"error": {"message": "boom"}}', {})
    assert isinstance(error, il.ProviderError) and error.status == 500
    # Each method takes at least what the protocol passes it, by the same names and kinds.
    for member in MEMBERS:
        declared = vars(il.Codec).get(member)
        if not inspect.isfunction(declared):
            continue
        have = {param: (kind, default) for param, kind, default in _parameters(getattr(codec, member))}
        for param, kind, default in _parameters(declared):
            assert param in have, f"{name}.{member} takes no {param!r}"
            if kind is inspect.Parameter.KEYWORD_ONLY:
                assert have[param][0] in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            if default:
                assert have[param][1], f"{name}.{member}: {param!r} needs a default, as in the protocol"


def test_the_base_class_gives_every_optional_member_its_default() -> None:
    class Bare(CodecBase):
        name, provider = "bare", "bare"

    bare = Bare()
    defaults: Mapping[str, Any] = {
        "api_key_env": (),
        "oracle": None,
        "conformance": None,
        "serving": None,
        "batching": None,
        "genai_provider": None,
    }
    assert {key: getattr(bare, key) for key in defaults} == defaults
    assert bare.count_request(il.Request(messages=[]), endpoint=il.Endpoint()) is None
    assert bare.read_count({"input_tokens": 12}) == 12
    assert bare.models_request(endpoint=il.Endpoint()) is None
    assert bare.read_models({"object": "list", "data": [{"id": "acme-1"}]}) == (["acme-1"], None)
    with pytest.raises(il.DecodeError, match="no token count"):
        bare.read_count({"tokens": 12})
    assert bare.api_key_env_for({"door": "any"}) == ()
    assert (bare.sniff({"messages": []}), bare.sniff_stream([("message", {})])) == (None, None)
    assert bare.decode_json_array_stream([b"[]"]) is None
    with pytest.raises(NotImplementedError, match="Bare writes no requests"):
        bare.write_request(il.Request(messages=[]), False)
