"""The SDK oracle: a wire body checked against the vendor SDK's own types, and the vendor rules
that types miss. For tests only; it imports the vendor SDKs (slow, and never on a runtime path).

Why not a plain ``TypeAdapter(...).validate_python(body)``: pydantic validates the SDKs'
``Iterable[...]`` fields lazily (a bogus block passes until someone iterates), and TypedDicts
ignore keys they do not declare. ``validate_wire`` forces every lazy iterable and walks the body
against the declared types itself to report every undeclared key. The SDKs' response models allow
extra keys, so the same walk reports those too; google-genai's models forbid them already.

Anthropic request, response and stream bodies pass when they fit either the GA types or the beta
types (what the SDK sends with an ``anthropic-beta`` header).
"""

from __future__ import annotations

import collections.abc
import functools
import math
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import typing_extensions
from pydantic import BaseModel, TypeAdapter, ValidationError

from .._read import join
from ._sdk_types import sdk_fields
from ._sdk_types import unwrap as _unwrap

Kind = Literal["request", "response", "stream_event", "error"]
WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini")
_MAX_SHOWN = 12


# --- the public entry points ----------------------------------------------------------------


def validate_wire(wire: str, kind: Kind, body: Any) -> list[str]:
    """Problems found checking ``body`` (a plain JSON value) against the SDK types of ``wire``'s
    ``kind``: ``["messages[0].content[1].bogus: unknown key", ...]``; ``[]`` when it is valid."""
    checks = _CHECKS.get(wire)
    if checks is None:
        raise ValueError(f"no oracle for wire {wire!r}; known: {', '.join(WIRES)}")
    check = checks.get(kind)
    if check is None:
        raise ValueError(f"unknown kind {kind!r}; known: request, response, stream_event, error")
    if not isinstance(body, Mapping):
        return [f"body: expected an object, got {type(body).__name__}"]
    return check(body)


def check_rules(wire: str, body: Mapping[str, Any], *, model: str | None = None) -> list[str]:
    """Vendor rules a request body must keep beyond its types (DESIGN.md invariant 3): what the
    API answers 400 to although the body type-checks. ``model`` narrows model-specific rules
    (Gemini 3's signature rule applies when the model is unknown or a Gemini 3 model), and the
    model catalog's rules for ``model`` (default: the body's own) apply (``check_model_rules``)."""
    rules = _RULES.get(wire)
    if rules is None:
        raise ValueError(f"no rules for wire {wire!r}; known: {', '.join(WIRES)}")
    from ._model_rules import check_model_rules

    return rules(body, model) + check_model_rules(wire, body, model)


# --- validation through pydantic, with lazy iterables forced --------------------------------


@functools.cache
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def _validate(target: Any, body: Any, at: str = "") -> list[str]:
    """Type errors (pydantic, lazy iterables forced) plus undeclared keys (our own walk)."""
    problems: list[str] = []
    try:
        value = _adapter(target).validate_python(body)
    except ValidationError as error:
        problems.extend(_format(error, at, body))
    else:
        _force(value, body, at, problems)
    problems.extend(_unknown_keys(target, body, at))
    return problems


def _format(error: ValidationError, at: str, value: Any = None) -> list[str]:
    """Readable problems from a ValidationError: union member tags (``list[union[...]]``,
    ``TextBlockParam``) are dropped from paths, errors of union members whose ``type`` literal
    does not match the block are left out, and undeclared keys are left to the walk."""
    cleaned: list[tuple[tuple[str, ...], str, bool]] = []
    for detail in error.errors(include_url=False):
        if detail["type"] == "extra_forbidden":
            continue
        path, tags, current = at, [], value
        loc = detail["loc"]
        for position, key in enumerate(loc):
            if isinstance(key, int):
                path = join(path, key)
                current = current[key] if isinstance(current, list) and key < len(current) else None
            elif isinstance(current, Mapping) and key in current:
                path, current = join(path, key), current[key]
            elif position == len(loc) - 1 or not _looks_like_tag(key):
                path, current = join(path, key), None
            else:
                tags.append(f"{path}:{key}")
        wrong_member = detail["type"] == "literal_error" and loc[-1:] == ("type",) and bool(tags)
        cleaned.append((tuple(tags), f"{path or 'body'}: {detail['msg']}", wrong_member))
    mismatched = {tags for tags, _, wrong in cleaned if wrong}
    kept = [line for tags, line, _ in cleaned if not any(tags[: len(bad)] == bad for bad in mismatched)]
    kept = kept or [line for _, line, _ in cleaned]
    # "Input should be a valid string" from the str arm of a str-or-list union says nothing when
    # the list arm has found the real problem.
    specific = [line for line in kept if not _is_wrong_shape(line)]
    kept = specific or kept
    return list(dict.fromkeys(kept))[:_MAX_SHOWN]


