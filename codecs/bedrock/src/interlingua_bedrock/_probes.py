"""bedrock-converse probes: a minimal Converse request carrying each key its codec decodes into
the IR or provider_options, and an answer carrying each response key the test follows (see
``_coverage_probes``). Block shapes are botocore's ``bedrock-runtime`` service model's."""

from __future__ import annotations

import copy
import json
from typing import Any

from interlingua.testing.conformance import ANSWER_SCHEMA, PDF, PNG, SCHEMA, Body, Probe, answer, options, pair

_B: Body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}
_TEXT = {"text": "what is this?"}
_TOOL = {"toolSpec": {"name": "lookup", "description": "Look a thing up", "inputSchema": {"json": SCHEMA}}}
_TOOLS = {"toolConfig": {"tools": [_TOOL]}}
_AT = "messages[0].parts[0]"
_MEDIA = {  # kind -> (format, another format, base64 bytes)
    "image": ("png", "jpeg", PNG),
    "video": ("mp4", "webm", PDF),
    "audio": ("mp3", "wav", PDF),
    "document": ("pdf", "txt", PDF),
}


def _user(*blocks: Body) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": list(blocks)}]}


def _turns(*assistant: Body, role: str = "assistant") -> dict[str, Any]:
    return {
        "messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {"role": role, "content": list(assistant)},
            {"role": "user", "content": [{"text": "and?"}]},
        ]
    }


def _call(call_id: str = "tooluse_1", name: str = "lookup", args: Any = None, content: Any = None, **extra: Any) -> Any:
    use = {"toolUse": {"toolUseId": call_id, "name": name, "input": args or {"q": "x"}}}
    result = {"toolResult": {"toolUseId": call_id, "content": content or [{"text": "42"}], **extra}}
    tool = {"toolSpec": {**_TOOL["toolSpec"], "name": name}}
    return {
        "toolConfig": {"tools": [tool]},
        "messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {"role": "assistant", "content": [use]},
            {"role": "user", "content": [result]},
        ],
    }


def _block(kind: str, source: Body, fmt: str | None = None) -> Body:
    block: Body = {"format": fmt or _MEDIA[kind][0], "source": source}
    if kind == "document":
        block["name"] = "a"
    return {kind: block}


def _media(kind: str) -> dict[str, Probe]:
    at = f"messages[].content[].{kind}"
    fmt, other, data = _MEDIA[kind]
    inline = _block(kind, {"bytes": data})
    return {
        f"{at}.format": pair(_B, _user(inline, _TEXT), _user(_block(kind, {"bytes": data}, other), _TEXT), _AT),
        f"{at}.source.bytes": pair(_B, _user(inline, _TEXT), _user(_TEXT), _AT),
        f"{at}.source.s3Location.uri": pair(
            _B, _user(_block(kind, {"s3Location": {"uri": f"s3://bucket/a.{fmt}"}}), _TEXT), _user(_TEXT), _AT
        ),
    }


def _result_media(kind: str) -> Probe:
    data = _MEDIA[kind][2]
    return pair(
        _B,
        _call(content=[{"text": "42"}, _block(kind, {"bytes": data})]),
        _call(),
        "messages[2].parts[0]",
    )


def _config(**inference: Any) -> dict[str, Any]:
    return {"inferenceConfig": inference}


