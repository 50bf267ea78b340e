"""The wire's oracle, for tests (``BedrockConverseCodec.oracle`` names it): botocore's
``bedrock-runtime`` service model, the source of truth its SDKs are
generated from. A body is checked by botocore's own ``ParamValidator`` against the ``Converse``
input or output shape (types, required members, unknown keys, union members); the JSON wire's
base64 text is turned into bytes where the shape says blob first, as botocore's JSON parser does."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal

from interlingua.kit import table_check
from interlingua.testing import Oracle, RuleView, Sendable, dig

from ._rules import RULES
from ._schema_dialects import DIALECTS, schemas_in

Kind = Literal["request", "response"]


@cache
def _shapes() -> Any:
    import botocore.session

    return botocore.session.get_session().get_service_model("bedrock-runtime").operation_model("Converse")


def validate(kind: Kind, body: Any) -> list[str]:
    """What botocore finds wrong with ``body`` as a Converse request or response: [] when none."""
    from botocore.validate import ParamValidator

    operation = _shapes()
    shape = operation.input_shape if kind == "request" else operation.output_shape
    problems: list[str] = []
    value = _blobs(body, shape, "", problems)
    if kind == "request" and isinstance(value, dict):
        value.setdefault("modelId", "model")  # in the URL on the wire, a member of the shape
    report = ParamValidator().validate(value, shape)
    if report.has_errors():
        problems.extend(line.strip() for line in report.generate_report().splitlines() if line.strip())
    return problems


def _blobs(value: Any, shape: Any, at: str, problems: list[str]) -> Any:
    """``value`` with the base64 text at each blob shape decoded to bytes."""
    kind = shape.type_name
    if kind == "blob":
        if isinstance(value, str):
            try:
                return base64.b64decode(value, validate=True)
            except binascii.Error:
                problems.append(f"{at}: not base64")
        return value
    if kind == "structure" and isinstance(value, dict) and not shape.metadata.get("document"):
        return {
            key: (_blobs(item, shape.members[key], f"{at}.{key}", problems) if key in shape.members else item)
            for key, item in value.items()
        }
    if kind == "list" and isinstance(value, list):
        return [_blobs(item, shape.member, f"{at}[{i}]", problems) for i, item in enumerate(value)]
    if kind == "map" and isinstance(value, dict):
        return {key: _blobs(item, shape.value, f"{at}.{key}", problems) for key, item in value.items()}
    return value


# --- the test kit's seam (interlingua.testing.Oracle) ---------------------------------------------


def _request(body: Mapping[str, Any]) -> list[str]:
    return validate("request", body)


def _response(body: Mapping[str, Any]) -> list[str]:
    return validate("response", body)


def _stream_event(payload: Mapping[str, Any]) -> list[str]:
    """A ConverseStream event's payload: its type is the frame's name, not in the payload, so it
    must fit one of the event shapes (``p`` is AWS's padding, in no shape)."""
    from botocore.validate import ParamValidator

    union = _shapes().service_model.operation_model("ConverseStream").output_shape.members["stream"]
    payload = {k: v for k, v in payload.items() if k != "p"}
    best: list[str] | None = None
    for shape in union.members.values():
        report = ParamValidator().validate(payload, shape)
        found = [line.strip() for line in report.generate_report().splitlines() if line.strip()]
        if not found:
            return []
        if best is None or len(found) < len(best):
            best = found
    return best or ["not a ConverseStream event"]


def _error(body: Mapping[str, Any]) -> list[str]:
    """An error answer: ``{"message": ...}`` (the error's name rides in ``x-amzn-errortype``)."""
    problems = [f"{key}: unknown key" for key in body if key not in ("message", "Message", "__type")]
    if not isinstance(body.get("message", body.get("Message")), str):
        problems.append("message: missing")
    return problems


def _tool_names(body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    tools = dig(body, "toolConfig.tools")
    return [
        (f"toolConfig.tools[{i}].toolSpec.name", tool["toolSpec"].get("name"))
        for i, tool in enumerate(tools if isinstance(tools, list) else [])
        if isinstance(tool, Mapping) and isinstance(tool.get("toolSpec"), Mapping)
    ]


def _turn_call_ids(body: Mapping[str, Any]) -> list[tuple[str, list[tuple[int, Any]]]]:
    found = []
    messages = body.get("messages")
    for i, message in enumerate(messages if isinstance(messages, list) else []):
        if isinstance(message, Mapping) and message.get("role") == "assistant":
            content = message.get("content")
            blocks: list[Any] = content if isinstance(content, list) else []
            ids = [
                (j, block["toolUse"].get("toolUseId"))
                for j, block in enumerate(blocks)
                if isinstance(block, Mapping) and isinstance(block.get("toolUse"), Mapping)
            ]
            if ids:
                found.append((f"messages[{i}].content", ids))
    return found


def _payload(value: Mapping[str, Any]) -> tuple[str, Any] | None:
    source = value.get("source")
    if isinstance(source, Mapping) and "bytes" in source:
        return "source.bytes", source["bytes"]
    return None


def _rule_view(body: Mapping[str, Any]) -> RuleView:
    """The body's model-ruled settings in the catalog's words: Claude's thinking field (in
    ``additionalModelRequestFields``, its own words: ``enabled``, ``adaptive``), the Converse
    features used (AWS's table's columns), a forced tool choice, a final assistant turn."""
    found = body.get("inferenceConfig")
    inference: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    extra = body.get("additionalModelRequestFields")
    extra = extra if isinstance(extra, Mapping) else {}
    names = {"temperature": "temperature", "topP": "top_p"}
    view = RuleView({neutral: inference[key] for key, neutral in names.items() if inference.get(key) is not None})
    if extra.get("top_k") is not None:
        view.settings["top_k"] = extra["top_k"]
    if isinstance(inference.get("maxTokens"), int):
        view.max_output = inference["maxTokens"]
    thinking = extra.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, Mapping) else None
    if isinstance(thinking, Mapping) and isinstance(kind, str):
        view.thinks = kind != "disabled"
        view.forms = [kind] if kind != "disabled" else []
        if isinstance(thinking.get("budget_tokens"), int):
            view.budget = thinking["budget_tokens"]
    config = extra.get("output_config")
    if kind == "adaptive" and isinstance(config, Mapping) and isinstance(config.get("effort"), str):
        view.level = config["effort"]
    choice = dig(body, "toolConfig.toolChoice")
    if isinstance(choice, Mapping) and ("any" in choice or "tool" in choice):
        view.settings["forced_tool_choice"] = "any" if "any" in choice else "tool"
    view.features = _features(body)
    messages = body.get("messages")
    last = messages[-1] if isinstance(messages, list) and messages else None
    view.prefill = isinstance(last, Mapping) and last.get("role") == "assistant"
    return view


_FEATURES = {"image": "vision", "video": "vision", "document": "document_chat"}
"""A content block -> the Converse feature it needs (https://docs.aws.amazon.com/bedrock/latest/
userguide/conversation-inference-supported-models-features.html)."""


def _features(body: Mapping[str, Any]) -> list[str]:
    """The features of AWS's Converse table the body uses: a system prompt, tools, and images,
    videos or documents in the messages' own content."""
    used = {"system_prompts"} if body.get("system") else set()
    if dig(body, "toolConfig.tools"):
        used.add("tool_use")
    messages = body.get("messages")
    for message in messages if isinstance(messages, list) else []:
        content = message.get("content") if isinstance(message, Mapping) else None
        for block in content if isinstance(content, list) else []:
            if isinstance(block, Mapping):
                used.update(_FEATURES[key] for key in block if key in _FEATURES)
    return sorted(used)


ORACLE = Oracle(
    schemas=schemas_in,
    dialects=DIALECTS,
    checks={"request": _request, "response": _response, "stream_event": _stream_event, "error": _error},
    rules=table_check(RULES),  # the rows of _rules.py, each with its source
    sendable=Sendable(
        # botocore ToolName: [a-zA-Z0-9_-]+, 1-64 characters
        tool_name=re.compile(r"[a-zA-Z0-9_-]{1,64}"),
        max_tokens=("inferenceConfig.maxTokens",),
        sampling=("inferenceConfig.temperature", "inferenceConfig.topP"),
        turns=("messages", "system"),
        tool_names=_tool_names,
        turn_call_ids=_turn_call_ids,
        payload=_payload,
    ),
    rule_view=_rule_view,
)
