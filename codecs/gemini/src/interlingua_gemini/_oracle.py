"""The gemini oracle, for tests: bodies against google-genai's own types, the generateContent
rules that types miss, and the reader of its model-ruled settings.

The test kit imports this module (``interlingua.testing.validate_wire`` / ``check_rules`` find it
through ``GeminiCodec.oracle``); the SDK types load when a check first runs. google-genai's
models forbid extra keys and take snake_case and camelCase alike, as the REST API does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from interlingua.kit import table_check
from interlingua.testing import Oracle, RuleView, Sendable, objects, sdk_problems

from ._rules import RULES
from ._schema_dialects import DIALECTS, schemas_in

_REQUEST_KEYS = {
    "contents": ("list", "Content"),
    "systemInstruction": ("one", "Content"),
    "tools": ("list", "Tool"),
    "toolConfig": ("one", "ToolConfig"),
    "safetySettings": ("list", "SafetySetting"),
    "generationConfig": ("one", "GenerationConfig"),
    "cachedContent": ("one", str),
    "labels": ("one", dict[str, str]),
    "model": ("one", str),
}


def _request(body: Mapping[str, Any]) -> list[str]:
    """The REST body of generateContent: google-genai has no single type for it, so each
    top-level key is checked against the model the REST reference gives it."""
    from google.genai import types as genai

    problems = []
    for key, value in body.items():
        spec = _REQUEST_KEYS.get(key)
        if spec is None:
            problems.append(f"{key}: unknown key (not a generateContent request field)")
            continue
        shape, name = spec
        target = getattr(genai, name) if isinstance(name, str) else name
        problems.extend(sdk_problems(list[target] if shape == "list" else target, value, key))  # type: ignore[valid-type]
    if "contents" not in body:
        problems.append("contents: missing")
    return problems


def _response(body: Mapping[str, Any]) -> list[str]:
    from google.genai import types as genai

    return sdk_problems(genai.GenerateContentResponse, body)


def _error(body: Mapping[str, Any]) -> list[str]:
    """google.rpc.Status inside ``error``: code, message, status, details."""
    error = body.get("error")
    if not isinstance(error, Mapping):
        return ["error: expected an object"]
    problems = [f"{key}: unknown key" for key in body if key != "error"]
    expected = {"code": int, "message": str, "status": str, "details": list}
    for key, value in error.items():
        typ = expected.get(key)
        if typ is None:
            problems.append(f"error.{key}: unknown key (not in google.rpc.Status)")
        elif not isinstance(value, typ):
            problems.append(f"error.{key}: expected {typ.__name__}")
    problems.extend(f"error.{key}: missing" for key in ("code", "message") if key not in error)
    return problems


def _tool_names(body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return [
        (f"tools[{i}].functionDeclarations[{j}].name", declaration.get("name"))
        for i, tool in enumerate(objects(body.get("tools")))
        for j, declaration in enumerate(objects(tool.get("functionDeclarations")))
    ]


def _payload(value: Mapping[str, Any]) -> tuple[str, Any] | None:
    data = value.get("inlineData")
    return ("inlineData.data", data.get("data")) if isinstance(data, Mapping) else None


# --- the model-ruled settings, for the catalog's judge --------------------------------------------

_SAMPLING = {
    "temperature": "temperature",
    "topP": "top_p",
    "top_p": "top_p",
    "topK": "top_k",
    "top_k": "top_k",
    "presencePenalty": "presence_penalty",
    "presence_penalty": "presence_penalty",
    "frequencyPenalty": "frequency_penalty",
    "frequency_penalty": "frequency_penalty",
}


def _rule_view(body: Mapping[str, Any]) -> RuleView:
    config = body.get("generationConfig", body.get("generation_config"))
    config = config if isinstance(config, Mapping) else {}
    view = RuleView({neutral: config[key] for key, neutral in _SAMPLING.items() if config.get(key) is not None})
    view.max_output = config.get("maxOutputTokens", config.get("max_output_tokens"))
    thinking = config.get("thinkingConfig", config.get("thinking_config"))
    if not isinstance(thinking, Mapping):
        return view
    budget = thinking.get("thinkingBudget", thinking.get("thinking_budget"))
    level = thinking.get("thinkingLevel", thinking.get("thinking_level"))
    if isinstance(budget, int):
        view.budget, view.forms = budget, ["budget"]
    if isinstance(level, str):  # both forms at once is refused (https://ai.google.dev/gemini-api/docs/thinking)
        view.level = level.lower()
        view.forms.append("level")
    return view


ORACLE = Oracle(
    schemas=schemas_in,
    dialects=DIALECTS,
    checks={"request": _request, "response": _response, "stream_event": _response, "error": _error},
    rules=table_check(RULES),  # the rows of _rules.py, each with its source
    sendable=Sendable(
        # google-genai FunctionDeclaration.name: a letter or underscore first; then also dots,
        # colons and dashes; at most 128
        tool_name=re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}"),
        max_tokens=("generationConfig.maxOutputTokens",),
        sampling=tuple(f"generationConfig.{k}" for k in ("temperature", "topP", "presencePenalty", "frequencyPenalty")),
        turns=("contents",),
        tool_names=_tool_names,
        payload=_payload,
    ),
    rule_view=_rule_view,
)
