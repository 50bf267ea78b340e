"""Per wire: a minimal request carrying each key a codec decodes into the IR or provider_options.

A :class:`Probe` is the body with the key, the same body without it (or with another value
where the key is required), and the IR path a warning about it names. Rows of a codec's
``_coverage.REQUEST`` declared ``ir`` or ``provider_option`` each need a probe here; a
``provider_option`` probe's path is ``provider_options.<provider>.<top-level key>``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Body = dict[str, Any]


@dataclass(frozen=True)
class Probe:
    body: Body
    without: Body
    at: str


PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
PDF = "JVBERi0xLjQK"
SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "string"}},
    "required": ["a"],
    "additionalProperties": False,
}


def _with(base: Body, **changes: Any) -> Body:
    body = copy.deepcopy(base)
    for key, value in changes.items():
        if value is _DROP:
            body.pop(key, None)
        else:
            body[key] = value
    return body


_DROP = object()


def setting(base: Body, key: str, value: Any, at: str) -> Probe:
    """A top-level key added to the base body."""
    return Probe(_with(base, **{key: value}), _with(base, **{key: _DROP}), at)


def pair(base: Body, with_: dict[str, Any], without: dict[str, Any], at: str) -> Probe:
    return Probe(_with(base, **with_), _with(base, **without), at)


# --- anthropic-messages --------------------------------------------------------------------------

_A: Body = {"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": [{"role": "user", "content": "hi"}]}
_A_TOOL = {"name": "lookup", "description": "Look a thing up", "input_schema": SCHEMA}


def _a_user(*blocks: Body) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": list(blocks)}]}


def _a_turns(assistant: list[Body], user: Any = "and?") -> dict[str, Any]:
    return {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": assistant},
            {"role": "user", "content": user},
        ]
    }


def _a_call(call_id: str = "toolu_1", name: str = "lookup", args: Any = None, result: Any = "42", **extra: Any) -> Any:
    use = {"type": "tool_use", "id": call_id, "name": name, "input": args or {"q": "x"}}
    answer = {"type": "tool_result", "tool_use_id": call_id, "content": result, **extra}
    return {"tools": [{**_A_TOOL, "name": name}], **_a_turns([use], [answer])}


_TEXT = {"type": "text", "text": "what is this?"}
_A_CITED = {
    "type": "text",
    "text": "It is so.",
    "citations": [
        {
            "type": "char_location",
            "cited_text": "so",
            "document_index": 0,
            "document_title": "A",
            "start_char_index": 0,
            "end_char_index": 2,
        }
    ],
}
_A_SYSTEM_TURN = [
    {"role": "user", "content": "hi"},
    {"role": "assistant", "content": "hello"},
    {"role": "system", "content": [{"type": "text", "text": "now be terse"}]},
    {"role": "user", "content": "go"},
]


def _a_doc(source: Body) -> Probe:
    return pair(_A, _a_user({"type": "document", "source": source}, _TEXT), _a_user(_TEXT), "messages[0].parts[0]")


def _a_document_fields() -> dict[str, Probe]:
    """The meaning fields of a document: each probe's body has one, its twin the bare document."""
    pdf = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF}}
    fields = {"title": {"title": "Q3 report"}, "context": {"context": "from the finance team"}}
    fields["citations.*"] = {"citations": {"enabled": True}}
    return {
        f"messages[*].content[document].{row}": pair(
            _A, _a_user({**pdf, **extra}, _TEXT), _a_user(pdf, _TEXT), "messages[0].parts[0]"
        )
        for row, extra in fields.items()
    }


