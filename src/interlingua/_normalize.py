"""Transcript normalization every encoder applies before it writes a vendor body (IR -> IR).

A transcript recorded on one vendor breaks another vendor's rules in a handful of known ways:
tool results that do not follow their calls, calls never answered, tool ids the target rejects,
empty text blocks, reasoning signed by someone else. Each codec declares what its API demands
(:class:`TurnRules`) and calls :func:`normalize_request`; the fixes live here, once.

What is lossless, and so reported by no warning (documented here and in the README):
- a tool id the target rejects is rewritten by :class:`ToolIds`, the same way for the call and
  its result, deterministically (the same id always maps to the same id) and reversibly (the codec
  that rewrote an id maps it back when it decodes);
- an empty text part with no echo and no cache mark is removed: it carries nothing.

What changes the transcript is reported, each at the path of the part in the request as given:
a result moved up to follow its call, an error result added for an unanswered call, an orphan
result turned into text, foreign reasoning dropped or turned into text. Warnings the codec raises
afterwards are re-pathed to the request as given, so every path points into the caller's request.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple, TypeAlias

from ._handles import Resolver, find_handles, resolve_handles, unresolved_handle
from ._message import Message, Role
from ._parts import ContentPart, RedactedThinking, Text, Thinking, ToolResult, ToolUse
from ._request import Request
from ._warnings import AnyWarning, Encoded, WarningSink
from ._wire import dumps

ReasoningPolicy: TypeAlias = Literal["drop", "as_text"]
"""What an encoder does with reasoning its vendor cannot take back (signed by another vendor):
``drop`` it with a LossyEncode (the default), or send its text ``as_text`` (also reported)."""

REASONING_POLICIES: tuple[ReasoningPolicy, ...] = ("drop", "as_text")

_ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


class ToolIds:
    """Deterministic, reversible tool call ids for APIs that restrict them.

    An id the target accepts passes unchanged (so recorded traffic round-trips exactly); any
    other id maps to ``prefix`` + a base-62 digest of it, the same id every time, so a call and
    its result still match. The instance remembers the mappings it made (bounded), so the codec
    that owns it gives the original ids back when it decodes a body it encoded.
    """

    __slots__ = ("_accept", "_alphabet", "_length", "_prefix", "_seen")

    _LIMIT = 8192

    def __init__(self, pattern: str, *, length: int, prefix: str = "", alphabet: str = _ALPHANUMERIC) -> None:
        self._accept = re.compile(pattern)
        self._alphabet = alphabet
        self._length = length
        self._prefix = prefix
        self._seen: dict[str, str] = {}
        probe = self.encode("\n")
        if not self.accepts(probe):
            raise ValueError(f"this id rule maps ids to ids its own pattern rejects ({probe!r} vs {pattern!r})")
        self._seen.clear()

    def accepts(self, tool_id: str) -> bool:
        return self._accept.fullmatch(tool_id) is not None

    def encode(self, tool_id: str) -> str:
        if self._accept.fullmatch(tool_id):
            return tool_id
        digest = int.from_bytes(hashlib.sha256(tool_id.encode()).digest(), "big")
        size = len(self._alphabet)
        chars = []
        for _ in range(self._length - len(self._prefix)):
            digest, rest = divmod(digest, size)
            chars.append(self._alphabet[rest])
        mapped = self._prefix + "".join(chars)
        if len(self._seen) >= self._LIMIT:
            self._seen.pop(next(iter(self._seen)))
        self._seen[mapped] = tool_id
        return mapped

    def decode(self, wire_id: str) -> str:
        return self._seen.get(wire_id, wire_id)

    def restore(self, request: Request) -> Request:
        """``request`` (decoded from a body this mapping encoded) with the caller's ids back on
        its calls and results; the same object when no id needs it."""
        seen = self._seen
        if not seen or not any(
            (isinstance(p, ToolUse) and p.id in seen) or (isinstance(p, ToolResult) and p.tool_use_id in seen)
            for m in request.messages
            for p in m.parts
        ):
            return request
        messages = [m.model_copy(update={"parts": [self._restore(p) for p in m.parts]}) for m in request.messages]
        return request.model_copy(update={"messages": messages})

    def _restore(self, part: ContentPart) -> ContentPart:
        if isinstance(part, ToolUse) and part.id in self._seen:
            return part.model_copy(update={"id": self._seen[part.id]})
        if isinstance(part, ToolResult) and part.tool_use_id in self._seen:
            return part.model_copy(update={"tool_use_id": self._seen[part.tool_use_id]})
        return part


class TurnRules:
    """What a target API demands of a transcript beyond its types (DESIGN.md invariant 3).

    ``tool_ids``: the target's id rule, or None when it takes any id. ``drop_empty_text``: the
    target rejects empty text blocks. ``one_results_message``: all results of a turn must sit in
    one message (some APIs count a turn's results against its calls). ``accepts_thinking``: whether a
    thinking or redacted-thinking part can go back to this target as reasoning; the rest is
    foreign and follows the :data:`ReasoningPolicy`. Every target gets its tool calls answered right after the assistant
    turn that made them, results first in their message: all four APIs answer 400 otherwise.
    """

    __slots__ = ("accepts_thinking", "drop_empty_text", "one_results_message", "tool_ids")

    # Plain slots, not a dataclass: a dataclass costs milliseconds at import (PERF.md).
    def __init__(
        self,
        accepts_thinking: Callable[[Thinking | RedactedThinking], bool],
        tool_ids: ToolIds | None = None,
        drop_empty_text: bool = False,
        one_results_message: bool = False,
    ) -> None:
        self.accepts_thinking = accepts_thinking
        self.tool_ids = tool_ids
        self.drop_empty_text = drop_empty_text
        self.one_results_message = one_results_message


class own_thinking:  # used like a function: TurnRules(accepts_thinking=own_thinking("acme"))
    """The usual test: reasoning carrying this provider's echo (a signature, an encrypted item).
    A class, not a closure, so codecs holding it still pickle (for process pools)."""

    __slots__ = ("provider",)

    def __init__(self, provider: str) -> None:
        self.provider = provider

    def __call__(self, part: Thinking | RedactedThinking) -> bool:
        return any(echo.provider == self.provider for echo in part.provider_echoes)


class unsigned_or_own_thinking:
    """For wires that take reasoning as plain text: anything but what another vendor signed."""

    __slots__ = ("provider",)

    def __init__(self, provider: str) -> None:
        self.provider = provider

    def __call__(self, part: Thinking | RedactedThinking) -> bool:
        own = any(echo.provider == self.provider for echo in part.provider_echoes)
        if isinstance(part, RedactedThinking):
            return own
        return own or not part.provider_echoes


def no_thinking(part: Thinking | RedactedThinking) -> bool:
    """For wires with no reasoning field at all."""
    return False


class Normalized(NamedTuple):
    """A request ready for a codec, its warnings, and where each of its parts came from."""

    request: Request
    warnings: list[AnyWarning]
    # Per message of the fixed request: the index it came from, and (when its parts changed)
    # each part's path in the request as given. None when nothing changed.
    origins: list[tuple[int, list[str] | None]] | None

    @property
    def changed(self) -> bool:
        return self.origins is not None


def normalize_request(request: Request, rules: TurnRules, *, codec: str, reasoning: ReasoningPolicy) -> Normalized:
    """Apply ``rules`` to ``request``. A request that already keeps them comes back as it is
    (the same object, no warnings): same-vendor round trips stay exact and cost one scan."""
    if reasoning not in REASONING_POLICIES:
        raise ValueError(f"reasoning must be one of {REASONING_POLICIES}, not {reasoning!r}")
    out = WarningSink(codec)
    fixer = _Fixer(request.messages, rules, reasoning, out)
    messages = fixer.run()
    if messages is None:
        return Normalized(request, [], None)
    return Normalized(request.model_copy(update={"messages": messages}), out.warnings, fixer.origins)


def finish_encode(normalized: Normalized, encoded: Encoded, *, codec: str, strict: bool) -> Encoded:
    """Merge the normalizer's warnings with the codec's (re-pathed to the request as given), then
    apply ``strict`` once over all of them. The codec must have encoded with ``strict=False``."""
    origins = normalized.origins or []
    warnings = _merge(normalized.warnings, [_repath(warning, origins) for warning in encoded.warnings])
    if strict and warnings:
        from ._errors import LossyEncodeError

        raise LossyEncodeError(codec, warnings)
    return Encoded(encoded.body, warnings)


_PATH = re.compile(r"messages\[(\d+)\](?:\.parts\[(\d+)\])?")


def _position(path: str) -> tuple[int, int] | None:
    found = _PATH.match(path)
    if not found:
        return None
    return int(found[1]), int(found[2]) if found[2] is not None else -1


def _merge(first: list[AnyWarning], then: list[AnyWarning]) -> list[AnyWarning]:
    """Both lists in one, the normalizer's warnings placed among the codec's in message order
    and before the settings' warnings, as if one encoder had walked the request."""
    merged = list(then)
    for warning in reversed(first):
        at = _position(warning.path)
        place = len(merged)
        if at is not None:
            for k, other in enumerate(merged):
                there = _position(other.path)
                if (there is not None and there > at) or (there is None and not other.path.startswith("tools")):
                    place = k
                    break
        merged.insert(place, warning)
    return merged


def _repath(warning: AnyWarning, origins: list[tuple[int, list[str] | None]]) -> AnyWarning:
    found = _PATH.match(warning.path)
    if not found or int(found[1]) >= len(origins):
        return warning
    source, parts = origins[int(found[1])]
    if found[2] is None or parts is None:
        head = f"messages[{source}]" + (f".parts[{found[2]}]" if found[2] is not None else "")
    elif int(found[2]) < len(parts):
        head = parts[int(found[2])]
    else:
        return warning
    if head == warning.path[: found.end()]:
        return warning
    return warning.model_copy(update={"path": head + warning.path[found.end() :]})


class _Slot:
    """A part on its way to the output, with the path it had in the request as given."""

    __slots__ = ("origin", "part", "was")

    def __init__(self, part: ContentPart, origin: str) -> None:
        self.part = part
        self.origin = origin
        self.was = part  # the part as the request had it


class _Fixer:
    """One pass over the messages; builds a new list only once something needs changing."""

    def __init__(self, messages: Sequence[Message], rules: TurnRules, reasoning: ReasoningPolicy, out: WarningSink):
        self.messages = messages
        self.rules = rules
        self.reasoning = reasoning
        self.out = out
        self.origins: list[tuple[int, list[str] | None]] = []

    def run(self) -> list[Message] | None:
        if self._keeps_rules():
            return None
        results = self._results_by_id()
        taken: set[tuple[int, int]] = set()  # results moved up to their call
        kept: set[tuple[int, int]] = set()  # results already right after their call
        rows: list[tuple[Message, list[_Slot] | None, int]] = []
        for i, message in enumerate(self.messages):
            if not self._needs_work(i, message, kept):
                rows.append((message, None, i))  # as it was: most messages, even in a repair
                calls = [
                    _Slot(p, f"messages[{i}].parts[{j}]") for j, p in enumerate(message.parts) if isinstance(p, ToolUse)
                ]
            else:
                slots = self._fix_message(i, message, taken, kept)
                if slots or not message.parts:
                    rows.append((message, slots, i))
                calls = [slot for slot in slots if isinstance(slot.part, ToolUse)]
            if message.role != "assistant" or not calls:
                continue
            run = _answer_run_at(self.messages, i + 1)
            if self._answered([_original_id(slot) for slot in calls], run):
                kept.update(run)
                continue
            answer, slots = self._answer(i, calls, results, taken | kept, taken, set(run))
            rows.append((answer, slots, i))
        return self._build(rows)

    def _needs_work(self, i: int, message: Message, kept: set[tuple[int, int]]) -> bool:
        return not all(
            self._fits(part, _KINDS.get(type(part)) or _kind_of(part), (i, j) in kept)
            for j, part in enumerate(message.parts)
        )

    def _fix_message(
        self, i: int, message: Message, taken: set[tuple[int, int]], kept: set[tuple[int, int]]
    ) -> list[_Slot]:
        slots: list[_Slot] = []
        for j, part in enumerate(message.parts):
            if (i, j) in taken:
                continue
            slot = self._fix_part(_Slot(part, f"messages[{i}].parts[{j}]"))
            if slot is not None and (i, j) not in kept:
                slot = self._orphan(slot)
            if slot is not None:
                slots.append(slot)
        return slots

    # -- the fast check -------------------------------------------------------------------

    def _keeps_rules(self) -> bool:
        """True when nothing needs changing: the common case, checked without building anything
        (one dispatch on the part's class, not a chain of isinstance over unions)."""
        messages = self.messages
        answered: set[str] = set()
        for i, message in enumerate(messages):
            calls: list[str] = []
            for part in message.parts:
                kind = _KINDS.get(type(part)) or _kind_of(part)
                placed = kind == _RESULT and part.tool_use_id in answered  # type: ignore[union-attr]  # a ToolResult
                if not self._fits(part, kind, placed):
                    return False
                if kind == _CALL:
                    calls.append(part.id)  # type: ignore[union-attr]  # a ToolUse
            if message.role == "assistant":
                if calls and not self._answered(calls, _answer_run_at(messages, i + 1)):
                    return False
                answered = set(calls)
        return True

    def _fits(self, part: ContentPart, kind: int, placed: bool) -> bool:
        """Whether one part can go as it is; ``placed``: a result already right after its call."""
        ids = self.rules.tool_ids
        if kind == _TEXT:
            return not self._empty(part)  # type: ignore[arg-type]  # kind says Text
        if kind == _CALL:
            return ids is None or ids.accepts(part.id)  # type: ignore[union-attr]  # a ToolUse
        if kind == _RESULT:
            return placed and (ids is None or ids.accepts(part.tool_use_id))  # type: ignore[union-attr]
        if kind == _REASONING:
            return self.rules.accepts_thinking(part)  # type: ignore[arg-type]  # Thinking or RedactedThinking
        return True

    def _answered(self, calls: list[str], run: list[tuple[int, int]]) -> bool:
        """Whether the run of results after a turn answers exactly its calls (in one message,
        where the target needs that)."""
        if self.rules.one_results_message and len({m for m, _ in run}) > 1:
            return False
        answers = []
        for m, p in run:
            part = self.messages[m].parts[p]
            assert isinstance(part, ToolResult)
            answers.append(part.tool_use_id)
        return sorted(answers) == sorted(calls)

    def _empty(self, part: Text) -> bool:
        return self.rules.drop_empty_text and not part.text and not part.provider_echoes and not part.citations

    # -- fixes, one per concern -----------------------------------------------------------

    def _fix_part(self, slot: _Slot) -> _Slot | None:
        part = slot.part
        if isinstance(part, (Thinking, RedactedThinking)) and not self.rules.accepts_thinking(part):
            return self._foreign_reasoning(slot)
        if isinstance(part, Text) and self._empty(part):
            if part.cache_control is not None:
                self.out.lossy(slot.origin, "cache_control", "an empty text block cannot be sent, nor its cache mark")
            return None
        ids = self.rules.tool_ids
        if ids is not None and isinstance(part, ToolUse) and not ids.accepts(part.id):
            slot.part = part.model_copy(update={"id": ids.encode(part.id)})
        elif ids is not None and isinstance(part, ToolResult) and not ids.accepts(part.tool_use_id):
            slot.part = part.model_copy(update={"tool_use_id": ids.encode(part.tool_use_id)})
        return slot

    def _foreign_reasoning(self, slot: _Slot) -> _Slot | None:
        part = slot.part
        assert isinstance(part, (Thinking, RedactedThinking))
        vendors = sorted({echo.provider for echo in part.provider_echoes}) or ["no vendor"]
        whose = f"reasoning signed by {', '.join(vendors)}"
        if self.reasoning == "as_text" and isinstance(part, Thinking) and part.text:
            self.out.lossy(slot.origin, part.type, f"{whose} sent as plain text", action="converted")
            slot.part = Text(text=part.text)
            return slot
        self.out.lossy(slot.origin, part.type, f"{whose} cannot be sent back to this vendor")
        return None

    def _orphan(self, slot: _Slot) -> _Slot:
        """A result whose call is not in the turn before it: the API would reject it, so it goes
        as text, labelled with the call it answers."""
        part = slot.part
        if not isinstance(part, ToolResult) or slot.origin.startswith("@"):
            return slot
        self.out.lossy(
            slot.origin, "tool_result", "a result with no call in the turn before is sent as text", action="converted"
        )
        slot.part = Text(text=f"[result of tool call {part.tool_use_id} ({part.name})]\n{_result_text(part)}")
        return slot

    def _answer(
        self,
        i: int,
        calls: list[_Slot],
        results: dict[str, list[tuple[int, int]]],
        used: set[tuple[int, int]],
        taken: set[tuple[int, int]],
        run: set[tuple[int, int]],
    ) -> tuple[Message, list[_Slot]]:
        """The results of the calls in message ``i``, gathered into one message right after it;
        an unanswered call gets an error result so the API accepts the turn."""
        answer: list[_Slot] = []
        role: Role = "tool"
        for call in calls:
            assert isinstance(call.part, ToolUse)
            found = [at for at in results.get(_original_id(call), ()) if at[0] > i and at not in used]
            if found:
                m, p = found[0]
                taken.add((m, p))
                used.add((m, p))
                origin = f"messages[{m}].parts[{p}]"
                result = self.messages[m].parts[p]
                assert isinstance(result, ToolResult)
                if not answer:
                    role = self.messages[m].role if self.messages[m].role in ("tool", "user") else "tool"
                if (m, p) not in run:  # already right after its call: not moved
                    self.out.lossy(origin, "tool_result", "moved up to follow its call", action="converted")
                fixed = self._fix_part(_Slot(result, origin))
                answer.append(_Slot(fixed.part if fixed else result, "@" + origin))
                continue
            self.out.lossy(
                call.origin,
                "tool_use",
                "no result was recorded for this call; an error result was added",
                action="converted",
            )
            # Said in the text, not with is_error: some wires have no error flag, and one loss
            # gets one warning.
            missing = "Error: no result was recorded for this call."
            stub = ToolResult(tool_use_id=call.part.id, name=call.part.name, content=missing)
            answer.append(_Slot(stub, "@" + call.origin))
        return Message(role=role, parts=[]), answer

    def _results_by_id(self) -> dict[str, list[tuple[int, int]]]:
        found: dict[str, list[tuple[int, int]]] = {}
        for i, message in enumerate(self.messages):
            if message.role == "assistant":
                continue
            for j, part in enumerate(message.parts):
                if isinstance(part, ToolResult):
                    found.setdefault(part.tool_use_id, []).append((i, j))
        return found

    def _build(self, rows: list[tuple[Message, list[_Slot] | None, int]]) -> list[Message]:
        messages: list[Message] = []
        for message, slots, source in rows:
            if slots is None:
                messages.append(message)
                self.origins.append((source, None))
                continue
            if not slots and message.parts:
                continue
            self.origins.append((source, [slot.origin.lstrip("@") for slot in slots]))
            parts = [slot.part for slot in slots]
            same = len(parts) == len(message.parts) and all(a is b for a, b in zip(parts, message.parts, strict=True))
            if same:
                messages.append(message)
                continue
            update: dict[str, object] = {"parts": parts}
            if message.role == "tool" and not any(isinstance(part, ToolResult) for part in parts):
                update["role"] = "user"  # its results became text: a tool message must hold results
            messages.append(message.model_copy(update=update))
        return messages


_OTHER, _TEXT, _CALL, _RESULT, _REASONING = range(1, 6)  # all truthy: 0 would read as "not cached"
_KINDS: dict[type, int] = {}


def _kind_of(part: ContentPart) -> int:
    """What the fast check needs to know of a part class, found once per class."""
    if isinstance(part, Text):
        kind = _TEXT
    elif isinstance(part, ToolUse):
        kind = _CALL
    elif isinstance(part, ToolResult):
        kind = _RESULT
    elif isinstance(part, (Thinking, RedactedThinking)):
        kind = _REASONING
    else:
        kind = _OTHER
    _KINDS[type(part)] = kind
    return kind


def _answer_run_at(messages: Sequence[Message], start: int) -> list[tuple[int, int]]:
    """Where the results that directly follow an assistant turn sit: the leading tool_result
    parts of the tool/user messages after it, up to the first message holding anything else."""
    found: list[tuple[int, int]] = []
    for m in range(start, len(messages)):
        message = messages[m]
        if message.role not in ("tool", "user"):
            break
        lead = 0
        for part in message.parts:
            if not isinstance(part, ToolResult):
                break
            found.append((m, lead))
            lead += 1
        if lead < len(message.parts) or lead == 0:
            break
    return found


def _original_id(slot: _Slot) -> str:
    """The call id as the request had it (a slot's part may carry the target's rewritten id)."""
    part = slot.was
    assert isinstance(part, ToolUse)
    return part.id


def _result_text(part: ToolResult) -> str:
    content = part.content
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        return dumps(content)
    return "\n".join(p.text if isinstance(p, Text) else f"[{p.type}]" for p in content)


def encode_with_rules(
    request: Request,
    rules: TurnRules,
    encode: Callable[[Request, bool], Encoded],
    *,
    codec: str,
    strict: bool,
    reasoning: ReasoningPolicy,
    resolve: Resolver | None = None,
) -> Encoded:
    """What a codec's ``encode_request`` does: resolve artifact handles (when given a
    resolver), normalize, then ``encode(request, strict)``.

    A request that already keeps the rules goes straight to ``encode``; otherwise the codec
    encodes the fixed request and every warning is reported against the request as given.
    Without a resolver, a handle is an ``EncodeError`` at its path, before any body is built."""
    if resolve is not None:
        request = resolve_handles(request, resolve, codec=codec)
    elif found := find_handles(request):
        raise unresolved_handle(codec, *found[0])
    ready = normalize_request(request, rules, codec=codec, reasoning=reasoning)
    if not ready.changed:
        return encode(request, strict)
    return finish_encode(ready, encode(ready.request, False), codec=codec, strict=strict)