def _is_wrong_shape(line: str) -> bool:
    return any(
        line.endswith(f"Input should be a valid {shape}")
        for shape in ("string", "list", "dictionary", "integer", "number", "boolean", "array")
    )


def _looks_like_tag(key: str) -> bool:
    """pydantic names union members in error paths by type: ``TextBlockParam``, ``list[...]``,
    ``str``, ``function-after[...]``."""
    return key[:1].isupper() or "[" in key or key in ("str", "int", "float", "bool", "none", "dict", "list")


def _force(value: Any, source: Any, at: str, problems: list[str]) -> None:
    """Iterate every lazy ``ValidatorIterator`` pydantic left in a validated value; ``source`` is
    the matching part of the input, for readable paths."""
    if isinstance(value, dict):
        for key, item in value.items():
            inner = source.get(key) if isinstance(source, Mapping) else None
            _force(item, inner, join(at, str(key)), problems)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            inner = source[index] if isinstance(source, list) and index < len(source) else None
            _force(item, inner, join(at, index), problems)
    elif type(value).__name__ == "ValidatorIterator":
        items: list[Any] = []
        try:
            for item in value:
                items.append(item)
        except ValidationError as error:
            problems.extend(_format(error, at, source))
        for index, item in enumerate(items):
            inner = source[index] if isinstance(source, list) and index < len(source) else None
            _force(item, inner, join(at, index), problems)


# --- the undeclared-key walk ------------------------------------------------------------------

_LISTS = (list, collections.abc.Iterable, collections.abc.Sequence, collections.abc.Collection)
_MAPS = (dict, collections.abc.Mapping)


def _oracle_fields(cls: type) -> dict[str, Any]:
    return sdk_fields(cls, by_name=True)


