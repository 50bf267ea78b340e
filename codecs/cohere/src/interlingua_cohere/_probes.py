"""cohere-chat probes: a minimal v2 chat request carrying each key its codec decodes into the IR
or provider_options, and an answer carrying each response key the test follows (see
``_coverage_probes``). Shapes are the cohere SDK's v2 types (``ChatMessageV2``, ``ToolV2``)."""

from __future__ import annotations

from typing import Any

from interlingua.testing.conformance import ANSWER_SCHEMA, PNG, SCHEMA, Body, Probe, answer, options, pair, setting

_C: Body = {"model": "command-a-reasoning-08-2025", "messages": [{"role": "user", "content": "hi"}]}
_TEXT = {"type": "text", "text": "what is this?"}
_TOOL = {"type": "function", "function": {"name": "lookup", "description": "Look a thing up", "parameters": SCHEMA}}
_TOOLS = {"tools": [_TOOL]}
_AT = "messages[0].parts[0]"


def _user(*blocks: Body) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": list(blocks)}]}


def _turns(assistant: Body) -> dict[str, Any]:
    return {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", **assistant},
            {"role": "user", "content": "and?"},
        ]
    }


def _call(call_id: str = "lookup_1", args: str = '{"q": "x"}', result: Any = "42", **assistant: Any) -> Any:
    call = {"id": call_id, "type": "function", "function": {"name": "lookup", "arguments": args}}
    return {
        **_TOOLS,
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "tool_calls": [call], **assistant},
            {"role": "tool", "tool_call_id": call_id, "content": result},
        ],
    }


def _function(**function: Any) -> dict[str, Any]:
    return {"tools": [{"type": "function", "function": function}]}