def anthropic() -> dict[str, Probe]:
    system_turn_cached = copy.deepcopy(_A_SYSTEM_TURN)
    system_turn_cached[2]["content"][0]["cache_control"] = {"type": "ephemeral"}
    system_turn_cited = copy.deepcopy(_A_SYSTEM_TURN)
    system_turn_cited[2]["content"][0] = {**_A_CITED, "text": "now be terse"}
    thinking = {"type": "thinking", "thinking": "let me think", "signature": "sig"}
    done = {"type": "text", "text": "done"}
    return {
        "model": pair(_A, {"model": "claude-opus-4-1"}, {}, "model"),
        "max_tokens": pair(_A, {"max_tokens": 256}, {}, "max_tokens"),
        "temperature": setting(_A, "temperature", 0.5, "temperature"),
        "top_p": setting(_A, "top_p", 0.9, "top_p"),
        "top_k": setting(_A, "top_k", 5, "top_k"),
        "stop_sequences": setting(_A, "stop_sequences", ["END"], "stop"),
        "system": setting(_A, "system", "be brief", "messages[0]"),
        "system[].text": setting(_A, "system", [{"type": "text", "text": "be brief"}], "messages[0]"),
        "system[].type": setting(_A, "system", [{"type": "text", "text": "be brief"}], "messages[0]"),
        "system[].cache_control.*": pair(
            _A,
            {"system": [{"type": "text", "text": "be brief", "cache_control": {"type": "ephemeral"}}]},
            {"system": [{"type": "text", "text": "be brief"}]},
            "messages[0].parts[0]",
        ),
        "system[].citations.*": pair(
            _A, {"system": [_A_CITED]}, {"system": [{"type": "text", "text": "It is so."}]}, "messages[0].parts[0]"
        ),
        "messages[*].content": pair(_A, {"messages": [{"role": "user", "content": "hello"}]}, {}, "messages[0]"),
        "messages[*].content[*].cache_control.*": pair(
            _A,
            _a_user({"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}),
            _a_user({"type": "text", "text": "hi"}),
            "messages[0].parts[0]",
        ),
        "messages[*].content[text].text": pair(_A, _a_user(_TEXT), {}, "messages[0].parts[0]"),
        "messages[*].content[text].citations.*": pair(
            _A, _a_turns([_A_CITED]), _a_turns([{"type": "text", "text": "It is so."}]), "messages[1].parts[0]"
        ),
        "messages[*].content[image].source(*).*": pair(
            _A,
            _a_user({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}, _TEXT),
            _a_user(_TEXT),
            "messages[0].parts[0]",
        ),
        "messages[*].content[document].source(base64).*": _a_doc(
            {"type": "base64", "media_type": "application/pdf", "data": PDF}
        ),
        "messages[*].content[document].source(text).*": _a_doc(
            {"type": "text", "media_type": "text/plain", "data": "the text"}
        ),
        "messages[*].content[document].source(url).*": _a_doc({"type": "url", "url": "https://example.com/a.pdf"}),
        "messages[*].content[document].source(file).*": _a_doc({"type": "file", "file_id": "file_1"}),
        **_a_document_fields(),
        "messages[*].content[thinking].thinking": pair(
            _A, _a_turns([thinking, done]), _a_turns([done]), "messages[1].parts[0]"
        ),
        "messages[*].content[tool_use].id": pair(_A, _a_call("toolu_2"), _a_call(), "messages[1].parts[0]"),
        "messages[*].content[tool_use].name": pair(_A, _a_call(name="search"), _a_call(), "messages[1].parts[0]"),
        "messages[*].content[tool_use].input": pair(_A, _a_call(args={"q": "y"}), _a_call(), "messages[1].parts[0]"),
        "messages[*].content[tool_result].tool_use_id": pair(_A, _a_call("toolu_2"), _a_call(), "messages[2].parts[0]"),
        "messages[*].content[tool_result].content": pair(_A, _a_call(result="43"), _a_call(), "messages[2].parts[0]"),
        "messages[*].content[tool_result].content[text].*": pair(
            _A,
            _a_call(result=[{"type": "text", "text": "43"}]),
            _a_call(result=[{"type": "text", "text": "42"}]),
            "messages[2].parts[0]",
        ),
        "messages[*].content[tool_result].content[image].*": pair(
            _A,
            _a_call(
                result=[
                    {"type": "text", "text": "42"},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
                ]
            ),
            _a_call(result=[{"type": "text", "text": "42"}]),
            "messages[2].parts[0]",
        ),
        "messages[*].content[tool_result].content[document].*": pair(
            _A,
            _a_call(
                result=[
                    {"type": "text", "text": "42"},
                    {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF}},
                ]
            ),
            _a_call(result=[{"type": "text", "text": "42"}]),
            "messages[2].parts[0]",
        ),
        "messages[*].content[tool_result].is_error": pair(
            _A, _a_call(is_error=True), _a_call(), "messages[2].parts[0]"
        ),
        "messages[*].content[].text": pair(
            _A,
            {"messages": _A_SYSTEM_TURN},
            {"messages": [_A_SYSTEM_TURN[0], _A_SYSTEM_TURN[1], _A_SYSTEM_TURN[3]]},
            "messages[2]",
        ),
        "messages[*].content[].type": pair(
            _A,
            {"messages": _A_SYSTEM_TURN},
            {"messages": [_A_SYSTEM_TURN[0], _A_SYSTEM_TURN[1], _A_SYSTEM_TURN[3]]},
            "messages[2]",
        ),
        "messages[*].content[].citations.*": pair(
            _A, {"messages": system_turn_cited}, {"messages": _A_SYSTEM_TURN}, "messages[2]"
        ),
        "messages[*].content[].cache_control.*": pair(
            _A, {"messages": system_turn_cached}, {"messages": _A_SYSTEM_TURN}, "messages[2]"
        ),
        "tools[].name": pair(_A, {"tools": [_A_TOOL]}, {}, "tools[0]"),
        "tools[].description": pair(
            _A, {"tools": [_A_TOOL]}, {"tools": [{"name": "lookup", "input_schema": SCHEMA}]}, "tools[0]"
        ),
        "tools[].input_schema.*": pair(
            _A, {"tools": [_A_TOOL]}, {"tools": [{**_A_TOOL, "input_schema": {"type": "object"}}]}, "tools[0]"
        ),
        "tools[].strict": pair(_A, {"tools": [{**_A_TOOL, "strict": True}]}, {"tools": [_A_TOOL]}, "tools[0]"),
        "tools[].cache_control.*": pair(
            _A, {"tools": [{**_A_TOOL, "cache_control": {"type": "ephemeral"}}]}, {"tools": [_A_TOOL]}, "tools[0]"
        ),
        "tool_choice(*).name": pair(
            _A,
            {"tools": [_A_TOOL], "tool_choice": {"type": "tool", "name": "lookup"}},
            {"tools": [_A_TOOL]},
            "tool_choice",
        ),
        "tool_choice(*).disable_parallel_tool_use": pair(
            _A,
            {"tools": [_A_TOOL], "tool_choice": {"type": "auto", "disable_parallel_tool_use": True}},
            {"tools": [_A_TOOL], "tool_choice": {"type": "auto"}},
            "parallel_tool_calls",
        ),
        "thinking(enabled).budget_tokens": setting(
            _A, "thinking", {"type": "enabled", "budget_tokens": 2048}, "thinking"
        ),
        "thinking(*).display": pair(
            _A,
            {"thinking": {"type": "enabled", "budget_tokens": 2048, "display": "summarized"}},
            {"thinking": {"type": "enabled", "budget_tokens": 2048}},
            "thinking",
        ),
        "output_config.format.*": setting(
            _A, "output_config", {"format": {"type": "json_schema", "schema": ANSWER_SCHEMA}}, "response_format"
        ),
        **options(
            _A,
            "anthropic",
            {
                "output_config.effort": ("output_config", {"effort": "high"}),
                "metadata.*": ("metadata", {"user_id": "u1"}),
                "service_tier": ("service_tier", "auto"),
                "container.*": ("container", "container_1"),
                "cache_control.*": ("cache_control", {"type": "ephemeral"}),
                "inference_geo": ("inference_geo", "us"),
                "speed": ("speed", "fast"),
                "diagnostics.*": ("diagnostics", {"previous_message_id": "msg_1"}),
                "user_profile_id": ("user_profile_id", "up_1"),
                "workspace_id": ("workspace_id", "ws_1"),
            },
        ),
    }


def options(base: Body, provider: str, rows: dict[str, tuple[str, Any]]) -> dict[str, Probe]:
    """Provider-option rows: row -> (top-level key, value); the warning path names the key."""
    return {row: setting(base, key, value, f"provider_options.{provider}.{key}") for row, (key, value) in rows.items()}


# --- openai-chat ---------------------------------------------------------------------------------

_C: Body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]}
_C_TOOL = {"type": "function", "function": {"name": "lookup", "description": "Look a thing up", "parameters": SCHEMA}}
_C_TEXT = {"type": "text", "text": "what is this?"}


