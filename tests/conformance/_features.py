"""What a request holds, as capability keys, and what each target is expected to do with it.

This is the one place that maps transcript contents to the rows of ``Capabilities`` (part types
and settings, ``src/interlingua/_codec.py``) and states the documented reasons a target may
depart from its declared row. The conformance tests read only this module to decide, for every
warning an encode gives, whether it is expected, allowed or a bug.

Each :class:`Feature` is one thing in the request with an IR path:

- every content part, at ``messages[i].parts[j]`` (parts inside a tool result's list content at
  ``messages[i].parts[j].content[k]``), keyed by its ``type``;
- a part's cache mark (``cache_control``; ``cache_control.tool_result`` for a part inside a tool
  result) and a text part's citations (``citations``), at the part's path;
- a ``system`` message before the conversation starts (``system``), a ``developer`` message
  (``developer``), a system or developer message after it started (``mid_conversation_system``),
  at ``messages[i]``;
- a message's ``name`` (``message_name``) and ``id`` (``message_id``), at ``messages[i].name`` /
  ``messages[i].id``;
- a tool result whose name is not the name of the call it answers (``tool_result.name``), at the
  result's path;
- every tool (``tools``, ``tool_strict`` when strict, ``cache_control`` when marked) or vendor
  tool (``native_tools``), at ``tools[i]``;
- every tool's JSON Schema (``json_schema``), at ``tools[i].input_schema``, and a json_schema
  response format's, at ``response_format.json_schema``: fitted to the target's schema dialect,
  so a warning is allowed, not required (``tests/test_schema_corpus.py`` holds each change);
- every other Request setting that is set, at its own name (``thinking``, ``top_k``, ...).

:func:`expectation` turns the target's declared row into ``native`` (no warning may name the
feature), ``lossy`` (at least one must) or ``either`` (a warning is allowed, not required),
applying these documented reasons, in order:

1. ``malformed-turn``: a tool result that answers no call of the assistant turn before it, a call
   never answered before the next assistant turn, and empty text parts may be repaired by turn
   normalization, with or without a warning (issue 8: "each change reported as a typed warning or
   documented as lossless").
2. ``rejected-tool-id``: a call or result whose id the target does not accept as is
   (:data:`TOOL_ID_RULES`) is rewritten, deterministically and reversibly; the rewrite may be
   reported (issue 8).
3. ``echo-from-another-model``: a part carrying the target's own echo recorded from a different
   model than the one addressed; each codec decides from its vendor's docs whether to replay it
   (DESIGN.md, ``ProviderEcho.model``).
4. ``own-reasoning``: thinking and redacted thinking carrying the target's own echo go back
   intact, without a warning, on codecs that replay their own reasoning
   (:data:`REPLAYS_OWN_REASONING`), even where the row says lossy for reasoning in general
   (issue 8: "a vendor's own signed thinking always goes back intact").
5. ``foreign-reasoning``: thinking and redacted thinking carrying only other vendors' echoes are
   dropped with a LossyEncode by default (issue 8, foreign reasoning policy).
6. ``unsigned-reasoning``: thinking without any echo cannot be replayed where the vendor checks a
   signature (:data:`NEEDS_OWN_SIGNATURE`); redacted thinking without the target's echo has
   nothing to send anywhere.
7. ``foreign-native``: a ``native`` part or a vendor tool of another provider is re-emitted only
   by its own provider's codec, LossyEncode everywhere else (DESIGN.md, ContentPart ``native``).
8. ``shared-openai-key``: openai-chat and openai-responses share the provider key ``openai``, so
   each meets the other's unmapped fields (``provider_options``), blocks (``native``) and tools;
   it sends what its own API takes and reports the rest (``_shared.py``, CHAT_ONLY_FIELDS and
   RESPONSES_ONLY_FIELDS). Its own options are ``either`` for a codec.
8b. ``foreign-option``: every key of another provider's options is reported by a ForeignOption
   (DESIGN.md invariant 2), except ``_`` private spelling records, a null (an absent field) and
   ``stream`` with its ``stream_options``, which the transport sets.
9. ``thinking-after-detour``: with thinking on, Anthropic needs the assistant turn before the
   latest tool results to start with a signed thinking block; otherwise thinking is turned off
   with a warning (DESIGN.md, invariant 3).
10. :data:`DOCUMENTED` lists the remaining per-codec departures, each quoting the codec's note.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import interlingua as il
from interlingua import (
    DETAILS,
    SETTINGS,
    Codec,
    ContentPart,
    Document,
    ForeignOption,
    LossyEncode,
    Message,
    NativeTool,
    Request,
    Text,
    TextSource,
    ToolResult,
    ToolUse,
    UnsupportedSetting,
    UrlSource,
)

from .conftest import CONFORMANCE

Expected = Literal["native", "lossy", "either"]

REQUEST_SETTINGS = tuple(name for name in SETTINGS if name in Request.model_fields and name != "tools")
"""Request fields that map one to one onto a SETTINGS row of the same name."""

REASONING = ("thinking", "redacted_thinking")

REPLAYS_OWN_REASONING = frozenset().union(*(data.replays_own_reasoning for data in CONFORMANCE.values()))
"""Targets (by :func:`target_key`) that send their own reasoning back (each codec's
``Conformance.replays_own_reasoning``, with its source: Anthropic signed thinking, Gemini thought
signatures, Responses reasoning items, ...)."""

NEEDS_OWN_SIGNATURE = frozenset().union(*(data.needs_own_signature for data in CONFORMANCE.values()))
"""Targets that replay only reasoning their vendor produced (``Conformance.needs_own_signature``).
Elsewhere unsigned reasoning text is native."""

TOOL_ID_RULES: dict[str, Callable[[str], bool]] = {
    key: rule for data in CONFORMANCE.values() for key, rule in data.tool_ids.items()
}
"""Tool call ids each target accepts unchanged (DESIGN.md invariant 3; ``Conformance.tool_ids``,
the host's rules, each with its source). A target that declares none takes every id."""

DOCUMENTED: dict[tuple[str, str], tuple[Callable[[Request, Feature], bool], Expected, str]] = {
    key: (departure.applies, departure.expected, departure.note)
    for data in CONFORMANCE.values()
    for key, departure in data.documented.items()
}
"""(target, key) -> (applies to this request and feature?, expectation, the note it rests on):
each codec's ``Conformance.documented``."""


@dataclass(frozen=True)
class Feature:
    """One capability row the request exercises, and where (an IR path)."""

    key: str
    path: str
    part: Any = None  # the ContentPart, NativeTool or Tool behind it (an option: its value), when there is one
    malformed: bool = False

    @property
    def is_setting(self) -> bool:
        return not self.path.startswith(("messages[", "tools[", "provider_options."))


def target_key(codec: Codec) -> str:
    """The name :data:`TOOL_ID_RULES` and friends use: the codec's provider (a dialect's for a
    dialect), or the wire name where installed codecs share that provider key (openai-chat and
    openai-responses share ``openai``)."""
    return codec.name if codec.provider in _SHARED_PROVIDERS else codec.provider


_SHARED_PROVIDERS = frozenset(
    provider
    for provider in {il.get_codec(name).provider for name in il.codecs()}
    if sum(il.get_codec(name).provider == provider for name in il.codecs()) > 1
)


# --- request -> features -----------------------------------------------------------------------


def features(request: Request) -> list[Feature]:
    """Every capability row ``request`` exercises (see the module docstring)."""
    found: list[Feature] = []
    orphans, unanswered = _malformed_tool_parts(request.messages)
    called: dict[str, str] = {}  # call id -> the name of its latest call
    started = False
    for i, message in enumerate(request.messages):
        at = f"messages[{i}]"
        if message.role in ("system", "developer"):
            if message.role == "developer":
                found.append(Feature("developer", at))
            if started:
                found.append(Feature("mid_conversation_system", at))
            elif message.role == "system":
                found.append(Feature("system", at))
        else:
            started = True
        if message.name is not None:
            found.append(Feature("message_name", f"{at}.name"))
        if message.id is not None:
            found.append(Feature("message_id", f"{at}.id"))
        for j, part in enumerate(message.parts):
            found.extend(_part_features(part, f"{at}.parts[{j}]", orphans | unanswered))
            if isinstance(part, ToolUse):
                called[part.id] = part.name
            elif isinstance(part, ToolResult) and called.get(part.tool_use_id, part.name) != part.name:
                malformed = part.tool_use_id in orphans | unanswered
                found.append(Feature("tool_result.name", f"{at}.parts[{j}]", part, malformed))
    for i, tool in enumerate(request.tools):
        at = f"tools[{i}]"
        if isinstance(tool, NativeTool):
            found.append(Feature("native_tools", at, tool))
            continue
        found.append(Feature("tools", at, tool))
        found.append(Feature("json_schema", f"{at}.input_schema", tool))
        if tool.strict:
            found.append(Feature("tool_strict", at, tool))
        if tool.cache_control is not None:
            found.append(Feature("cache_control", at, tool))
    for name in REQUEST_SETTINGS:
        if getattr(request, name) is not None:
            found.append(Feature(name, name))
    if request.thinking is not None and request.thinking.summary:
        found.append(Feature("thinking.summary", "thinking"))
    fmt = request.response_format
    if fmt is not None and fmt.type == "json_schema":
        found.append(Feature("json_schema", "response_format.json_schema"))
        found.extend(
            Feature(f"response_format.{name}", "response_format")
            for name, value in (("name", fmt.name), ("description", fmt.description), ("strict", fmt.strict))
            if value is not None and value is not True
        )
    for provider, options in request.provider_options.items():
        found.extend(Feature("provider_options", f"provider_options.{provider}.{k}", v) for k, v in options.items())
    return found


def _part_features(
    part: ContentPart, at: str, malformed_ids: set[str], *, inner: bool = False
) -> Iterator[Feature]:
    malformed = (isinstance(part, Text) and not part.text) or (
        isinstance(part, ToolUse | ToolResult) and _tool_id(part) in malformed_ids
    )
    yield Feature(part.type, at, part, malformed)
    for detail in _details(part):
        yield Feature(detail, at, part, malformed)
    if getattr(part, "cache_control", None) is not None:
        yield Feature("cache_control.tool_result" if inner else "cache_control", at, part)
    if isinstance(part, Text) and part.citations:
        yield Feature("citations", at, part)
    if isinstance(part, ToolResult) and isinstance(part.content, list):
        for k, inner_part in enumerate(part.content):
            yield from _part_features(inner_part, f"{at}.content[{k}]", set(), inner=True)


def _details(part: ContentPart) -> Iterator[str]:
    """The finer rows (``interlingua.DETAILS``) a part exercises."""
    if isinstance(part, ToolResult):
        if isinstance(part.content, dict):
            yield "tool_result.json"
        if part.is_error:
            yield "tool_result.error"
        if isinstance(part.content, list) and any(not isinstance(p, Text) for p in part.content):
            yield "tool_result.media"
    if isinstance(part, Document):
        if isinstance(part.source, TextSource):
            yield "document.text"
        if isinstance(part.source, UrlSource):
            yield "document.url"


def _tool_id(part: ToolUse | ToolResult) -> str:
    return part.id if isinstance(part, ToolUse) else part.tool_use_id


def _malformed_tool_parts(messages: Sequence[Message]) -> tuple[set[str], set[str]]:
    """(ids of results answering no call of the assistant turn before them, ids of calls not
    answered before the next assistant turn). Calls in the last assistant turn of a transcript
    that ends there are pending, not unanswered."""
    orphans: set[str] = set()
    unanswered: set[str] = set()
    open_calls: set[str] = set()
    last_calls: set[str] = set()
    for message in messages:
        if message.role == "assistant":
            unanswered |= open_calls
            last_calls = {p.id for p in message.parts if isinstance(p, ToolUse)}
            open_calls = set(last_calls)
            continue
        for part in message.parts:
            if isinstance(part, ToolResult):
                if part.tool_use_id in last_calls:
                    open_calls.discard(part.tool_use_id)
                else:
                    orphans.add(part.tool_use_id)
        if message.role == "user" and any(not isinstance(p, ToolResult) for p in message.parts):
            unanswered |= open_calls
            open_calls = set()
            last_calls = set()
    if messages and messages[-1].role != "assistant":
        unanswered |= open_calls
    return orphans, unanswered


# --- feature -> expectation --------------------------------------------------------------------


def expectation(codec: Codec, request: Request, feature: Feature) -> tuple[Expected, str]:
    """What ``codec`` should do with ``feature`` of ``request``: the expectation and its reason
    (``declared`` when the capabilities row decides)."""
    target = target_key(codec)
    part = feature.part
    if feature.key == "json_schema":  # fitted to the target's dialect; tests/test_schema_corpus.py holds each change
        return "either", "schema-dialect"
    if feature.key == "provider_options":
        provider, _, key = feature.path.removeprefix("provider_options.").partition(".")
        transport = key in ("stream", "stream_options")
        if provider != codec.provider and not key.startswith("_") and not transport and part is not None:
            return "lossy", "foreign-option"
        return "either", "shared-openai-key"
    if target != codec.provider and feature.key in ("native", "native_tools") and part.provider == codec.provider:
        return "either", "shared-openai-key"  # a provider key several wires share: each sends what its API takes
    if feature.key in DETAILS:
        if feature.malformed:
            return "either", "malformed-turn"
        if feature.key == "tool_result.name" and target == "openai-responses" and part.echo("openai") is not None:
            return "either", "own-result-name"  # sent where the decoded item had one (see its note)
        setting = feature.is_setting or feature.key == "cache_control.tool_result"  # a setting's detail
        return codec.capabilities.detail(feature.key, setting=setting), "declared"
    is_part = feature.path.startswith("messages[") and getattr(part, "type", None) == feature.key
    # "thinking" is both a part type and a setting: a part reads the parts table, the rest settings
    rows = codec.capabilities.parts if is_part else codec.capabilities.settings
    declared: Expected = rows[feature.key]
    if feature.malformed:
        return "either", "malformed-turn"
    if is_part and isinstance(part, ToolUse | ToolResult) and not TOOL_ID_RULES.get(target, _ANY)(_tool_id(part)):
        return "either", "rejected-tool-id"
    own = part.echo(codec.provider) if is_part else None
    if own is not None and own.model is not None and not _same_model(own.model, request.model):
        return "either", "echo-from-another-model"
    if is_part and feature.key in REASONING:
        if own is not None:
            if target in REPLAYS_OWN_REASONING:
                return "native", "own-reasoning"
            return declared, "declared"
        if part.provider_echoes:
            return "lossy", "foreign-reasoning"
        if feature.key == "redacted_thinking" or target in NEEDS_OWN_SIGNATURE:
            return "lossy", "unsigned-reasoning"
    if is_part and feature.key == "native" and part.provider != codec.provider:
        return "lossy", "foreign-native"
    if feature.key == "native_tools" and isinstance(part, NativeTool) and part.provider != codec.provider:
        return "lossy", "foreign-native"
    if target == "anthropic" and feature.key == "thinking" and _thinking_after_detour(request):
        return "lossy", "thinking-after-detour"
    if feature.is_setting and feature.key in _MODEL_RULED and _in_catalog(codec, request.model):
        return "either", "model-catalog"  # the target model's rules decide (tests in each codec's test_models)
    documented = DOCUMENTED.get((target, feature.key))
    if documented is not None and documented[0](request, feature):
        return documented[1], documented[2]
    return declared, "declared"


def _ANY(tool_id: str) -> bool:
    return True


_MODEL_RULED = frozenset(
    {"thinking", "temperature", "top_p", "top_k", "max_tokens", "presence_penalty", "frequency_penalty", "tool_choice"}
)


def _in_catalog(codec: Codec, model: str | None) -> bool:
    from interlingua import models

    return model is not None and models.find(codec.provider, model) is not None


def _same_model(recorded: str, addressed: str | None) -> bool:
    """A dated snapshot or a ``models/`` prefix names the same model."""
    if addressed is None:
        return True
    a, b = recorded.removeprefix("models/"), addressed.removeprefix("models/")
    return a == b or a.startswith(b + "-") or b.startswith(a + "-")


def _thinking_after_detour(request: Request) -> bool:
    """Thinking is on, the request ends with tool results, and the assistant turn before them
    does not start with Anthropic-signed thinking (or redacted thinking)."""
    if request.thinking is None or request.thinking.level == "off" or not request.messages:
        return False
    last = request.messages[-1]
    if last.role not in ("user", "tool") or not any(isinstance(p, ToolResult) for p in last.parts):
        return False
    before = next((m for m in reversed(request.messages[:-1]) if m.role == "assistant"), None)
    if before is None or not before.parts:
        return True
    first = before.parts[0]
    echo = first.echo("anthropic")
    if first.type == "thinking":
        return echo is None or not isinstance(echo.data.get("signature"), str)
    if first.type == "redacted_thinking":
        return echo is None
    return True


# --- warnings -> features ----------------------------------------------------------------------


def warning_key(warning: Any) -> str:
    if isinstance(warning, LossyEncode):
        return warning.part_type
    if isinstance(warning, UnsupportedSetting):
        return warning.setting
    if isinstance(warning, ForeignOption):
        return "provider_options"
    return ""


def names(warning: Any, feature: Feature) -> bool:
    """Whether ``warning`` is about ``feature``: the same capability key, and (for a part, a
    message or a tool) a path at or under the feature's path."""
    path: str = warning.path
    if feature.key in DETAILS:  # a finer row: any warning about the part (or setting) it refines
        if feature.is_setting:
            return warning_key(warning) == feature.key.partition(".")[0] and not path.startswith(
                ("messages[", "tools[")
            )
        return path == feature.path or path.startswith(feature.path + ".") or path.startswith(feature.path + "[")
    if warning_key(warning) != feature.key:
        return False
    if feature.is_setting:
        return not path.startswith(("messages[", "tools["))
    return path == feature.path or path.startswith(feature.path + ".") or path.startswith(feature.path + "[")


def judge(codec: Codec, request: Request, warnings: Sequence[Any]) -> list[str]:
    """Disagreements between ``warnings`` and the expectations: a warning naming only native
    features, a warning naming nothing in the request, a lossy feature nobody warned about."""
    found = features(request)
    expected = {id(f): expectation(codec, request, f) for f in found}
    problems: list[str] = []
    for warning in warnings:
        named = [f for f in found if names(warning, f)]
        if not named:
            problems.append(f"unexplained warning [{warning_key(warning)}] {warning}")
        elif all(expected[id(f)][0] == "native" for f in named):
            problems.append(f"warned about native {named[0].key} [{expected[id(named[0])][1]}]: {warning}")
    for feature in found:
        kind, reason = expected[id(feature)]
        if kind == "lossy" and not any(names(w, feature) for w in warnings):
            problems.append(f"silent loss: {feature.key} at {feature.path} is lossy [{reason}] but nothing warned")
    return problems
