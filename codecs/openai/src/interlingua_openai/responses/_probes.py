"""openai-responses probes: a minimal request carrying each key its codec decodes into the IR or
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


# --- responses: stop reason, usage, citations, thinking ------------------------------------------


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
    }


# The meaning rows whose sense no IR field holds (issue 36 item 2): the key rides in its part's or
# message's echo marked ``unmapped`` (``ProviderEcho.unmapped``); its own wire writes it back and
# every other wire must report it dropped. Each probe is one part with the key and without it.

_R_PDF = {"type": "input_file", "file_id": "file_1"}
_R_MARK = {"prompt_cache_breakpoint": {"mode": "explicit", "ttl": "30m"}}
_R_THOUGHT = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "let me think"}]}
_R_RAW = {"content": [{"type": "reasoning_text", "text": "first, the units"}]}


def _r_block(block: Body, bare: Body) -> Probe:
    def call(output: list[Body]) -> Body:
        return {
            "input": [
                {"role": "user", "content": "hi"},
                {"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": '{"q": "x"}'},
                {"type": "function_call_output", "call_id": "call_1", "output": output},
            ]
        }

    return pair(_R, call([block]), call([bare]), "messages[2].parts[0].content[0]")


def meaning() -> dict[str, Probe]:
    # openai types: ResponseInputFileParam.detail (auto, low, high), ResponseInputTextParam and
    # ResponseInputFileParam.prompt_cache_breakpoint, ResponseReasoningItemParam.content.
    text = {"type": "input_text", "text": "what is this?"}

    def user(*blocks: Body) -> Body:
        return {"input": [{"role": "user", "content": list(blocks)}]}

    said: Body = {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant"}
    said = {**said, "content": [{"type": "output_text", "text": "It is so.", "annotations": []}]}

    def turns(*items: Body) -> Body:
        return {"input": [{"role": "user", "content": "hi"}, *items, {"role": "user", "content": "and?"}]}

    return {
        "input[message].content[input_file].detail": pair(
            _R, user({**_R_PDF, "detail": "low"}, text), user(_R_PDF, text), "messages[0].parts[0]"
        ),
        "input[message].content[*].prompt_cache_breakpoint.*": pair(
            _R, user({**text, **_R_MARK}), user(text), "messages[0].parts[0]"
        ),
        "input[function_call_output].output[input_file].detail": _r_block({**_R_PDF, "detail": "low"}, _R_PDF),
        "input[function_call_output].output[*].prompt_cache_breakpoint.*": _r_block({**_R_PDF, **_R_MARK}, _R_PDF),
        "input[reasoning].content[].*": pair(
            _R, turns({**_R_THOUGHT, **_R_RAW}, said), turns(_R_THOUGHT, said), "messages[1].parts[0]"
        ),
    }


def meaning_answers() -> dict[str, Probe]:
    said = _R_ANSWER["output"][0]
    return {
        "output[reasoning].content[].*": Probe(
            {**copy.deepcopy(_R_ANSWER), "output": [{**_R_THOUGHT, **_R_RAW}, said]},
            {**copy.deepcopy(_R_ANSWER), "output": [_R_THOUGHT, said]},
            "message.parts[0]",
        )
    }