def _c_user(*blocks: Body) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": list(blocks)}]}


def _c_turns(assistant: Body) -> dict[str, Any]:
    return {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", **assistant},
            {"role": "user", "content": "and?"},
        ]
    }


def _c_call(call_id: str = "call_1", name: str = "lookup", args: str = '{"q": "x"}', result: str = "42") -> Any:
    call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}
    return {
        "tools": [{"type": "function", "function": {**_C_TOOL["function"], "name": name}}],
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call_id, "content": result},
        ],
    }


def _c_custom(call_id: str = "call_1", name: str = "run", text: str | None = "print(1)") -> Any:
    """A custom tool's call and its result; ``text`` None: the same call as a function call
    with no input (what a call without free-form input is on this wire)."""
    call: Body = {"id": call_id, "type": "custom", "custom": {"name": name, "input": text}}
    if text is None:
        call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}
    return {
        "tools": [{"type": "custom", "custom": {"name": name}}],
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call_id, "content": "1"},
        ],
    }


def _c_tool(**function: Any) -> dict[str, Any]:
    return {"tools": [{"type": "function", "function": {**_C_TOOL["function"], **function}}]}


def openai_chat() -> dict[str, Probe]:
    at = "messages[0].parts[0]"
    return {
        "model": pair(_C, {"model": "gpt-4o"}, {}, "model"),
        "messages[*].content": pair(_C, {"messages": [{"role": "user", "content": "hello"}]}, {}, "messages[0]"),
        "messages[*].name": pair(
            _C, {"messages": [{"role": "user", "content": "hi", "name": "alice"}]}, {}, "messages[0]"
        ),
        "messages[*].content[].text": pair(
            _C,
            {"messages": [{"role": "system", "content": [{"type": "text", "text": "be brief"}]}, *_C["messages"]]},
            {},
            "messages[0]",
        ),
        "messages[*].content[].type": pair(
            _C,
            {"messages": [{"role": "developer", "content": [{"type": "text", "text": "be brief"}]}, *_C["messages"]]},
            {},
            "messages[0]",
        ),
        "messages[*].content[text].text": pair(_C, _c_user(_C_TEXT), {}, at),
        "messages[*].content[refusal].refusal": pair(
            _C,
            _c_turns({"content": [{"type": "refusal", "refusal": "I cannot."}]}),
            _c_turns({"content": "ok"}),
            "messages[1].parts[0]",
        ),
        "messages[user].content[image_url].image_url.detail": pair(
            _C,
            _c_user({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "low"}}),
            _c_user({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}),
            at,
        ),
        "messages[user].content[image_url].image_url.url": pair(
            _C,
            _c_user({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}, _C_TEXT),
            _c_user(_C_TEXT),
            at,
        ),
        "messages[user].content[input_audio].input_audio.*": pair(
            _C,
            _c_user({"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}, _C_TEXT),
            _c_user(_C_TEXT),
            at,
        ),
        "messages[user].content[file].file.file_data": pair(
            _C,
            _c_user(
                {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{PDF}", "filename": "a.pdf"}},
                _C_TEXT,
            ),
            _c_user(_C_TEXT),
            at,
        ),
        "messages[user].content[file].file.file_id": pair(
            _C, _c_user({"type": "file", "file": {"file_id": "file_1"}}, _C_TEXT), _c_user(_C_TEXT), at
        ),
        "messages[user].content[file].file.filename": pair(
            _C,
            _c_user(
                {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{PDF}", "filename": "a.pdf"}},
                _C_TEXT,
            ),
            _c_user({"type": "file", "file": {"file_data": f"data:application/pdf;base64,{PDF}"}}, _C_TEXT),
            at,
        ),
        "messages[assistant].refusal": pair(
            _C, _c_turns({"content": None, "refusal": "I cannot."}), _c_turns({"content": "ok"}), "messages[1].parts[0]"
        ),
        "messages[assistant].audio.id": pair(
            _C,
            _c_turns({"content": "ok", "audio": {"id": "audio_1"}}),
            _c_turns({"content": "ok"}),
            "messages[1].parts[1]",
        ),
        "messages[assistant].tool_calls[function].id": pair(_C, _c_call("call_2"), _c_call(), "messages[1].parts[0]"),
        "messages[assistant].tool_calls[function].function.name": pair(
            _C, _c_call(name="search"), _c_call(), "messages[1].parts[0]"
        ),
        "messages[assistant].tool_calls[function].function.arguments": pair(
            _C, _c_call(args='{"q": "y"}'), _c_call(), "messages[1].parts[0]"
        ),
        "messages[assistant].tool_calls[custom].id": pair(_C, _c_custom("call_2"), _c_custom(), "messages[1].parts[0]"),
        "messages[assistant].tool_calls[custom].custom.name": pair(
            _C, _c_custom(name="exec"), _c_custom(), "messages[1].parts[0]"
        ),
        "messages[assistant].tool_calls[custom].custom.input": pair(  # without: the call with no free-form input
            _C, _c_custom(text="print(2)"), _c_custom(text=None), "messages[1].parts[0]"
        ),
        "messages[tool].tool_call_id": pair(_C, _c_call("call_2"), _c_call(), "messages[2].parts[0]"),
        "tools[function].function.name": pair(_C, {"tools": [_C_TOOL]}, {}, "tools[0]"),
        "tools[function].function.description": pair(
            _C,
            {"tools": [_C_TOOL]},
            {"tools": [{"type": "function", "function": {"name": "lookup", "parameters": SCHEMA}}]},
            "tools[0]",
        ),
        "tools[function].function.parameters": pair(
            _C, {"tools": [_C_TOOL]}, _c_tool(parameters={"type": "object"}), "tools[0]"
        ),
        "tools[function].function.strict": pair(_C, _c_tool(strict=True), {"tools": [_C_TOOL]}, "tools[0]"),
        "tool_choice": pair(_C, {"tools": [_C_TOOL], "tool_choice": "required"}, {"tools": [_C_TOOL]}, "tool_choice"),
        "tool_choice(function).function.name": pair(
            _C,
            {"tools": [_C_TOOL], "tool_choice": {"type": "function", "function": {"name": "lookup"}}},
            {"tools": [_C_TOOL]},
            "tool_choice",
        ),
        "parallel_tool_calls": pair(
            _C, {"tools": [_C_TOOL], "parallel_tool_calls": False}, {"tools": [_C_TOOL]}, "parallel_tool_calls"
        ),
        "max_completion_tokens": setting(_C, "max_completion_tokens", 256, "max_tokens"),
        "max_tokens": setting(_C, "max_tokens", 256, "max_tokens"),
        "temperature": setting(_C, "temperature", 0.5, "temperature"),
        "top_p": setting(_C, "top_p", 0.9, "top_p"),
        "presence_penalty": setting(_C, "presence_penalty", 0.5, "presence_penalty"),
        "frequency_penalty": setting(_C, "frequency_penalty", 0.5, "frequency_penalty"),
        "seed": setting(_C, "seed", 7, "seed"),
        "stop": setting(_C, "stop", ["END"], "stop"),
        "reasoning_effort": setting(_C, "reasoning_effort", "high", "thinking"),
        "response_format(*).*": setting(
            _C,
            "response_format",
            {"type": "json_schema", "json_schema": {"name": "answer", "schema": ANSWER_SCHEMA, "strict": True}},
            "response_format",
        ),
        **options(
            _C,
            "openai",
            {
                "tool_choice(allowed_tools).*": (
                    "tool_choice",
                    {
                        "type": "allowed_tools",
                        "allowed_tools": {
                            "mode": "auto",
                            "tools": [{"type": "function", "function": {"name": "lookup"}}],
                        },
                    },
                ),
                "tool_choice(custom).*": ("tool_choice", {"type": "custom", "custom": {"name": "grammar"}}),
                "audio.*": ("audio", {"format": "wav", "voice": "alloy"}),
                "function_call.*": ("function_call", "auto"),
                "functions[].*": ("functions", [{"name": "lookup", "parameters": SCHEMA}]),
                "logit_bias": ("logit_bias", {"50256": -100}),
                "logprobs": ("logprobs", True),
                "top_logprobs": ("top_logprobs", 2),
                "metadata": ("metadata", {"k": "v"}),
                "modalities": ("modalities", ["text"]),
                "moderation.*": ("moderation", {"model": "omni-moderation-latest"}),
                "n": ("n", 2),
                "prediction.*": ("prediction", {"type": "content", "content": "hello"}),
                "prompt_cache_key": ("prompt_cache_key", "k1"),
                "prompt_cache_options.*": ("prompt_cache_options", {"mode": "explicit"}),
                "prompt_cache_retention": ("prompt_cache_retention", "24h"),
                "safety_identifier": ("safety_identifier", "s1"),
                "service_tier": ("service_tier", "flex"),
                "store": ("store", True),
                "user": ("user", "u1"),
                "verbosity": ("verbosity", "low"),
                "web_search_options.*": ("web_search_options", {"search_context_size": "low"}),
            },
        ),
    }


# --- openai-responses ----------------------------------------------------------------------------

_R: Body = {"model": "gpt-5", "input": [{"role": "user", "content": "hi"}]}
_R_TOOL = {"type": "function", "name": "lookup", "description": "Look a thing up", "parameters": SCHEMA, "strict": True}
_R_TEXT = {"type": "input_text", "text": "what is this?"}


def _r_user(*blocks: Body) -> dict[str, Any]:
    return {"input": [{"role": "user", "content": list(blocks)}]}


def _r_turns(*assistant: Body) -> dict[str, Any]:
    return {"input": [{"role": "user", "content": "hi"}, *assistant, {"role": "user", "content": "and?"}]}


def _r_said(*blocks: Body) -> Body:
    return {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant", "content": list(blocks)}


def _r_call(call_id: str = "call_1", name: str = "lookup", args: str = '{"q": "x"}', output: Any = "42") -> Any:
    return {
        "tools": [{**_R_TOOL, "name": name}],
        "input": [
            {"role": "user", "content": "hi"},
            {"type": "function_call", "call_id": call_id, "name": name, "arguments": args},
            {"type": "function_call_output", "call_id": call_id, "output": output},
        ],
    }


def _r_output(*blocks: Body) -> Probe:
    return pair(
        _R,
        _r_call(output=[{"type": "input_text", "text": "42"}, *blocks]),
        _r_call(output=[{"type": "input_text", "text": "42"}]),
        "messages[2].parts[0]",
    )


_R_IMAGE = {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "auto"}
_R_FILE = {"type": "input_file", "file_data": f"data:application/pdf;base64,{PDF}", "filename": "a.pdf"}
_NAMELESS = {"type": "input_file", "file_data": f"data:application/pdf;base64,{PDF}"}


def _r_blocks(message: str) -> dict[str, Probe]:
    """The input blocks, in a user message or in a call's output."""
    if message == "output":
        return {
            "input[function_call_output].output[input_text].text": pair(
                _R,
                _r_call(output=[{"type": "input_text", "text": "43"}]),
                _r_call(output=[{"type": "input_text", "text": "42"}]),
                "messages[2].parts[0]",
            ),
            "input[function_call_output].output[input_image].image_url": _r_output(_R_IMAGE),
            "input[function_call_output].output[input_image].detail": pair(
                _R,
                _r_call(output=[{**_R_IMAGE, "detail": "low"}]),
                _r_call(output=[_R_IMAGE]),
                "messages[2].parts[0].content[0]",
            ),
            "input[function_call_output].output[input_image].file_id": _r_output(
                {"type": "input_image", "file_id": "file_1", "detail": "auto"}
            ),
            "input[function_call_output].output[input_file].file_data": _r_output(_R_FILE),
            "input[function_call_output].output[input_file].file_id": _r_output(
                {"type": "input_file", "file_id": "file_1"}
            ),
            "input[function_call_output].output[input_file].file_url": _r_output(
                {"type": "input_file", "file_url": "https://example.com/a.pdf"}
            ),
            "input[function_call_output].output[input_file].filename": pair(
                _R, _r_call(output=[_R_FILE]), _r_call(output=[_NAMELESS]), "messages[2].parts[0].content[0]"
            ),
        }
    at = "messages[0].parts[0]"
    row = "input[message].content"
    return {
        f"{row}[input_text].text": pair(_R, _r_user(_R_TEXT), {}, at),
        f"{row}[input_image].image_url": pair(_R, _r_user(_R_IMAGE, _R_TEXT), _r_user(_R_TEXT), at),
        f"{row}[input_image].detail": pair(
            _R, _r_user({**_R_IMAGE, "detail": "low"}, _R_TEXT), _r_user(_R_IMAGE, _R_TEXT), at
        ),
        f"{row}[input_image].file_id": pair(
            _R, _r_user({"type": "input_image", "file_id": "file_1", "detail": "auto"}, _R_TEXT), _r_user(_R_TEXT), at
        ),
        f"{row}[input_file].file_data": pair(_R, _r_user(_R_FILE, _R_TEXT), _r_user(_R_TEXT), at),
        f"{row}[input_file].file_id": pair(
            _R, _r_user({"type": "input_file", "file_id": "file_1"}, _R_TEXT), _r_user(_R_TEXT), at
        ),
        f"{row}[input_file].file_url": pair(
            _R, _r_user({"type": "input_file", "file_url": "https://example.com/a.pdf"}, _R_TEXT), _r_user(_R_TEXT), at
        ),
        f"{row}[input_file].filename": pair(_R, _r_user(_R_FILE, _R_TEXT), _r_user(_NAMELESS, _R_TEXT), at),
    }


def openai_responses() -> dict[str, Probe]:
    said = _r_said({"type": "output_text", "text": "It is so.", "annotations": []})
    cited = _r_said(
        {
            "type": "output_text",
            "text": "It is so.",
            "annotations": [
                {"type": "url_citation", "url": "https://example.com/a", "title": "A", "start_index": 6, "end_index": 8}
            ],
        }
    )
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "let me think"}]}
    raw = {"type": "reasoning", "id": "rs_1", "summary": [], "content": [{"type": "reasoning_text", "text": "so..."}]}
    return {
        "model": pair(_R, {"model": "gpt-4.1"}, {}, "model"),
        "instructions": setting(_R, "instructions", "be brief", "messages[0]"),
        "input": pair(_R, {"input": "hello"}, {}, "messages[0]"),
        "input[message].role": pair(_R, {"input": [{"role": "developer", "content": "hi"}]}, {}, "messages[0]"),
        "input[message].content": pair(_R, {"input": [{"role": "user", "content": "hello"}]}, {}, "messages[0]"),
        "input[].type": pair(
            _R, {"input": [{"type": "message", "role": "user", "content": "hello"}]}, {}, "messages[0]"
        ),
        "input[message].content[output_text].text": pair(
            _R,
            _r_turns(_r_said({"type": "output_text", "text": "Yes.", "annotations": []})),
            _r_turns(said),
            "messages[1].parts[0]",
        ),
        "input[message].content[output_text].annotations[*].*": pair(
            _R, _r_turns(cited), _r_turns(said), "messages[1].parts[0]"
        ),
        "input[message].content[refusal].refusal": pair(
            _R, _r_turns(_r_said({"type": "refusal", "refusal": "I cannot."})), _r_turns(said), "messages[1].parts[0]"
        ),
        "input[function_call].call_id": pair(_R, _r_call("call_2"), _r_call(), "messages[1].parts[0]"),
        "input[function_call].name": pair(_R, _r_call(name="search"), _r_call(), "messages[1].parts[0]"),
        "input[function_call].arguments": pair(_R, _r_call(args='{"q": "y"}'), _r_call(), "messages[1].parts[0]"),
        "input[function_call_output].call_id": pair(_R, _r_call("call_2"), _r_call(), "messages[2].parts[0]"),
        "input[function_call_output].output": pair(_R, _r_call(output="43"), _r_call(), "messages[2].parts[0]"),
        "input[function_call_output].name": pair(
            _R,
            {**_r_call(), "input": [*_r_call()["input"][:2], {**_r_call()["input"][2], "name": "search"}]},
            _r_call(),
            "messages[2].parts[0]",
        ),
        "input[reasoning].summary[].*": pair(_R, _r_turns(reasoning, said), _r_turns(said), "messages[1].parts[0]"),
        "input[reasoning].content[].*": pair(_R, _r_turns(raw, said), _r_turns(said), "messages[1].parts[0]"),
        **_r_blocks("message"),
        **_r_blocks("output"),
        "tools[function].name": pair(_R, {"tools": [_R_TOOL]}, {}, "tools[0]"),
        "tools[function].description": pair(
            _R, {"tools": [_R_TOOL]}, {"tools": [{k: v for k, v in _R_TOOL.items() if k != "description"}]}, "tools[0]"
        ),
        "tools[function].parameters": pair(
            _R, {"tools": [_R_TOOL]}, {"tools": [{**_R_TOOL, "parameters": {"type": "object"}}]}, "tools[0]"
        ),
        "tools[function].strict": pair(_R, {"tools": [_R_TOOL]}, {"tools": [{**_R_TOOL, "strict": False}]}, "tools[0]"),
        "tool_choice": pair(_R, {"tools": [_R_TOOL], "tool_choice": "required"}, {"tools": [_R_TOOL]}, "tool_choice"),
        "tool_choice(function).name": pair(
            _R,
            {"tools": [_R_TOOL], "tool_choice": {"type": "function", "name": "lookup"}},
            {"tools": [_R_TOOL]},
            "tool_choice",
        ),
        "parallel_tool_calls": pair(
            _R, {"tools": [_R_TOOL], "parallel_tool_calls": False}, {"tools": [_R_TOOL]}, "parallel_tool_calls"
        ),
        "max_output_tokens": setting(_R, "max_output_tokens", 256, "max_tokens"),
        "temperature": setting(_R, "temperature", 0.5, "temperature"),
        "top_p": setting(_R, "top_p", 0.9, "top_p"),
        "reasoning.effort": setting(_R, "reasoning", {"effort": "high"}, "thinking"),
        "reasoning.summary": pair(
            _R, {"reasoning": {"effort": "high", "summary": "auto"}}, {"reasoning": {"effort": "high"}}, "thinking"
        ),
        "text.format(*).*": setting(
            _R,
            "text",
            {"format": {"type": "json_schema", "name": "answer", "schema": ANSWER_SCHEMA, "strict": True}},
            "response_format",
        ),
        **options(
            _R,
            "openai",
            {
                "tool_choice(*).*": ("tool_choice", {"type": "mcp", "server_label": "deepwiki"}),
                "tool_choice.type": ("tool_choice", {"type": "web_search_preview"}),
                "reasoning.*": ("reasoning", {"generate_summary": "concise"}),
                "text.verbosity": ("text", {"verbosity": "low"}),
                "access_programs.*": ("access_programs", {"cyber": "standard"}),
                "background": ("background", True),
                "background_options.*": ("background_options", {"completion_window": "2h"}),
                "context_management[].*": ("context_management", [{"type": "compaction", "compact_threshold": 1000}]),
                "conversation.*": ("conversation", "conv_1"),
                "image.*": ("image", {"context_compression": "auto"}),
                "include": ("include", ["reasoning.encrypted_content"]),
                "max_tool_calls": ("max_tool_calls", 3),
                "metadata": ("metadata", {"k": "v"}),
                "moderation.*": ("moderation", {"model": "omni-moderation-latest"}),
                "previous_response_id": ("previous_response_id", "resp_1"),
                "prompt.*": ("prompt", {"id": "pmpt_1"}),
                "prompt_cache_key": ("prompt_cache_key", "k1"),
                "prompt_cache_options.*": ("prompt_cache_options", {"mode": "explicit"}),
                "prompt_cache_retention": ("prompt_cache_retention", "24h"),
                "safety_identifier": ("safety_identifier", "s1"),
                "service_tier": ("service_tier", "flex"),
                "store": ("store", False),
                "top_logprobs": ("top_logprobs", 2),
                "truncation": ("truncation", "auto"),
                "user": ("user", "u1"),
            },
        ),
    }


# --- gemini --------------------------------------------------------------------------------------

_G: Body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
_G_TOOL = {"name": "lookup", "description": "Look a thing up", "parametersJsonSchema": SCHEMA}
_G_TEXT = {"text": "what is this?"}
_G_IMAGE = {"inlineData": {"mimeType": "image/png", "data": PNG}}
_G_LINKED = {"fileData": {"mimeType": "image/png", "fileUri": "https://example.com/a.png"}}


def _g_user(*parts: Body) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": list(parts)}]}


def _g_turns(*model: Body, role: str = "model") -> dict[str, Any]:
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": role, "parts": list(model)},
            {"role": "user", "parts": [{"text": "and?"}]},
        ]
    }