def _is_record(annotation: Any) -> bool:
    if typing_extensions.is_typeddict(annotation):  # the SDKs use typing_extensions' TypedDict
        return True
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _unknown_keys(annotation: Any, value: Any, at: str) -> list[str]:
    annotation = _unwrap(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return _unknown_in_union(typing.get_args(annotation), value, at)
    if isinstance(value, Mapping) and _is_record(annotation):
        return _unknown_in_record(annotation, value, at)
    if isinstance(value, Mapping) and (origin in _MAPS):
        args = typing.get_args(annotation)
        if len(args) == 2:
            return [p for key, item in value.items() for p in _unknown_keys(args[1], item, join(at, str(key)))]
    if isinstance(value, list) and (origin in _LISTS or getattr(origin, "__name__", "") == "SequenceNotStr"):
        args = typing.get_args(annotation)
        if args:
            return [p for index, item in enumerate(value) for p in _unknown_keys(args[0], item, join(at, index))]
    return []


def _unknown_in_record(cls: Any, value: Mapping[str, Any], at: str) -> list[str]:
    fields = _oracle_fields(cls)
    problems = []
    for key, item in value.items():
        if key not in fields:
            problems.append(f"{join(at, key)}: unknown key (not in {cls.__name__})")
        else:
            problems.extend(_unknown_keys(fields[key], item, join(at, key)))
    return problems


def _unknown_in_union(members: Sequence[Any], value: Any, at: str) -> list[str]:
    """The problems of the best-fitting member: one whose ``type`` literal matches first, then the
    one with fewest undeclared keys."""
    candidates = [m for m in (_unwrap(m) for m in members) if _could_hold(m, value)]
    for tag in ("type", "role"):
        if isinstance(value, Mapping) and tag in value:
            typed = [m for m in candidates if _record_tag_matches(m, tag, value[tag])]
            if typed:  # plain mappings (a JSON schema's ``dict[str, object]``) stay candidates
                candidates = typed + [m for m in candidates if not _is_record(m)]
    best: list[str] | None = None
    for member in candidates:
        problems = _unknown_keys(member, value, at)
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


def _could_hold(annotation: Any, value: Any) -> bool:
    origin = typing.get_origin(annotation)
    if isinstance(value, Mapping):
        return _is_record(annotation) or origin in _MAPS or origin in (typing.Union, types.UnionType)
    if isinstance(value, list):
        return (
            origin in _LISTS
            or getattr(origin, "__name__", "") == "SequenceNotStr"
            or origin
            in (
                typing.Union,
                types.UnionType,
            )
        )
    return False


def _record_tag_matches(annotation: Any, key: str, tag: Any) -> bool:
    if not _is_record(annotation):
        return False
    field = _oracle_fields(annotation).get(key)
    if field is None:
        return False
    field = _unwrap(field)
    return typing.get_origin(field) is Literal and tag in typing.get_args(field)


# --- per wire ---------------------------------------------------------------------------------


def _either(*targets: Callable[[], Any]) -> Callable[[Any], list[str]]:
    """Valid when the body fits any one target; otherwise the problems of the closest fit."""

    def check(body: Any) -> list[str]:
        return _closest(_validate(target(), body) for target in targets)

    return check


def _closest(attempts: Iterable[list[str]]) -> list[str]:
    best: list[str] | None = None
    for problems in attempts:
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


def _anthropic_request(beta: bool) -> Callable[[], Any]:
    def target() -> Any:
        if beta:
            from anthropic.types.beta import message_create_params as params
        else:
            from anthropic.types import message_create_params as params  # type: ignore[no-redef]
        return _RequestTarget(params.MessageCreateParamsNonStreaming, params.MessageCreateParamsStreaming)

    return target


class _RequestTarget:
    """Streaming and non-streaming params differ only in ``stream``; pick by the body."""

    def __init__(self, plain: Any, streaming: Any) -> None:
        self.plain, self.streaming = plain, streaming


def _request_check(
    *targets: Callable[[], _RequestTarget], legacy: Mapping[str, type | tuple[type, ...]] | None = None
) -> Callable[[Any], list[str]]:
    """``legacy``: top-level fields the API still takes (for older models) that the installed SDK
    no longer declares; checked for their JSON type here, then left out of the SDK check."""

    def check(body: Any) -> list[str]:
        problems = []
        if legacy:
            for key, typ in legacy.items():
                if key in body and (isinstance(body[key], bool) or not isinstance(body[key], typ)):
                    problems.append(f"{key}: expected a number")
            body = {key: value for key, value in body.items() if key not in legacy}

        def attempt(pair: _RequestTarget) -> list[str]:
            return _validate(pair.streaming if body.get("stream") else pair.plain, body)

        return problems + _closest(attempt(target()) for target in targets)

    return check


# anthropic 2.12 dropped the sampling fields from its params (Opus 4.7 and later refuse them);
# the API still takes them for earlier models, and the recorded requests carry them.
_ANTHROPIC_SAMPLING: dict[str, type | tuple[type, ...]] = {
    "temperature": (int, float),
    "top_p": (int, float),
    "top_k": int,
}


def _anthropic_event(beta: bool) -> Callable[[], Any]:
    def target() -> Any:
        from anthropic.types.shared import ErrorResponse

        if beta:
            from anthropic.types.beta import BetaRawMessageStreamEvent as Event
        else:
            from anthropic.types import RawMessageStreamEvent as Event
        return typing.Union[Event, _Ping, ErrorResponse]  # noqa: UP007  # Event is an Annotated alias

    return target


class _Ping(BaseModel):
    """Anthropic's keep-alive event, which the SDK skips and declares no type for."""

    model_config = {"extra": "forbid"}
    type: Literal["ping"]


def _openai(module: str, name: str) -> Callable[[], Any]:
    def target() -> Any:
        import importlib

        return getattr(importlib.import_module(module), name)

    return target


def _openai_request(module: str, plain: str, streaming: str) -> Callable[[], _RequestTarget]:
    def target() -> _RequestTarget:
        import importlib

        found = importlib.import_module(module)
        return _RequestTarget(getattr(found, plain), getattr(found, streaming))

    return target


def _openai_error(body: Mapping[str, Any]) -> list[str]:
    from openai.types.shared import ErrorObject

    if set(body) != {"error"}:
        return [f"{key}: unknown key (an OpenAI error body holds only 'error')" for key in body if key != "error"] or [
            "error: missing"
        ]
    return _validate(ErrorObject, body["error"], "error")


_GEMINI_REQUEST_KEYS = {
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


def _gemini_request(body: Mapping[str, Any]) -> list[str]:
    """The REST body of generateContent: google-genai has no single type for it, so each
    top-level key is checked against the model the REST reference gives it."""
    from google.genai import types as genai

    problems = []
    for key, value in body.items():
        spec = _GEMINI_REQUEST_KEYS.get(key)
        if spec is None:
            problems.append(f"{key}: unknown key (not a generateContent request field)")
            continue
        shape, name = spec
        target = getattr(genai, name) if isinstance(name, str) else name
        problems.extend(_validate(list[target] if shape == "list" else target, value, key))  # type: ignore[valid-type]
    if "contents" not in body:
        problems.append("contents: missing")
    return problems


def _gemini_response(body: Mapping[str, Any]) -> list[str]:
    from google.genai import types as genai

    return _validate(genai.GenerateContentResponse, body)


def _gemini_error(body: Mapping[str, Any]) -> list[str]:
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


_CHECKS: dict[str, dict[str, Callable[[Any], list[str]]]] = {
    "anthropic-messages": {
        "request": _request_check(_anthropic_request(False), _anthropic_request(True), legacy=_ANTHROPIC_SAMPLING),
        "response": _either(_openai("anthropic.types", "Message"), _openai("anthropic.types.beta", "BetaMessage")),
        "stream_event": _either(_anthropic_event(False), _anthropic_event(True)),
        "error": _either(_openai("anthropic.types.shared", "ErrorResponse")),
    },
    "openai-chat": {
        "request": _request_check(
            _openai_request(
                "openai.types.chat.completion_create_params",
                "CompletionCreateParamsNonStreaming",
                "CompletionCreateParamsStreaming",
            )
        ),
        "response": _either(_openai("openai.types.chat", "ChatCompletion")),
        "stream_event": _either(_openai("openai.types.chat", "ChatCompletionChunk")),
        "error": _openai_error,
    },
    "openai-responses": {
        "request": _request_check(
            _openai_request(
                "openai.types.responses.response_create_params",
                "ResponseCreateParamsNonStreaming",
                "ResponseCreateParamsStreaming",
            )
        ),
        "response": _either(_openai("openai.types.responses", "Response")),
        "stream_event": _either(_openai("openai.types.responses", "ResponseStreamEvent")),
        "error": _openai_error,
    },
    "gemini": {
        "request": _gemini_request,
        "response": _gemini_response,
        "stream_event": _gemini_response,
        "error": _gemini_error,
    },
}


# --- vendor rules beyond types ----------------------------------------------------------------

_ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


def _blocks(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = message.get("content")
    if isinstance(content, list):
        return [block for block in content if isinstance(block, Mapping)]
    return []


def _anthropic_rules(body: Mapping[str, Any], model: str | None) -> list[str]:
    problems: list[str] = []
    messages = [m for m in body.get("messages") or [] if isinstance(m, Mapping)]
    problems += _anthropic_tool_pairs(messages)
    problems += _anthropic_thinking_rules(body, messages)
    problems += _anthropic_cache_rules(body, messages)
    return problems


def _anthropic_tool_pairs(messages: list[Mapping[str, Any]]) -> list[str]:
    """Every tool_use is answered by tool_result blocks at the start of the next user message,
    and every tool_result answers a tool_use of the assistant message just before it."""
    problems = []
    for index, message in enumerate(messages):
        at = f"messages[{index}]"
        blocks = _blocks(message)
        for position, block in enumerate(blocks):
            if block.get("type") == "tool_use" and not _ANTHROPIC_ID.match(str(block.get("id", ""))):
                problems.append(f"{at}.content[{position}].id: must match [a-zA-Z0-9_-]+")
        if message.get("role") == "assistant":
            calls = [b.get("id") for b in blocks if b.get("type") == "tool_use"]
            if not calls:
                continue
            following = _blocks(messages[index + 1]) if index + 1 < len(messages) else None
            if following is None:
                continue  # the last turn: the caller is about to run the tools
            leading = []
            for block in following:
                if block.get("type") != "tool_result":
                    break
                leading.append(block.get("tool_use_id"))
            missing = [call for call in calls if call not in leading]
            if missing:
                problems.append(f"messages[{index + 1}]: tool_use ids {missing} not answered by leading tool_results")
        else:
            before = messages[index - 1] if index > 0 else {}
            previous = _blocks(before) if before.get("role") == "assistant" else []
            asked = {b.get("id") for b in previous if b.get("type") == "tool_use"}
            for position, block in enumerate(blocks):
                if block.get("type") == "tool_result" and block.get("tool_use_id") not in asked:
                    problems.append(f"{at}.content[{position}]: tool_result answers no tool_use of the turn before")
    return problems


def _anthropic_thinking_rules(body: Mapping[str, Any], messages: list[Mapping[str, Any]]) -> list[str]:
    problems = []
    thinking_kinds = ("thinking", "redacted_thinking")
    for index, message in enumerate(messages):
        blocks = _blocks(message)
        if message.get("role") == "assistant" and any(b.get("type") in thinking_kinds for b in blocks):
            first_other = next((i for i, b in enumerate(blocks) if b.get("type") not in thinking_kinds), len(blocks))
            if any(b.get("type") in thinking_kinds for b in blocks[first_other:]):
                problems.append(f"messages[{index}]: thinking blocks must come first in the assistant turn")
    thinking = body.get("thinking")
    if not isinstance(thinking, Mapping) or thinking.get("type") not in ("enabled", "adaptive"):
        return problems
    budget, max_tokens = thinking.get("budget_tokens"), body.get("max_tokens")
    if isinstance(budget, int) and isinstance(max_tokens, int) and budget >= max_tokens:
        problems.append(f"thinking.budget_tokens: {budget} must be below max_tokens {max_tokens}")
    if (
        messages
        and messages[-1].get("role") == "user"
        and any(b.get("type") == "tool_result" for b in _blocks(messages[-1]))
    ):
        before = messages[-2] if len(messages) > 1 else {}
        first = next(iter(_blocks(before)), {})
        kind = first.get("type")
        signed = (kind == "thinking" and first.get("signature")) or kind == "redacted_thinking"
        if not signed:
            problems.append(
                f"messages[{len(messages) - 2}]: with thinking on, the assistant turn before the latest "
                "tool results must start with a signed thinking block"
            )
    return problems


def _anthropic_cache_rules(body: Mapping[str, Any], messages: list[Mapping[str, Any]]) -> list[str]:
    """At most 4 breakpoints; in the order tools, system, messages a 1h mark never follows 5m."""
    marks: list[tuple[str, str]] = []
    for index, tool in enumerate(body.get("tools") or []):
        if isinstance(tool, Mapping) and isinstance(tool.get("cache_control"), Mapping):
            marks.append((f"tools[{index}]", tool["cache_control"].get("ttl", "5m")))
    system = body.get("system")
    for index, block in enumerate(system if isinstance(system, list) else []):
        if isinstance(block, Mapping) and isinstance(block.get("cache_control"), Mapping):
            marks.append((f"system[{index}]", block["cache_control"].get("ttl", "5m")))
    for index, message in enumerate(messages):
        for position, block in enumerate(_blocks(message)):
            if isinstance(block.get("cache_control"), Mapping):
                marks.append((f"messages[{index}].content[{position}]", block["cache_control"].get("ttl", "5m")))
    problems = []
    if len(marks) > 4:
        problems.append(f"cache_control: {len(marks)} breakpoints, at most 4 allowed")
    seen_short = False
    for at, ttl in marks:
        if ttl == "1h" and seen_short:
            problems.append(f"{at}.cache_control: a 1h breakpoint must not follow a 5m one")
        seen_short = seen_short or ttl != "1h"
    return problems


def _openai_chat_rules(body: Mapping[str, Any], model: str | None) -> list[str]:
    """Tool messages come straight after the assistant message that called them, every call is
    answered before the next non-tool message, and call ids are at most 40 characters."""
    problems: list[str] = []
    messages = [m for m in body.get("messages") or [] if isinstance(m, Mapping)]
    pending: list[Any] = []
    open_at = -1
    for index, message in enumerate(messages):
        role = message.get("role")
        if role == "tool":
            call = message.get("tool_call_id")
            if call in pending:
                pending.remove(call)
            else:
                problems.append(f"messages[{index}]: tool message answers no pending tool call ({call!r})")
            continue
        if pending:
            problems.append(f"messages[{open_at}]: tool calls {pending} not answered before messages[{index}]")
        pending = []
        calls = message.get("tool_calls") if role == "assistant" else None
        for position, call in enumerate(calls if isinstance(calls, list) else []):
            call_id = call.get("id") if isinstance(call, Mapping) else None
            if isinstance(call_id, str) and len(call_id) > 40:
                problems.append(f"messages[{index}].tool_calls[{position}].id: longer than 40 characters")
            pending.append(call_id)
            open_at = index
    return problems


def _openai_responses_rules(body: Mapping[str, Any], model: str | None) -> list[str]:
    """Outputs follow their calls (unless the calls live in a stored previous response), call ids
    are at most 64 characters, and a reasoning item is followed by the item it produced."""
    items = body.get("input")
    if not isinstance(items, list):
        return []
    problems: list[str] = []
    called: set[Any] = set()
    stateful = body.get("previous_response_id") is not None
    items = [item if isinstance(item, Mapping) else {} for item in items]
    for index, item in enumerate(items):
        kind = item.get("type")
        call_id = item.get("call_id")
        if isinstance(call_id, str) and len(call_id) > 64:
            problems.append(f"input[{index}].call_id: longer than 64 characters")
        if kind is not None and kind.endswith("_call") and call_id is not None:
            called.add(call_id)
        elif kind is not None and kind.endswith("_call_output") and call_id not in called and not stateful:
            problems.append(f"input[{index}]: {kind} for call {call_id!r} that no earlier item made")
        if kind == "reasoning":
            following = items[index + 1] if index + 1 < len(items) else None
            if following is None or following.get("type") in (None, "reasoning") or following.get("role") == "user":
                problems.append(f"input[{index}]: a reasoning item must be followed by the item it produced")
    return problems


def _gemini_rules(body: Mapping[str, Any], model: str | None) -> list[str]:
    """As many functionResponse parts as the model turn before made functionCalls; and (Gemini 3)
    the first functionCall of each model step in the current turn carries a thoughtSignature."""
    problems: list[str] = []
    contents = [c if isinstance(c, Mapping) else {} for c in body.get("contents") or []]

    def parts(content: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        found = content.get("parts")
        return [p for p in found if isinstance(p, Mapping)] if isinstance(found, list) else []

    for index, content in enumerate(contents):
        answers = sum(1 for p in parts(content) if "functionResponse" in p)
        if not answers:
            continue
        before = contents[index - 1] if index > 0 else {}
        calls = sum(1 for p in parts(before) if "functionCall" in p) if before.get("role") == "model" else 0
        if answers != calls:
            problems.append(f"contents[{index}]: {answers} functionResponse parts answer {calls} functionCall parts")
    # Gemini 3 Pro Image "doesn't enforce this validation"
    # (https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures).
    if model is not None and ("gemini-3" not in model or "-image" in model):
        return problems
    turn_start = 0
    for index, content in enumerate(contents):
        if content.get("role") != "model" and any("functionResponse" not in p for p in parts(content)):
            turn_start = index + 1
    for index in range(turn_start, len(contents)):
        content = contents[index]
        if content.get("role") != "model":
            continue
        first_call = next((p for p in parts(content) if "functionCall" in p), None)
        if first_call is not None and not first_call.get("thoughtSignature"):
            problems.append(
                f"contents[{index}]: the first functionCall of a current-turn step needs a thoughtSignature (Gemini 3)"
            )
    return problems


# --- what no vendor takes, whatever the turn rules (interlingua._sendable refuses it) ----------

_TOOL_NAME = {
    # https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use
    "anthropic-messages": re.compile(r"[a-zA-Z0-9_-]{1,64}"),
    # openai FunctionDefinition.name: a-z, A-Z, 0-9, underscores and dashes, at most 64
    "openai-chat": re.compile(r"[a-zA-Z0-9_-]{1,64}"),
    "openai-responses": re.compile(r"[a-zA-Z0-9_-]{1,64}"),
    # google-genai FunctionDeclaration.name: a letter or underscore first; then also dots,
    # colons and dashes; at most 128
    "gemini": re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}"),
}
_MAX_TOKENS = {
    "anthropic-messages": ("max_tokens",),
    "openai-chat": ("max_completion_tokens", "max_tokens"),
    "openai-responses": ("max_output_tokens",),
    "gemini": ("generationConfig.maxOutputTokens",),
}
_SAMPLING = ("temperature", "top_p", "presence_penalty", "frequency_penalty")
_GEMINI_SAMPLING = ("temperature", "topP", "presencePenalty", "frequencyPenalty")
_BASE64_TEXT = re.compile(r"[A-Za-z0-9+/=_\-\r\n]*")


def _sendable_rules(wire: str, body: Mapping[str, Any]) -> list[str]:
    """An empty model, a negative token limit, a NaN or infinite setting, a tool name outside
    the vendor's pattern, an empty or repeated call id in one turn, base64 data that is not."""
    problems: list[str] = []
    if body.get("model") == "":
        problems.append("model: empty")
    for key in _MAX_TOKENS[wire]:
        value = _dig(body, key)
        if isinstance(value, int | float) and value < 0:
            problems.append(f"{key}: {value} is negative")
    for key in (f"generationConfig.{k}" for k in _GEMINI_SAMPLING) if wire == "gemini" else _SAMPLING:
        value = _dig(body, key)
        if isinstance(value, float) and not math.isfinite(value):
            problems.append(f"{key}: {value} is not a JSON number")
    pattern = _TOOL_NAME[wire]
    for at, name in _tool_names(wire, body):
        if not isinstance(name, str) or pattern.fullmatch(name) is None:
            problems.append(f"{at}: {name!r} does not match {pattern.pattern}")
    for at, ids in _turn_call_ids(wire, body):
        seen: set[Any] = set()
        for position, call_id in ids:
            if call_id == "" and wire != "openai-chat":  # OpenAI-compatible servers (Gemini's) send and take them
                problems.append(f"{at}[{position}]: empty tool call id")
            elif call_id in seen:
                problems.append(f"{at}[{position}]: tool call id {call_id!r} used twice in one turn")
            seen.add(call_id)
    for at, data in _base64_data(wire, body):
        if not isinstance(data, str) or _BASE64_TEXT.fullmatch(data) is None:
            problems.append(f"{at}: not base64 data")
    return problems


def _dig(body: Mapping[str, Any], dotted: str) -> Any:
    value: Any = body
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def _items(value: Any) -> list[Mapping[str, Any]]:
    return [v if isinstance(v, Mapping) else {} for v in value] if isinstance(value, list) else []


def _tool_names(wire: str, body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    found = []
    for i, tool in enumerate(_items(body.get("tools"))):
        if wire == "anthropic-messages" and tool.get("type") in (None, "custom"):
            found.append((f"tools[{i}].name", tool.get("name")))
        elif wire == "openai-chat" and tool.get("type") == "function":
            found.append((f"tools[{i}].function.name", _dig(tool, "function.name")))
        elif wire == "openai-responses" and tool.get("type") == "function":
            found.append((f"tools[{i}].name", tool.get("name")))
        elif wire == "gemini":
            for j, declaration in enumerate(_items(tool.get("functionDeclarations"))):
                found.append((f"tools[{i}].functionDeclarations[{j}].name", declaration.get("name")))
    return found


def _turn_call_ids(wire: str, body: Mapping[str, Any]) -> list[tuple[str, list[tuple[int, Any]]]]:
    """(path of the turn's calls, [(position, id)]) per assistant turn; Gemini ids are optional
    and matched by name, so it has none here."""
    turns: list[tuple[str, list[tuple[int, Any]]]] = []
    calls: list[tuple[int, Any]] = []
    if wire == "anthropic-messages":
        for i, message in enumerate(_items(body.get("messages"))):
            uses = [(j, b.get("id")) for j, b in enumerate(_blocks(message)) if b.get("type") == "tool_use"]
            turns.append((f"messages[{i}].content", uses))
    elif wire == "openai-chat":
        for i, message in enumerate(_items(body.get("messages"))):
            turns.append(
                (
                    f"messages[{i}].tool_calls",
                    [(j, c.get("id")) for j, c in enumerate(_items(message.get("tool_calls")))],
                )
            )
    elif wire == "openai-responses":  # a turn's calls run until an output or a user item
        for j, item in enumerate(_items(body.get("input"))):
            kind = item.get("type")
            if item.get("role") == "user" or (isinstance(kind, str) and kind.endswith("_output")):
                turns.append(("input", calls))
                calls = []
            elif kind == "function_call":
                calls.append((j, item.get("call_id")))
        turns.append(("input", calls))
    return turns


def _base64_data(wire: str, body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """(path, data) of every base64 payload in the turns, data URLs cut to their data."""
    found: list[tuple[str, Any]] = []

    def walk(value: Any, at: str) -> None:
        if isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{at}[{i}]")
        elif isinstance(value, Mapping):
            source = value.get("source")
            if wire == "anthropic-messages" and isinstance(source, Mapping) and source.get("type") == "base64":
                found.append((f"{at}.source.data", source.get("data")))
            if wire == "gemini" and isinstance(value.get("inlineData"), Mapping):
                found.append((f"{at}.inlineData.data", value["inlineData"].get("data")))
            for key, item in value.items():
                if isinstance(item, str) and item.startswith("data:") and ";base64," in item[:100]:
                    found.append((f"{at}.{key}", item.partition(",")[2]))
                elif isinstance(item, list | Mapping) and key != "source":
                    walk(item, f"{at}.{key}" if at else key)

    walk({k: body.get(k) for k in ("messages", "input", "contents", "system") if k in body}, "")
    return found


def _with_sendable(
    wire: str, rules: Callable[[Mapping[str, Any], str | None], list[str]]
) -> Callable[[Mapping[str, Any], str | None], list[str]]:
    return lambda body, model: rules(body, model) + _sendable_rules(wire, body)


_RULES: dict[str, Callable[[Mapping[str, Any], str | None], list[str]]] = {
    "anthropic-messages": _with_sendable("anthropic-messages", _anthropic_rules),
    "openai-chat": _with_sendable("openai-chat", _openai_chat_rules),
    "openai-responses": _with_sendable("openai-responses", _openai_responses_rules),
    "gemini": _with_sendable("gemini", _gemini_rules),
}
