"""anthropic-messages probes: a minimal request carrying each key its codec decodes into the IR or
provider_options, and an answer carrying each response key the conformance suite follows (moved
from the core's ``tests/conformance/_coverage_probes.py``; ``interlingua.testing.conformance``
says what a probe is). Named by this package's ``_conformance.CONFORMANCE``."""

from __future__ import annotations

import copy
from typing import Any

from interlingua.testing.conformance import (
    ANSWER_SCHEMA,
    PDF,
    PNG,
    SCHEMA,
    Body,
    Probe,
    answer,
    options,
    pair,
    setting,
)

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
_A_SYSTEM_TURN: list[Any] = [
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
    fields: dict[str, Body] = {"title": {"title": "Q3 report"}, "context": {"context": "from the finance team"}}
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


# --- responses: stop reason, usage, citations, thinking ------------------------------------------


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