def _g_call(args: Any = None, answer: Any = None) -> dict[str, Any]:
    call = {"functionCall": {"name": "lookup", "args": args or {"q": "x"}}, "thoughtSignature": "c2ln"}
    reply = {"functionResponse": {"name": "lookup", "response": answer or {"result": "42"}}}
    return {
        "tools": [{"functionDeclarations": [_G_TOOL]}],
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": [call]},
            {"role": "user", "parts": [reply]},
        ],
    }


def _g_config(**config: Any) -> dict[str, Any]:
    return {"generationConfig": config}


def _g_system(*parts: Body) -> dict[str, Any]:
    return {"systemInstruction": {"parts": [{"text": "be brief"}, *parts]}}


def gemini() -> dict[str, Probe]:
    at = "messages[0].parts[0]"
    tools = {"tools": [{"functionDeclarations": [_G_TOOL]}]}
    config = "generationConfig"
    return {
        "contents[].role": pair(
            _G, _g_turns({"text": "hello"}), _g_turns({"text": "hello"}, role="user"), "messages[1]"
        ),
        "contents[].parts[].text": pair(_G, _g_user(_G_TEXT, {"text": "hi"}), {}, at),
        "contents[].parts[].thought": pair(
            _G,
            _g_turns({"text": "let me think", "thought": True}, {"text": "done"}),
            _g_turns({"text": "done"}),
            "messages[1].parts[0]",
        ),
        "contents[].parts[].functionCall.*": pair(_G, _g_call(args={"q": "y"}), _g_call(), "messages[1].parts[0]"),
        "contents[].parts[].functionResponse.*": pair(
            _G, _g_call(answer={"result": "43"}), _g_call(), "messages[2].parts[0]"
        ),
        "contents[].parts[].inlineData.*": pair(_G, _g_user(_G_IMAGE, _G_TEXT), _g_user(_G_TEXT), at),
        "contents[].parts[].fileData.*": pair(_G, _g_user(_G_LINKED, _G_TEXT), _g_user(_G_TEXT), at),
        "systemInstruction.parts[].text": pair(_G, _g_system(), {}, "messages[0]"),
        "systemInstruction.parts[].inlineData.*": pair(_G, _g_system(_G_IMAGE), _g_system(), "messages[0].parts[1]"),
        "systemInstruction.parts[].fileData.*": pair(_G, _g_system(_G_LINKED), _g_system(), "messages[0].parts[1]"),
        "tools[].functionDeclarations[].name": pair(_G, tools, {}, "tools[0]"),
        "tools[].functionDeclarations[].description": pair(
            _G,
            tools,
            {"tools": [{"functionDeclarations": [{"name": "lookup", "parametersJsonSchema": SCHEMA}]}]},
            "tools[0]",
        ),
        "tools[].functionDeclarations[].parametersJsonSchema": pair(
            _G,
            tools,
            {"tools": [{"functionDeclarations": [{**_G_TOOL, "parametersJsonSchema": {"type": "object"}}]}]},
            "tools[0]",
        ),
        "tools[].functionDeclarations[].parameters.*": pair(
            _G,
            {
                "tools": [
                    {
                        "functionDeclarations": [
                            {
                                "name": "lookup",
                                "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}},
                            }
                        ]
                    }
                ]
            },
            {"tools": [{"functionDeclarations": [{"name": "lookup", "parameters": {"type": "OBJECT"}}]}]},
            "tools[0]",
        ),
        "toolConfig.functionCallingConfig.mode": pair(
            _G, {**tools, "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}, tools, "tool_choice"
        ),
        "toolConfig.functionCallingConfig.allowedFunctionNames": pair(
            _G,
            {**tools, "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["lookup"]}}},
            {**tools, "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}},
            "tool_choice",
        ),
        "generationConfig.maxOutputTokens": pair(_G, _g_config(maxOutputTokens=256), {}, "max_tokens"),
        "generationConfig.temperature": pair(_G, _g_config(temperature=0.5), {}, "temperature"),
        "generationConfig.topP": pair(_G, _g_config(topP=0.9), {}, "top_p"),
        "generationConfig.topK": pair(_G, _g_config(topK=5), {}, "top_k"),
        "generationConfig.stopSequences": pair(_G, _g_config(stopSequences=["END"]), {}, "stop"),
        "generationConfig.seed": pair(_G, _g_config(seed=7), {}, "seed"),
        "generationConfig.presencePenalty": pair(_G, _g_config(presencePenalty=0.5), {}, "presence_penalty"),
        "generationConfig.frequencyPenalty": pair(_G, _g_config(frequencyPenalty=0.5), {}, "frequency_penalty"),
        "generationConfig.responseMimeType": pair(
            _G, _g_config(responseMimeType="application/json"), {}, "response_format"
        ),
        "generationConfig.responseJsonSchema": pair(
            _G,
            _g_config(responseMimeType="application/json", responseJsonSchema=ANSWER_SCHEMA),
            _g_config(responseMimeType="application/json"),
            "response_format",
        ),
        "generationConfig.thinkingConfig.thinkingBudget": pair(
            _G, _g_config(thinkingConfig={"thinkingBudget": 2048}), {}, "thinking"
        ),
        "generationConfig.thinkingConfig.thinkingLevel": pair(
            _G, _g_config(thinkingConfig={"thinkingLevel": "HIGH"}), {}, "thinking"
        ),
        "generationConfig.thinkingConfig.includeThoughts": pair(
            _G,
            _g_config(thinkingConfig={"thinkingLevel": "HIGH", "includeThoughts": True}),
            _g_config(thinkingConfig={"thinkingLevel": "HIGH"}),
            "thinking",
        ),
        "toolConfig.*": pair(
            _G,
            {"toolConfig": {"retrievalConfig": {"languageCode": "en"}}},
            {},
            "provider_options.gemini.toolConfig",
        ),
        f"{config}.*": pair(_G, _g_config(candidateCount=2), {}, "provider_options.gemini.generationConfig"),
        **options(
            _G,
            "gemini",
            {
                "safetySettings[].*": (
                    "safetySettings",
                    [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_ONLY_HIGH"}],
                ),
                "cachedContent": ("cachedContent", "cachedContents/abc"),
                "labels": ("labels", {"team": "a"}),
            },
        ),
    }


# --- responses: stop reason, usage, citations, thinking ------------------------------------------


def answer(base: Body, at: str, **changes: Any) -> Probe:
    """A response with some top-level keys changed, and the base response."""
    return Probe(_with(base, **changes), copy.deepcopy(base), at)


_A_ANSWER: Body = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "It is so."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 5},
}


def anthropic_answers() -> dict[str, Probe]:
    usage = _A_ANSWER["usage"]
    return {
        "stop_reason": answer(_A_ANSWER, "stop_reason", stop_reason="max_tokens"),
        "usage.input_tokens": answer(_A_ANSWER, "usage", usage={**usage, "input_tokens": 20}),
        "usage.output_tokens": answer(_A_ANSWER, "usage", usage={**usage, "output_tokens": 9}),
        "usage.cache_read_input_tokens": answer(_A_ANSWER, "usage", usage={**usage, "cache_read_input_tokens": 4}),
        "usage.cache_creation_input_tokens": answer(
            _A_ANSWER, "usage", usage={**usage, "cache_creation_input_tokens": 4}
        ),
        "content[text].citations.*": answer(_A_ANSWER, "message.parts[0]", content=[_A_CITED]),
        "content[thinking].thinking": answer(
            _A_ANSWER,
            "message.parts[0]",
            content=[
                {"type": "thinking", "thinking": "let me think", "signature": "sig"},
                {"type": "text", "text": "It is so."},
            ],
        ),
    }


_C_ANSWER: Body = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "gpt-5",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "It is so."}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
}