def requests() -> dict[str, Probe]:
    said = {"text": "done"}
    thought = {"reasoningContent": {"reasoningText": {"text": "let me think", "signature": "c2ln"}}}
    redacted = {"reasoningContent": {"redactedContent": PDF}}
    system = {"system": [{"text": "be brief"}]}
    cached_tools = {"toolConfig": {"tools": [_TOOL, {"cachePoint": {"type": "default"}}]}}
    result = "messages[2].parts[0]"
    return {
        "modelId": pair(
            _B,
            {"modelId": "us.anthropic.claude-sonnet-4-5-20250929-v1:0"},
            {"modelId": "us.amazon.nova-pro-v1:0"},
            "model",
        ),
        "messages[].role": pair(_B, _turns({"text": "hello"}), _turns({"text": "hello"}, role="user"), "messages[1]"),
        "messages[].content[].text": pair(_B, _user(_TEXT, {"text": "hi"}), {}, _AT),
        **_media("image"),
        **_media("video"),
        **_media("audio"),
        **_media("document"),
        **{
            f"messages[].content[].document.{row}": pair(
                _B,
                _user({"document": {**_block("document", {"bytes": PDF})["document"], **extra}}, _TEXT),
                _user(_block("document", {"bytes": PDF}), _TEXT),
                _AT,
            )
            for row, extra in (
                ("context", {"context": "the signed copy"}),
                ("citations.*", {"citations": {"enabled": True}}),
            )
        },
        "messages[].content[].document.name": pair(
            _B, _user(_block("document", {"bytes": PDF}), _TEXT), _user(_TEXT), _AT
        ),
        "messages[].content[].document.source.text": pair(
            _B, _user(_block("document", {"text": "the text"}, "txt"), _TEXT), _user(_TEXT), _AT
        ),
        "messages[].content[].toolUse.toolUseId": pair(_B, _call("tooluse_2"), _call(), "messages[1].parts[0]"),
        "messages[].content[].toolUse.name": pair(_B, _call(name="search"), _call(), "messages[1].parts[0]"),
        "messages[].content[].toolUse.input": pair(_B, _call(args={"q": "y"}), _call(), "messages[1].parts[0]"),
        "messages[].content[].toolResult.toolUseId": pair(_B, _call("tooluse_2"), _call(), result),
        "messages[].content[].toolResult.status": pair(_B, _call(status="error"), _call(), result),
        "messages[].content[].toolResult.content[].text": pair(_B, _call(content=[{"text": "43"}]), _call(), result),
        "messages[].content[].toolResult.content[].json": pair(
            _B, _call(content=[{"json": {"answer": 42}}]), _call(), result
        ),
        "messages[].content[].toolResult.content[].image.*": _result_media("image"),
        "messages[].content[].toolResult.content[].video.*": _result_media("video"),
        "messages[].content[].toolResult.content[].document.*": _result_media("document"),
        "messages[].content[].reasoningContent.reasoningText.text": pair(
            _B, _turns(thought, said), _turns(said), "messages[1].parts[0]"
        ),
        "messages[].content[].citationsContent.*": pair(
            _B, _turns(_CITED, said), _turns({"text": "It is so."}, said), "messages[1].parts[0]"
        ),
        "messages[].content[].reasoningContent.redactedContent": pair(
            _B, _turns(redacted, said), _turns(said), "messages[1].parts[0]"
        ),
        "messages[].content[].cachePoint.*": pair(
            _B, _user({"text": "hi"}, {"cachePoint": {"type": "default"}}), _user({"text": "hi"}), _AT
        ),
        "system[].text": pair(_B, system, {}, "messages[0]"),
        "system[].cachePoint.*": pair(
            _B, {"system": [{"text": "be brief"}, {"cachePoint": {"type": "default"}}]}, system, _AT
        ),
        "inferenceConfig.maxTokens": pair(_B, _config(maxTokens=256), {}, "max_tokens"),
        "inferenceConfig.temperature": pair(_B, _config(temperature=0.5), {}, "temperature"),
        "inferenceConfig.topP": pair(_B, _config(topP=0.9), {}, "top_p"),
        "inferenceConfig.stopSequences": pair(_B, _config(stopSequences=["END"]), {}, "stop"),
        "toolConfig.tools[].toolSpec.name": pair(_B, _TOOLS, {}, "tools[0]"),
        "toolConfig.tools[].toolSpec.description": pair(
            _B,
            _TOOLS,
            {"toolConfig": {"tools": [{"toolSpec": {**_TOOL["toolSpec"], "description": "Find"}}]}},
            "tools[0]",
        ),
        "toolConfig.tools[].toolSpec.inputSchema.json": pair(
            _B,
            _TOOLS,
            {
                "toolConfig": {
                    "tools": [{"toolSpec": {**_TOOL["toolSpec"], "inputSchema": {"json": {"type": "object"}}}}]
                }
            },
            "tools[0]",
        ),
        "toolConfig.tools[].toolSpec.strict": pair(
            _B, {"toolConfig": {"tools": [{"toolSpec": {**_TOOL["toolSpec"], "strict": True}}]}}, _TOOLS, "tools[0]"
        ),
        "toolConfig.tools[].cachePoint.*": pair(_B, cached_tools, _TOOLS, "tools[0]"),
        "toolConfig.toolChoice.auto": pair(
            _B,
            {"toolConfig": {"tools": [_TOOL], "toolChoice": {"auto": {}}}},
            # auto is every wire's default, which a wire may say by leaving tool_choice out: the
            # probe tells it from another value
            {"toolConfig": {"tools": [_TOOL], "toolChoice": {"any": {}}}},
            "tool_choice",
        ),
        "toolConfig.toolChoice.any": pair(
            _B, {"toolConfig": {"tools": [_TOOL], "toolChoice": {"any": {}}}}, _TOOLS, "tool_choice"
        ),
        "toolConfig.toolChoice.tool.name": pair(
            _B, {"toolConfig": {"tools": [_TOOL], "toolChoice": {"tool": {"name": "lookup"}}}}, _TOOLS, "tool_choice"
        ),
        **options(
            _B,
            "bedrock",
            {
                "additionalModelRequestFields": ("additionalModelRequestFields", {"anthropic_beta": ["a-beta"]}),
                "additionalModelResponseFieldPaths": ("additionalModelResponseFieldPaths", ["/stop_sequence"]),
                "guardrailConfig.*": ("guardrailConfig", {"guardrailIdentifier": "g1", "guardrailVersion": "1"}),
                "projectIdentifier": ("projectIdentifier", "proj-1"),
                "promptVariables": ("promptVariables", {"topic": {"text": "cats"}}),
                "requestMetadata": ("requestMetadata", {"team": "a"}),
                "performanceConfig.*": ("performanceConfig", {"latency": "optimized"}),
                "serviceTier.*": ("serviceTier", {"type": "priority"}),
                "outputConfig.*": (
                    "outputConfig",
                    {
                        "textFormat": {
                            "type": "json_schema",
                            "structure": {"jsonSchema": {"name": "answer", "schema": json.dumps(ANSWER_SCHEMA)}},
                        }
                    },
                ),
            },
        ),
    }


