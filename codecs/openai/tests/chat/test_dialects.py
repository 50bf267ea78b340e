"""Dialects: each server's declared difference, as it shows on the wire."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from interlingua import (
    EncodeError,
    Endpoint,
    Message,
    ProviderEcho,
    RedactedThinking,
    Request,
    ServerSentEvent,
    Text,
    Thinking,
    Tool,
    ToolResult,
    ToolUse,
    UnsupportedSetting,
    accumulate,
    get_codec,
)
from interlingua.testing import assert_request_round_trip, assert_response_round_trip
from interlingua_openai.chat import (
    Dialect,
    DialectError,
    OpenAIChatCodec,
    dialects,
    forget_dialect,
    load_dialects,
    register_dialect,
)


def _tool_turn(*lead: Thinking | RedactedThinking) -> Request:
    return Request(
        model="m",
        messages=[
            Message.user("weather?"),
            Message.assistant(*lead, ToolUse("toolu_01ABCdefGHIjklMNOpqrSTU", "get_weather", {"city": "Oslo"})),
            Message.tool(ToolResult("toolu_01ABCdefGHIjklMNOpqrSTU", "get_weather", "4C")),
        ],
    )


def test_get_codec_takes_a_dialect() -> None:
    codec = get_codec("openai-chat", dialect="mistral")
    assert isinstance(codec, OpenAIChatCodec)
    assert (codec.provider, codec.api_key_env) == ("mistral", ("MISTRAL_API_KEY",))
    with pytest.raises(ValueError, match="unknown openai-chat dialect"):
        OpenAIChatCodec(dialect="nope")


def test_mistral_maps_foreign_tool_ids_to_nine_alphanumerics_and_back() -> None:
    codec = OpenAIChatCodec(dialect="mistral")
    body = codec.encode_request(_tool_turn()).body
    call_id = body["messages"][1]["tool_calls"][0]["id"]
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", call_id)
    assert body["messages"][2]["tool_call_id"] == call_id
    assert OpenAIChatCodec(dialect="mistral").encode_request(_tool_turn()).body == body  # deterministic
    decoded = codec.decode_request(body)
    assert decoded.messages[1].parts[0].id == "toolu_01ABCdefGHIjklMNOpqrSTU"  # type: ignore[union-attr]
    assert decoded.messages[2].parts[0].tool_use_id == "toolu_01ABCdefGHIjklMNOpqrSTU"  # type: ignore[union-attr]


def test_openai_shortens_ids_over_forty_characters_only() -> None:
    long_id = "x" * 64
    request = _tool_turn().model_copy(
        update={
            "messages": [
                Message.user("hi"),
                Message.assistant(ToolUse(long_id, "f", {})),
                Message.tool(ToolResult(long_id, "f", "ok")),
            ]
        }
    )
    codec = OpenAIChatCodec()
    body = codec.encode_request(request).body
    assert len(body["messages"][1]["tool_calls"][0]["id"]) <= 40
    assert codec.decode_request(body).messages[1].parts[0].id == long_id  # type: ignore[union-attr]
    assert (
        codec.encode_request(_tool_turn()).body["messages"][1]["tool_calls"][0]["id"] == "toolu_01ABCdefGHIjklMNOpqrSTU"
    )


@pytest.mark.parametrize(("dialect", "field"), [("deepseek", "reasoning_content"), ("vllm", "reasoning")])
def test_the_reasoning_field_is_thinking_and_goes_back_on_tool_turns(dialect: str, field: str) -> None:
    codec = OpenAIChatCodec(dialect=dialect)
    body = codec.encode_request(_tool_turn(Thinking("Need the weather tool."))).body
    assert body["messages"][1][field] == "Need the weather tool."
    answer = {
        "id": "x",
        "object": "chat.completion",
        "created": 1,
        "model": "deepseek-v4",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": "4C.", field: "Read it."},
            }
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7},
    }
    parts = codec.decode_response(answer).message.parts
    assert [(p.type, getattr(p, "text", None)) for p in parts] == [("thinking", "Read it."), ("text", "4C.")]
    assert_response_round_trip(codec, answer)


def test_vllms_older_reasoning_content_is_read_too_and_goes_back_as_it_came() -> None:
    # vLLM renamed reasoning_content to reasoning (vllm-project/vllm#27752) and dropped the old name
    # (#33402): a server of either age is read, and a body keeps the spelling it came in.
    codec = OpenAIChatCodec(dialect="vllm")
    old = {
        "model": "Qwen/Qwen3-8B",
        "messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": "4C.", "reasoning_content": "Call done; answer."},
            {"role": "user", "content": "thanks"},
        ],
    }
    assert [p.type for p in codec.decode_request(old).messages[1].parts] == ["thinking", "text"]
    assert_request_round_trip(codec, old)
    fresh = codec.encode_request(_tool_turn(Thinking("Need the tool."))).body["messages"][1]
    assert ("reasoning" in fresh, "reasoning_content" in fresh) == (True, False)  # today's spelling by default
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    deltas = [{"reasoning_content": "Think"}, {"reasoning_content": "ing."}, {"content": "Hi."}]
    choices = [[{"index": 0, "delta": d, "finish_reason": None}] for d in deltas]
    choices.append([{"index": 0, "delta": {}, "finish_reason": "stop"}])
    events = [ServerSentEvent(data=json.dumps({**chunk, "choices": c})) for c in choices]
    streamed = accumulate(codec.decode_stream(events)).message.parts
    assert [(p.type, getattr(p, "text", None)) for p in streamed] == [("thinking", "Thinking."), ("text", "Hi.")]


def test_openai_drops_thinking_with_a_warning() -> None:
    encoded = OpenAIChatCodec().encode_request(_tool_turn(Thinking("hmm")))
    assert "reasoning_content" not in encoded.body["messages"][1]
    assert [w.part_type for w in encoded.warnings] == ["thinking"]  # type: ignore[union-attr]


def test_openrouter_reasoning_details_round_trip_with_their_encrypted_data() -> None:
    codec = OpenAIChatCodec(dialect="openrouter")
    details = [
        {"type": "reasoning.text", "text": "Think.", "signature": "sig-1", "format": "anthropic-claude-v1", "index": 0},
        {"type": "reasoning.encrypted", "data": "ENCRYPTED==", "format": "anthropic-claude-v1", "index": 1},
    ]
    body = {
        "model": "anthropic/claude-sonnet-4.5",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello", "reasoning": "Think.", "reasoning_details": details},
            {"role": "user", "content": "again"},
        ],
    }
    request = codec.decode_request(body)
    assert [p.type for p in request.messages[1].parts] == ["thinking", "redacted_thinking", "text"]
    assert_request_round_trip(codec, body)
    foreign = RedactedThinking(provider_echoes=[ProviderEcho(provider="anthropic", data={"data": "x"})])
    encoded = codec.encode_request(_tool_turn(foreign))
    assert [w.part_type for w in encoded.warnings] == ["redacted_thinking"]  # type: ignore[union-attr]


def test_mistral_thinking_blocks_and_no_developer_role() -> None:
    codec = OpenAIChatCodec(dialect="mistral")
    request = Request(
        model="magistral",
        messages=[
            Message.developer("be brief"),
            Message.user("hi"),
            Message.assistant(Thinking("a"), Thinking("b"), Text("c")),
        ],
    )
    encoded = codec.encode_request(request)
    assert encoded.body["messages"][0]["role"] == "system"
    assert [w.setting for w in encoded.warnings if isinstance(w, UnsupportedSetting)] == ["developer"]
    assert encoded.body["messages"][2]["content"] == [
        {"type": "thinking", "thinking": [{"type": "text", "text": "a"}]},
        {"type": "thinking", "thinking": [{"type": "text", "text": "b"}]},
        {"type": "text", "text": "c"},
    ]


@pytest.mark.parametrize(
    ("dialect", "url", "auth", "stream_options"),
    [
        ("openai", "https://api.openai.com/v1/chat/completions", True, True),
        ("deepseek", "https://api.deepseek.com/chat/completions", True, True),
        ("mistral", "https://api.mistral.ai/v1/chat/completions", True, False),
        ("openrouter", "https://openrouter.ai/api/v1/chat/completions", True, False),
        ("ollama", "http://localhost:11434/v1/chat/completions", False, True),
        ("vllm", "http://localhost:8000/v1/chat/completions", True, True),
    ],
)
def test_http_request_uses_the_dialect_base_url_and_bearer_auth(
    dialect: str, url: str, auth: bool, stream_options: bool
) -> None:
    codec = OpenAIChatCodec(dialect=dialect)
    request = Request(model="m", messages=[Message.user("hi")], max_tokens=10)
    http = codec.http_request(request, stream=True, endpoint=Endpoint(api_key="sk-secret" if auth else None))
    assert (http.method, http.url, http.stream) == ("POST", url, True)
    assert ("authorization" in http.headers) == auth
    assert http.json["stream"] is True and ("stream_options" in http.json) == stream_options
    assert "sk-secret" not in repr(http)
    assert (
        codec.http_request(request, stream=False, endpoint=Endpoint(base_url="http://proxy/v1/")).url
        == "http://proxy/v1/chat/completions"
    )


def test_max_tokens_field_follows_the_dialect() -> None:
    request = Request(model="m", messages=[Message.user("hi")], max_tokens=10)
    assert OpenAIChatCodec().encode_request(request).body["max_completion_tokens"] == 10
    assert OpenAIChatCodec(dialect="ollama").encode_request(request).body["max_tokens"] == 10


def test_mistrals_any_is_required_and_its_typeless_tools_are_functions() -> None:
    # Mistral's API spec: "`any` or `required` means the model must call one or more tools"; a
    # FunctionTool's ``type`` is optional, default function (pydantic-ai's tool_choice_matrix
    # recordings send both, answered 200).
    codec = OpenAIChatCodec(dialect="mistral")
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    tool = {"function": {"name": "get_weather", "parameters": schema}}
    body = {"model": "mistral-large-latest", "messages": [{"role": "user", "content": "hi"}]}
    body |= {"tools": [tool], "tool_choice": "any"}
    assert_request_round_trip(codec, body)
    request = codec.decode_request(body)
    names = [t.name for t in request.tools if isinstance(t, Tool)]
    assert (request.tool_choice, names) == ("required", ["get_weather"])
    claude = request.model_copy(update={"model": "claude-sonnet-4-5"})
    anthropic = get_codec("anthropic-messages").encode_request(claude)
    assert (anthropic.body["tool_choice"], anthropic.body["tools"][0]["name"], anthropic.warnings) == (
        {"type": "any"},
        "get_weather",
        [],
    )
    again = codec.encode_request(request.model_copy(update={"provider_options": {}}))  # no record: OpenAI's spelling
    assert (again.body["tool_choice"], again.body["tools"][0]["type"]) == ("required", "function")
    assert get_codec("openai-chat").decode_request(body).tool_choice is None  # elsewhere "any" stays as it came


# --- dialects as data ----------------------------------------------------------------------------

_OWN = {"name", "provider", "sources", "annotations"}  # names; what a written answer carries by default
_ID_RULE = {"tool_id_pattern", "tool_id_length", "tool_id_prefix", "tool_id_alphabet"}  # sourced in _rules.py
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Dialect)}


@pytest.mark.parametrize("name", sorted(dialects()))
def test_every_setting_that_differs_from_openais_names_its_source(name: str) -> None:
    dialect = dialects()[name]
    differs = {
        key
        for key, default in _DEFAULTS.items()
        if key not in _OWN | _ID_RULE and getattr(dialect, key) != default and getattr(dialect, key) != ()
    }
    assert differs, name  # base_url at least
    # reasoning "field" is told by the source of the field it names
    told_by = {"reasoning": "reasoning_field"} if dialect.reasoning == "field" else {}
    cited = {key: dialect.cite(told_by.get(key, key)) for key in differs}
    missing = sorted(key for key, source in cited.items() if not source.startswith("https://"))
    assert missing == [], f"{name}: no source for {missing}"
    assert set(dialect.sources) <= set(_DEFAULTS), f"{name}: a source for a key it does not have"


def test_a_registered_dialect_extends_a_known_one_and_get_codec_finds_it() -> None:
    added = register_dialect(
        {"name": "acme", "extends": "vllm", "provider": "acme", "base_url": "http://acme.internal:9000/v1"}
    )
    try:
        codec = get_codec("openai-chat", dialect="acme")
        settings = (codec.provider, codec.dialect.reasoning_field, codec.dialect.top_k)
        assert settings == ("acme", "reasoning", True)
        assert added.cite("reasoning_field") == dialects()["vllm"].cite("reasoning_field")  # sources come along
        request = Request(model="m", messages=[Message.user("hi")], max_tokens=5)
        http = codec.http_request(request, stream=False, endpoint=Endpoint())
        assert (http.url, http.json["max_tokens"]) == ("http://acme.internal:9000/v1/chat/completions", 5)
    finally:
        forget_dialect("acme")
    with pytest.raises(ValueError, match="unknown openai-chat dialect 'acme'"):
        get_codec("openai-chat", dialect="acme")


def test_a_dialect_file_loads_and_its_mistakes_are_named(tmp_path: Path) -> None:
    path = tmp_path / "hosts.toml"
    path.write_text(
        '[[dialect]]\nname = "corp"\nprovider = "corp"\nbase_url = "https://llm.corp/v1"\napi_key_env = ["CORP_KEY"]\n'
        'reasoning = "field"\nreasoning_field = "thinking"\nmax_tokens_field = "max_tokens"\n'
        '[[dialect]]\nname = "corp-eu"\nextends = "corp"\nbase_url = "https://eu.llm.corp/v1"\n'
    )
    try:
        assert [d.name for d in load_dialects(path)] == ["corp", "corp-eu"]
        eu = OpenAIChatCodec(dialect="corp-eu")
        assert (eu.provider, eu.api_key_env, eu.dialect.reasoning_field) == ("corp", ("CORP_KEY",), "thinking")
        body = eu.encode_request(_tool_turn(Thinking("Need the tool."))).body
        assert body["messages"][1]["thinking"] == "Need the tool."
    finally:
        forget_dialect("corp")
        forget_dialect("corp-eu")
    for entry, problem in [
        ({"name": "x", "extends": "vllm", "reasoning_feild": "r"}, "unknown keys \\['reasoning_feild'\\]"),
        ({"name": "x", "extends": "vllm", "reasoning": "tags"}, "reasoning is 'tags'"),
        ({"name": "x", "extends": "nowhere"}, "extends 'nowhere'"),
        ({"name": "x", "provider": "x", "base_url": "http://x"}, "api_key_env missing"),
        ({"name": "x", "extends": "openai", "reasoning": "field"}, "names its reasoning_field"),
    ]:
        with pytest.raises(DialectError, match=problem):
            register_dialect(entry)
    assert "x" not in dialects()


def test_azure_foundry_needs_the_resources_url_and_sends_an_api_key_header() -> None:
    codec = OpenAIChatCodec(dialect="azure-foundry")
    request = Request(model="DeepSeek-R1", messages=[Message.user("hi")])
    with pytest.raises(EncodeError, match=r"\{resource\}.services.ai.azure.com/openai/v1: give the endpoint's"):
        codec.http_request(request, stream=False, endpoint=Endpoint(api_key="k"))
    base = "https://acme.services.ai.azure.com/openai/v1/"
    http = codec.http_request(request, stream=False, endpoint=Endpoint(base_url=base, api_key="secret-key"))
    assert http.url == "https://acme.services.ai.azure.com/openai/v1/chat/completions"
    assert http.headers["api-key"] == "secret-key" and "authorization" not in http.headers
    assert "secret-key" not in repr(http)


@pytest.mark.parametrize("name", sorted(set(dialects()) - {"azure-foundry"}))
def test_each_dialect_posts_to_its_base_url(name: str) -> None:
    dialect = dialects()[name]
    request = Request(model="m", messages=[Message.user("hi")], max_tokens=7)
    http = OpenAIChatCodec(dialect=name).http_request(request, stream=False, endpoint=Endpoint(api_key="k"))
    assert http.url == dialect.base_url + "/chat/completions"
    assert http.headers["authorization"] == "Bearer k"
    assert http.json[dialect.max_tokens_field] == 7


def test_the_docs_table_lists_every_shipped_dialect_with_its_url_and_keys() -> None:
    page = Path(__file__).resolve().parents[4] / "docs" / "codecs" / "openai-chat.md"
    rows = re.findall(r"^\| `([a-z-]+)`(?: \(default\))? \| `([^`]+)`[^|]* \| ([^|]+) \|", page.read_text(), re.M)
    listed = {name: (url, re.findall(r"`([A-Z_]+)`", keys)) for name, url, keys in rows}
    assert listed == {name: (d.base_url, list(d.api_key_env)) for name, d in dialects().items()}