def _c_choice(**message: Any) -> list[Body]:
    return [{"index": 0, "message": {"role": "assistant", "content": "It is so.", **message}, "finish_reason": "stop"}]


def chat_answers() -> dict[str, Probe]:
    usage = _C_ANSWER["usage"]
    cited = {
        "type": "url_citation",
        "url_citation": {"url": "https://example.com/a", "title": "A", "start_index": 6, "end_index": 8},
    }
    return {
        "choices[].finish_reason": answer(
            _C_ANSWER, "stop_reason", choices=[{**_c_choice()[0], "finish_reason": "length"}]
        ),
        "usage.prompt_tokens": answer(_C_ANSWER, "usage", usage={**usage, "prompt_tokens": 20, "total_tokens": 25}),
        "usage.completion_tokens": answer(
            _C_ANSWER, "usage", usage={**usage, "completion_tokens": 9, "total_tokens": 19}
        ),
        "usage.prompt_tokens_details.cached_tokens": answer(
            _C_ANSWER, "usage", usage={**usage, "prompt_tokens_details": {"cached_tokens": 4}}
        ),
        "usage.completion_tokens_details.reasoning_tokens": answer(
            _C_ANSWER, "usage", usage={**usage, "completion_tokens_details": {"reasoning_tokens": 3}}
        ),
        "choices[].message.annotations[].*": answer(
            _C_ANSWER, "message.parts[0]", choices=_c_choice(annotations=[cited])
        ),
    }