_CITED = {
    "citationsContent": {
        "content": [{"text": "It is so."}],
        "citations": [
            {
                "title": "A",
                "sourceContent": [{"text": "so"}],
                "location": {"documentChar": {"documentIndex": 0, "start": 0, "end": 2}},
            }
        ],
    }
}


_ANSWER: Body = {
    "output": {"message": {"role": "assistant", "content": [{"text": "It is so."}]}},
    "stopReason": "end_turn",
    "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
    "metrics": {"latencyMs": 100},
}


def answers() -> dict[str, Probe]:
    usage = _ANSWER["usage"]
    said = _ANSWER["output"]["message"]["content"][0]
    thought = {"reasoningContent": {"reasoningText": {"text": "let me think", "signature": "c2ln"}}}
    return {
        "stopReason": answer(_ANSWER, "stop_reason", stopReason="max_tokens"),
        "usage.inputTokens": answer(_ANSWER, "usage", usage={**usage, "inputTokens": 20, "totalTokens": 25}),
        "usage.outputTokens": answer(_ANSWER, "usage", usage={**usage, "outputTokens": 9, "totalTokens": 19}),
        "usage.cacheReadInputTokens": answer(
            _ANSWER, "usage", usage={**usage, "cacheReadInputTokens": 4, "totalTokens": 19}
        ),
        "usage.cacheWriteInputTokens": answer(
            _ANSWER, "usage", usage={**usage, "cacheWriteInputTokens": 4, "totalTokens": 19}
        ),
        "output.message.content[].citationsContent.*": answer(
            _ANSWER, "message.parts[0]", output={"message": {"role": "assistant", "content": [_CITED]}}
        ),
        "output.message.content[].reasoningContent.reasoningText.text": answer(
            _ANSWER,
            "message.parts[0]",
            output={"message": {"role": "assistant", "content": [copy.deepcopy(thought), said]}},
        ),
    }


# The meaning rows whose sense no IR field holds (issue 36 item 2): the key rides in its part's or
# message's echo marked ``unmapped`` (``ProviderEcho.unmapped``); its own wire writes it back and
# every other wire must report it dropped. Each probe is one part with the key and without it.


def meaning_answers() -> dict[str, Probe]:
    """A document in an answer (botocore's ``DocumentBlock`` in ``ContentBlock``): its ``context``
    and ``citations`` decode to ``Document.context`` / ``Document.citations`` as in a request."""
    pdf = {"format": "pdf", "name": "report", "source": {"bytes": PDF}}
    fields: dict[str, Body] = {
        "context": {"context": "from the finance team"},
        "citations.*": {"citations": {"enabled": True}},
    }
    probes = {}
    for row, extra in fields.items():
        answered = []
        for document in ({**pdf, **extra}, pdf):
            body = copy.deepcopy(_ANSWER)
            body["output"]["message"]["content"].insert(0, {"document": document})
            answered.append(body)
        probes[f"output.message.content[].document.{row}"] = Probe(answered[0], answered[1], "message.parts[0]")
    return probes