def requests() -> dict[str, Probe]:
    said = {"type": "text", "text": "done"}
    system = {"role": "system", "content": [{"type": "text", "text": "be brief"}]}
    result = "messages[2].parts[0]"
    document = {"type": "document", "document": {"data": {"text": "the text"}}}
    return {
        "model": pair(_C, {"model": "command-r7b-12-2024"}, {}, "model"),
        "messages[*].content": pair(_C, {"messages": [{"role": "user", "content": "hello"}]}, {}, "messages[0]"),
        "messages[system].content[].text": pair(_C, {"messages": [system, *_C["messages"]]}, {}, "messages[0]"),
        "messages[system].content[].type": pair(_C, {"messages": [system, *_C["messages"]]}, {}, "messages[0]"),
        "messages[user].content[text].text": pair(_C, _user(_TEXT, {"type": "text", "text": "hi"}), {}, _AT),
        "messages[user].content[image_url].image_url.detail": pair(
            _C,
            _user({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "low"}}, _TEXT),
            _user({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}, _TEXT),
            _AT,
        ),
        "messages[user].content[image_url].image_url.url": pair(
            _C,
            _user({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}, _TEXT),
            _user(_TEXT),
            _AT,
        ),
        "messages[assistant].content[text].text": pair(
            _C,
            _turns({"content": [{"type": "text", "text": "hello"}]}),
            _turns({"content": [said]}),
            "messages[1].parts[0]",
        ),
        "messages[assistant].content[thinking].thinking": pair(
            _C,
            _turns({"content": [{"type": "thinking", "thinking": "let me think"}, said]}),
            _turns({"content": [said]}),
            "messages[1].parts[0]",
        ),
        "messages[assistant].citations[].*": pair(
            _C,
            _turns({"content": [said], "citations": [_CITATION]}),
            _turns({"content": [said]}),
            "messages[1].parts[0]",
        ),
        "messages[assistant].tool_plan": pair(
            _C, _call(tool_plan="I will look it up."), _call(), "messages[1].parts[0]"
        ),
        "messages[assistant].tool_calls[].*": pair(_C, _call(args='{"q": "y"}'), _call(), "messages[1].parts[0]"),
        "messages[tool].tool_call_id": pair(_C, _call("lookup_2"), _call(), result),
        "messages[tool].content[text].text": pair(
            _C, _call(result=[{"type": "text", "text": "43"}]), _call(result=[{"type": "text", "text": "42"}]), result
        ),
        "messages[tool].content[document].document.data": pair(
            _C,
            _call(result=[{"type": "text", "text": "42"}, document]),
            _call(result=[{"type": "text", "text": "42"}]),
            result,
        ),
        "tools[].type": pair(_C, _TOOLS, {}, "tools[0]"),
        "tools[].function.name": pair(_C, _TOOLS, _function(name="search", parameters=SCHEMA), "tools[0]"),
        "tools[].function.description": pair(_C, _TOOLS, _function(name="lookup", parameters=SCHEMA), "tools[0]"),
        "tools[].function.parameters": pair(
            _C,
            _TOOLS,
            _function(name="lookup", description="Look a thing up", parameters={"type": "object"}),
            "tools[0]",
        ),
        "tool_choice": pair(_C, {**_TOOLS, "tool_choice": "REQUIRED"}, _TOOLS, "tool_choice"),
        "thinking.type": setting(_C, "thinking", {"type": "disabled"}, "thinking"),
        "thinking.token_budget": setting(_C, "thinking", {"type": "enabled", "token_budget": 2048}, "thinking"),
        "max_tokens": setting(_C, "max_tokens", 256, "max_tokens"),
        "stop_sequences": setting(_C, "stop_sequences", ["END"], "stop"),
        "temperature": setting(_C, "temperature", 0.5, "temperature"),
        "seed": setting(_C, "seed", 7, "seed"),
        "frequency_penalty": setting(_C, "frequency_penalty", 0.5, "frequency_penalty"),
        "presence_penalty": setting(_C, "presence_penalty", 0.5, "presence_penalty"),
        "k": setting(_C, "k", 5, "top_k"),
        "p": setting(_C, "p", 0.9, "top_p"),
        **options(
            _C,
            "cohere",
            {
                "documents": ("documents", ["The sky is blue."]),
                "documents[].*": ("documents", [{"id": "d1", "data": {"text": "The sky is blue."}}]),
                "citation_options.*": ("citation_options", {"mode": "ACCURATE"}),
                "response_format(*).*": ("response_format", {"type": "json_object", "json_schema": ANSWER_SCHEMA}),
                "safety_mode": ("safety_mode", "STRICT"),
                "strict_tools": ("strict_tools", True),
                "logprobs": ("logprobs", True),
                "priority": ("priority", 1),
            },
        ),
    }


_CITATION = {
    "start": 3,
    "end": 5,
    "text": "is",
    "sources": [{"type": "document", "id": "doc_1", "document": {"id": "doc_1", "title": "A", "text": "It is."}}],
    "type": "TEXT_CONTENT",
}


_ANSWER: Body = {
    "id": "c1",
    "finish_reason": "COMPLETE",
    "message": {"role": "assistant", "content": [{"type": "text", "text": "It is so."}]},
    "usage": {"tokens": {"input_tokens": 10, "output_tokens": 5}},
}


def answers() -> dict[str, Probe]:
    tokens = _ANSWER["usage"]["tokens"]
    said = _ANSWER["message"]["content"][0]
    return {
        "finish_reason": answer(_ANSWER, "stop_reason", finish_reason="MAX_TOKENS"),
        "usage.tokens.input_tokens": answer(_ANSWER, "usage", usage={"tokens": {**tokens, "input_tokens": 20}}),
        "usage.tokens.output_tokens": answer(_ANSWER, "usage", usage={"tokens": {**tokens, "output_tokens": 9}}),
        "usage.cached_tokens": answer(_ANSWER, "usage", usage={"tokens": tokens, "cached_tokens": 4}),
        "message.citations[].*": answer(
            _ANSWER, "message.parts[0]", message={**_ANSWER["message"], "citations": [_CITATION]}
        ),
        "message.content[thinking].thinking": answer(
            _ANSWER,
            "message.parts[0]",
            message={"role": "assistant", "content": [{"type": "thinking", "thinking": "let me think"}, said]},
        ),
    }