_R_ANSWER: Body = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1,
    "model": "gpt-5",
    "status": "completed",
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
    "output": [
        {
            "type": "message",
            "id": "msg_1",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "It is so.", "annotations": []}],
        }
    ],
    "usage": {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    },
}


def responses_answers() -> dict[str, Probe]:
    usage = _R_ANSWER["usage"]
    said = _R_ANSWER["output"][0]
    cited = {
        **said,
        "content": [
            {
                "type": "output_text",
                "text": "It is so.",
                "annotations": [
                    {
                        "type": "url_citation",
                        "url": "https://example.com/a",
                        "title": "A",
                        "start_index": 6,
                        "end_index": 8,
                    }
                ],
            }
        ],
    }
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "let me think"}]}
    raw = {"type": "reasoning", "id": "rs_1", "summary": [], "content": [{"type": "reasoning_text", "text": "so..."}]}
    return {
        "status": answer(
            _R_ANSWER, "stop_reason", status="incomplete", incomplete_details={"reason": "max_output_tokens"}
        ),
        "usage.input_tokens": answer(_R_ANSWER, "usage", usage={**usage, "input_tokens": 20, "total_tokens": 25}),
        "usage.output_tokens": answer(_R_ANSWER, "usage", usage={**usage, "output_tokens": 9, "total_tokens": 19}),
        "usage.input_tokens_details.cached_tokens": answer(
            _R_ANSWER, "usage", usage={**usage, "input_tokens_details": {"cached_tokens": 4, "cache_write_tokens": 0}}
        ),
        "usage.output_tokens_details.reasoning_tokens": answer(
            _R_ANSWER, "usage", usage={**usage, "output_tokens_details": {"reasoning_tokens": 3}}
        ),
        "output[message].content[output_text].annotations[*].*": answer(_R_ANSWER, "message.parts[0]", output=[cited]),
        "output[reasoning].summary[].*": answer(_R_ANSWER, "message.parts[0]", output=[reasoning, said]),
        "output[reasoning].content[].*": answer(_R_ANSWER, "message.parts[0]", output=[raw, said]),
    }


