"""openai-chat probes: a minimal request carrying each key its codec decodes into the IR or
provider_options, and an answer carrying each response key the conformance suite follows (moved
from the core's ``tests/conformance/_coverage_probes.py``; ``interlingua.testing.conformance``
says what a probe is). Named by this package's ``_conformance.CONFORMANCE``."""

from __future__ import annotations

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

_C: Body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]}
_C_TOOL: Body = {
    "type": "function",
    "function": {"name": "lookup", "description": "Look a thing up", "parameters": SCHEMA},
}
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


# --- responses: stop reason, usage, citations, thinking ------------------------------------------


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


# The meaning rows whose sense no IR field holds (issue 36 item 2): the key rides in its part's or
# message's echo marked ``unmapped`` (``ProviderEcho.unmapped``); its own wire writes it back and
# every other wire must report it dropped. Each probe is one part with the key and without it.


def meaning() -> dict[str, Probe]:
    # openai types: ChatCompletionContentPartTextParam.prompt_cache_breakpoint (mode, ttl) and
    # ChatCompletionAssistantMessageParam.function_call (name, arguments), deprecated.
    mark: Body = {"prompt_cache_breakpoint": {"mode": "explicit", "ttl": "30m"}}
    text: Body = {"type": "text", "text": "what is this?"}
    system: list[Body] = [
        {"role": "system", "content": [{**text, "text": "be brief"}]},
        {"role": "user", "content": "hi"},
    ]
    marked = [{**system[0], "content": [{**text, "text": "be brief", **mark}]}, system[1]]
    said = {"role": "assistant", "content": "Looking."}
    call = {"function_call": {"name": "lookup", "arguments": '{"q": "x"}'}}
    turns = [{"role": "user", "content": "hi"}, said, {"role": "user", "content": "and?"}]
    called = [turns[0], {**said, **call}, turns[2]]
    return {
        "messages[*].content[*].prompt_cache_breakpoint.*": pair(
            _C,
            {"messages": [{"role": "user", "content": [{**text, **mark}]}]},
            {"messages": [{"role": "user", "content": [text]}]},
            "messages[0].parts[0]",
        ),
        "messages[*].content[].prompt_cache_breakpoint.*": pair(
            _C, {"messages": marked}, {"messages": system}, "messages[0].parts[0]"
        ),
        "messages[assistant].function_call.*": pair(_C, {"messages": called}, {"messages": turns}, "messages[1]"),
    }