_G_ANSWER: Body = {
    "candidates": [{"content": {"role": "model", "parts": [{"text": "It is so."}]}, "finishReason": "STOP"}],
    "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
    "modelVersion": "gemini-3-pro-preview",
    "responseId": "r1",
}


def gemini_answers() -> dict[str, Probe]:
    usage = _G_ANSWER["usageMetadata"]
    said = _G_ANSWER["candidates"][0]
    return {
        "candidates[].finishReason": answer(
            _G_ANSWER, "stop_reason", candidates=[{**said, "finishReason": "MAX_TOKENS"}]
        ),
        "usageMetadata.promptTokenCount": answer(
            _G_ANSWER, "usage", usageMetadata={**usage, "promptTokenCount": 20, "totalTokenCount": 25}
        ),
        "usageMetadata.candidatesTokenCount": answer(
            _G_ANSWER, "usage", usageMetadata={**usage, "candidatesTokenCount": 9, "totalTokenCount": 19}
        ),
        "usageMetadata.cachedContentTokenCount": answer(
            _G_ANSWER, "usage", usageMetadata={**usage, "cachedContentTokenCount": 4}
        ),
        "usageMetadata.thoughtsTokenCount": answer(
            _G_ANSWER, "usage", usageMetadata={**usage, "thoughtsTokenCount": 3, "totalTokenCount": 18}
        ),
        "candidates[].content.parts[].thought": answer(
            _G_ANSWER,
            "message.parts[0]",
            candidates=[
                {
                    **said,
                    "content": {
                        "role": "model",
                        "parts": [{"text": "let me think", "thought": True}, {"text": "It is so."}],
                    },
                }
            ],
        ),
    }


# The wires added later keep their probes beside this module (it is long enough); they import the
# helpers above, so they are read once those exist.
from . import _probes_bedrock, _probes_cohere  # noqa: E402

PROBES: dict[str, Callable[[], dict[str, Probe]]] = {
    "anthropic-messages": anthropic,
    "openai-chat": openai_chat,
    "openai-responses": openai_responses,
    "gemini": gemini,
    "bedrock-converse": _probes_bedrock.requests,
    "cohere-chat": _probes_cohere.requests,
}

MODEL_ROWS = {
    "anthropic-messages": "model",
    "openai-chat": "model",
    "openai-responses": "model",
    "bedrock-converse": "modelId",
    "cohere-chat": "model",
}
"""The row whose probe keeps its own model names (the others are sent to each target's model)."""

RESPONSE_PROBES: dict[str, Callable[[], dict[str, Probe]]] = {
    "anthropic-messages": anthropic_answers,
    "openai-chat": chat_answers,
    "openai-responses": responses_answers,
    "gemini": gemini_answers,
    "bedrock-converse": _probes_bedrock.answers,
    "cohere-chat": _probes_cohere.answers,
}
