"""Transcript normalization every encoder applies before it writes a vendor body (IR -> IR).

A transcript recorded on one vendor breaks another vendor's rules in a handful of known ways:
tool results that do not follow their calls, calls never answered, tool ids the target rejects,
empty text blocks, reasoning signed by someone else. Each codec declares what its API demands
(:class:`TurnRules`) and calls :func:`normalize_request`; the fixes live here, once.

What is lossless, and so reported by no warning (documented here and in docs/guide/switching-vendors.md):
- a tool id the target rejects is rewritten by :class:`ToolIds`, the same way for the call and
  its result, deterministically (the same id always maps to the same id) and reversibly (any
  decoder, in any process, reads the original back from an encoded id; a digest, where no
  encoding fits the target's rule, is mapped back by the codec that made it);
- a tool name the target refuses is escaped (``_tool_names``), and every decoder reads it back;
- where the target refuses blank text, a text part that is empty or only whitespace is removed:
  it carries nothing (its echoes were for that block). A cache mark on it moves to the part
  before it, which ends the same cached prefix; with no such part the mark is reported, as
  citations on it are.

What changes the transcript is reported, each at the path of the part in the request as given:
a result moved up to follow its call, an error result added for an unanswered call, an orphan
result turned into text, foreign reasoning dropped or turned into text. Warnings the codec raises
afterwards are re-pathed to the request as given, so every path points into the caller's request.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from typing import Any, Literal, NamedTuple, TypeAlias, assert_never

from ._handles import Resolver, find_handles, holds_handle, resolve_handles, unresolved_handle
from ._message import Message, Role
from ._model import construct, replace
from ._parts import (
    Audio,
    AudioOutput,
    ContentPart,
    Document,
    HandleSource,
    Image,
    ImageOutput,
    Native,
    RedactedThinking,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    Video,
)
from ._request import Request
from ._rules import RuleTable
from ._sendable import MEDIA_TYPES, PartChecks, refuse_unsendable
from ._tool_ids import ToolIds
from ._tool_names import ToolNames, send_names, send_part_names
from ._warnings import AnyWarning, Encoded, LossyEncode, WarningSink
from ._wire import dumps

ReasoningPolicy: TypeAlias = Literal["drop", "as_text"]
"""What an encoder does with reasoning its vendor cannot take back (signed by another vendor):
``drop`` it with a LossyEncode (the default), or send its text ``as_text`` (also reported)."""

REASONING_POLICIES: tuple[ReasoningPolicy, ...] = ("drop", "as_text")


class TurnRules:
    """What a target API demands of a transcript beyond its types (DESIGN.md invariant 3).

    ``tool_ids``: the target's id rule, or None when it takes any id. ``drop_empty_text``: the
    target rejects blank text blocks (empty, or only whitespace). ``one_results_message``: all
    results of a turn must sit in one message (some APIs count a turn's results against its
    calls). ``accepts_thinking``: whether a thinking or redacted-thinking part can go back to this
    target as reasoning; the rest is foreign and follows the :data:`ReasoningPolicy`. Every
    target gets its tool calls answered right after the assistant turn that made them, results
    first in their message: all four APIs answer 400 otherwise.
    ``joins_turns``: the target reads consecutive assistant messages as one turn, so the results
    after the last of them answer the calls of all (an API that combines consecutive same-role
    turns; one that does not wants each call's results right after its own message).
    ``joins_results``: under ``one_results_message``, the codec's writer puts the results of
    consecutive ``tool`` messages in one wire message itself (as a chat log sends one tool
    message per result), so such a run counts as one message when its results come in the
    order of the calls, as the repair would gather them; the repair runs otherwise.
    ``stored_turns``: the transcript continues one the server stores (a request that names a
    stored response or conversation), so the results before its first assistant message answer
    calls the server holds: they stay where they are. ``with_stored_turns()`` gives these rules so.
    ``tool_names``: the pattern the target holds tool names to (a name outside it goes out in a
    form it takes and is read back as given, see ``_tool_names``; one still outside it is an
    ``EncodeError``, see ``_sendable``); None when it takes any; ``names`` maps them.
    ``result_names``: whether the target's results carry a name of their own: ``True`` (every
    result), ``False`` (none: they answer a call by its id alone), or a test of one result (a
    wire whose result name is optional and sent only where its decoder found one); a result
    whose name is not its call's and does not go is reported (see :func:`misnamed_results`).
    ``table``: the rows of the codec's rule table (``interlingua.kit.Rule``), each with its
    source, that these settings and the codec's encoder keep.
    """

    __slots__ = (
        "accepts_thinking",
        "drop_empty_text",
        "joins_results",
        "joins_turns",
        "names",
        "one_results_message",
        "result_names",
        "stored_turns",
        "table",
        "tool_ids",
        "tool_names",
        "verdicts",
    )

    # Plain slots, not a dataclass: a dataclass costs milliseconds at import (PERF.md).
    def __init__(
        self,
        accepts_thinking: Callable[[Thinking | RedactedThinking], bool],
        tool_ids: ToolIds | None = None,
        drop_empty_text: bool = False,
        one_results_message: bool = False,
        tool_names: str | None = None,
        result_names: bool | Callable[[ToolResult], bool] = False,
        table: RuleTable = (),
        joins_turns: bool = False,
        stored_turns: bool = False,
        joins_results: bool = False,
    ) -> None:
        self.accepts_thinking = accepts_thinking
        self.joins_results = joins_results
        self.table = table
        self.joins_turns = joins_turns
        self.stored_turns = stored_turns
        self.result_names = result_names
        self.tool_ids = tool_ids
        self.drop_empty_text = drop_empty_text
        self.one_results_message = one_results_message
        self.names = None if tool_names is None else ToolNames(tool_names)
        self.tool_names = None if self.names is None else self.names.pattern
        # Each part class's verdict under these rules, found once (see ``_verdict_of``).
        self.verdicts: dict[type, _Verdict] = {}

    def with_stored_turns(self) -> TurnRules:
        """These rules for a transcript that continues one the server stores (``stored_turns``)."""
        rules = TurnRules(
            self.accepts_thinking,
            tool_ids=self.tool_ids,
            drop_empty_text=self.drop_empty_text,
            one_results_message=self.one_results_message,
            result_names=self.result_names,
            table=self.table,
            joins_turns=self.joins_turns,
            stored_turns=True,
            joins_results=self.joins_results,
        )
        rules.tool_names = self.tool_names
        rules.names = self.names
        return rules


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
    (the same object, no warnings): same-vendor round trips stay exact and cost one scan. An
    artifact handle is an ``EncodeError`` at its path: resolve handles first (``resolve_handles``)."""
    _check_policy(reasoning)
    return _normalized(request, rules, keeps_rules(request.messages, rules), codec=codec, reasoning=reasoning)


def _check_policy(reasoning: ReasoningPolicy) -> None:
    if reasoning not in REASONING_POLICIES:
        raise ValueError(f"reasoning must be one of {REASONING_POLICIES}, not {reasoning!r}")


def _normalized(
    request: Request, rules: TurnRules, keeps: bool, *, codec: str, reasoning: ReasoningPolicy
) -> Normalized:
    """``normalize_request`` once the walk has given its verdict (``keeps``)."""
    if keeps:
        return Normalized(request, [], None)
    # The walk stops at a handle, but also at the first part needing a fix, before any handle
    # after it: look for one before doing the repair.
    if found := find_handles(request):
        raise unresolved_handle(codec, *found[0])
    out = WarningSink(codec)
    fixer = _Fixer(request.messages, rules, reasoning, out)
    return Normalized(replace(request, messages=fixer.repair()), out.warnings, fixer.origins)


def finish_encode(normalized: Normalized, encoded: Encoded, *, codec: str, strict: bool) -> Encoded:
    """Merge the normalizer's warnings with the codec's (re-pathed to the request as given), then
    apply ``strict`` once over all of them. The codec must have encoded with ``strict=False``."""
    origins = normalized.origins or []
    warnings = _merge(normalized.warnings, [_repath(warning, origins) for warning in encoded.warnings])
    if strict and warnings:
        from ._warnings import LossyEncodeError

        raise LossyEncodeError(codec, warnings)
    return Encoded(encoded.body, warnings, encoded.notes)


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
    places = [_position(warning.path) for warning in merged]  # each path read once
    for warning in reversed(first):
        at = _position(warning.path)
        place = len(merged)
        if at is not None:
            for k, there in enumerate(places):
                if (there is not None and there > at) or (there is None and not merged[k].path.startswith("tools")):
                    place = k
                    break
        merged.insert(place, warning)
        places.insert(place, at)
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


def keeps_rules(messages: Sequence[Message], rules: TurnRules) -> bool:
    """Whether nothing in ``messages`` needs changing: the common case, judged in one walk that
    builds nothing (``_walk``, the verdict the repair asks of each message too)."""
    return _walk(messages, rules)


Record: TypeAlias = list[tuple[list[str] | None, int, list[int] | None]]
"""Per message, what ``_walk`` found: the ids of its calls (None when a part needs a fix or a
result does not lead it), how many results lead it, and which of its parts need a fix (None
when none does). The repair reads it: the check's verdict is the repair's."""


def _walk(
    messages: Sequence[Message], rules: TurnRules, checks: PartChecks | None = None, record: Record | None = None
) -> bool:
    """The one verdict of the turn rules, in one walk of the transcript. A call fits when the
    target takes its id; a result when it also holds no artifact handle, and only where it
    leads a tool or user message (nowhere else can a result follow its call); any other part
    by its class's verdict (``_verdict_of``, found once per class). The results that lead the
    messages after an assistant turn (the run ``_answer_run_at`` finds) are gathered as the walk
    passes them and compared with its calls where the run ends, as the repair compares them.
    Under ``joins_turns`` consecutive assistant messages are one turn: their calls are compared
    with the run after the last of them (``_joined_at``), as the API compares them.

    ``checks``: the part checks of ``refuse_unsendable``, made in the same walk (an encode walks
    the transcript once), which also gathers the names on calls and results (``send_part_names``)
    and the echoes that mark a key unmapped (``WarningSink.unmapped_marked``); ``record``: the
    verdict of each message and part, for the repair. Either walks every message; alone, the
    walk stops at the first thing that needs a fix. Each message is two steps: its parts
    (``_walk_parts``), then its place in the turns (``_Turns.add``).

    Written for the passing case, which every encode pays: a text or native part costs a type,
    two identity tests and a dict lookup; a message is read as two values and a part for what
    its verdict needs, each once (an attribute of an IR model is a slow read); no ``enumerate``
    (its tuples cost more than the counters); paths spelled out only for an error."""
    stop = checks is None and record is None
    turns = _Turns(rules)
    i = -1
    for message in messages:
        i += 1
        role = message.role
        parts = message.parts
        if checks is not None and message.provider_echoes:
            checks.echoed(message, i)
        found = _walk_parts(parts, role, i, rules, turns.answers, checks, stop)
        if found is None:  # alone, the walk stops at the first part that needs a fix
            return False
        calls, took, leading, fits, misfits = found
        if checks is not None and calls is not None and len(calls) > 1:
            checks.turn(parts, i)
        if record is not None:
            record.append(((calls or []) if fits else None, took, misfits))
        if not turns.add(role, calls, took, leading, fits) and stop:
            return False
    return turns.end()


_Found: TypeAlias = tuple[list[str] | None, int, bool, bool, list[int] | None]
"""What ``_walk_parts`` found in a message: its calls' ids, how many results lead it, whether
results are all it holds, whether all its parts fit, and which of them need a fix."""


def _walk_parts(
    parts: Sequence[ContentPart],
    role: str,
    i: int,
    rules: TurnRules,
    answers: list[str],
    checks: PartChecks | None,
    stop: bool,
) -> _Found | None:
    """The parts of the ``i``-th message, each held to its verdict (None: ``stop`` and one needs a
    fix); the ids of its results are added to ``answers``. See ``_walk`` for the costs."""
    verdicts = rules.verdicts
    accepts = None if rules.tool_ids is None else rules.tool_ids.accepts
    leading = role == "tool" or role == "user"  # still among the results that lead the message
    calls: list[str] | None = None
    took = 0  # the results that lead it
    fits = True
    misfits: list[int] | None = None  # the parts that need a fix
    j = -1
    for part in parts:
        j += 1
        kind = type(part)
        if checks is not None and part.provider_echoes:
            checks.echoed(part, i, j)
        if kind is ToolResult:
            tool_id = part.tool_use_id  # type: ignore[union-attr]  # kind says ToolResult
            content = part.content  # type: ignore[union-attr]  # as above
            if checks is not None:
                checks.result(i, j, tool_id, content, part.name)  # type: ignore[union-attr,arg-type]  # as above
            if (type(content) is list and holds_handle(content)) or (accepts is not None and not accepts(tool_id)):
                if stop:
                    return None
                fits, misfits = False, _add(misfits, j)
            elif not leading:
                if stop:
                    return None
                fits = False
            answers.append(tool_id)
            took += 1
            continue
        if kind is ToolUse:
            call_id = part.id  # type: ignore[union-attr]  # kind says ToolUse
            if checks is not None:
                checks.call(call_id, part.name)  # type: ignore[union-attr,arg-type]  # as above
            if accepts is not None and not accepts(call_id):
                if stop:
                    return None
                fits, misfits = False, _add(misfits, j)
            if calls is None:
                calls = [call_id]
            else:
                calls.append(call_id)
        else:
            try:
                verdict = verdicts[kind]
            except KeyError:
                verdict = _verdict_of(part, rules)
            if verdict is not _always:
                if not verdict(part, rules):
                    if stop:
                        return None
                    fits, misfits = False, _add(misfits, j)
                if checks is not None and kind in MEDIA_TYPES:
                    checks.media(part, i, j)
        leading = False
    return calls, took, leading, fits, misfits


class _Turns:
    """The turn part of ``_walk``'s verdict: the calls of the turn whose results are being read,
    the results gathered for them (``answers``, from ``holders`` messages), and whether the
    transcript still keeps the rules."""

    __slots__ = ("answers", "expected", "holders", "joined", "joins", "keeps", "one_message", "stored", "tools")

    def __init__(self, rules: TurnRules) -> None:
        # Under ``joins_results`` the writer makes one message of a run of tool messages: the
        # run counts as one holder (``tools``: the last holder was a tool message; ``joined``:
        # one was joined to it, so the results must come in the calls' order).
        self.one_message = rules.one_results_message
        self.tools: bool | None = False if rules.one_results_message and rules.joins_results else None
        self.joined = False
        self.joins = rules.joins_turns
        self.stored = rules.stored_turns  # until the first assistant message: results answer stored calls
        self.keeps = True
        self.expected: list[str] | None = None
        self.answers: list[str] = []
        self.holders = 0

    def add(self, role: str, calls: list[str] | None, took: int, leading: bool, fits: bool) -> bool:
        """The next message (its role, calls, the results that lead it): whether all still keeps."""
        if not fits:
            self.keeps = False
        if not self.keeps:
            return False
        expected = self.expected
        if expected is not None:
            if self.joins and role == "assistant" and not self.answers and not self.holders:
                if calls is not None:  # the same turn, to the API: its calls join the turn's
                    self.expected = expected + calls
                return True
            if took and leading:
                self._hold(role)
                return True  # results only: the run goes on
            if took:
                self._hold(role)
            if not self._answered(expected):
                self.keeps = False
                return False
            self.expected = None
            if role == "tool" or role == "user":
                return True
        elif took and not self.stored:
            self.keeps = False  # results after no calls: orphans
            return False
        if role == "assistant":
            self.stored = False
            if calls is not None:
                self.expected, self.answers, self.holders = calls, [], 0
                if self.tools is not None:
                    self.tools = self.joined = False
        return True

    def _hold(self, role: str) -> None:
        """One more message holding results of the run (joined to the last under ``joins_results``)."""
        tools = self.tools
        if tools is None:
            self.holders += 1
            return
        if tools and role == "tool":
            self.joined = True
        else:
            self.holders += 1
        self.tools = role == "tool"

    def _answered(self, expected: list[str]) -> bool:
        """Whether the run gathered answers ``expected``, the calls of its turn."""
        if self.joined:
            return self.holders == 1 and self.answers == expected
        return _answers_calls(expected, self.answers, self.holders, self.one_message)

    def end(self) -> bool:
        """The verdict once every message is read: the last turn's calls answered too."""
        expected = self.expected
        if expected is None:
            return self.keeps
        return self.keeps and self._answered(expected)


def _add(found: list[int] | None, j: int) -> list[int]:
    """``found`` with ``j`` added (the list made at the first)."""
    if found is None:
        return [j]
    found.append(j)
    return found


_Verdict: TypeAlias = Callable[[Any, TurnRules], bool]
"""The verdict of one part class (``Any``: each takes the class it is found for)."""


def _verdict_of(part: ContentPart, rules: TurnRules) -> _Verdict:
    """The verdict function of ``part``'s class under ``rules``, found by one ``match`` once per
    class (a class pattern that misses costs a metaclass ``__instancecheck__``, too much for
    every part of every encode): ``_always`` where these rules turn no part of the class down and
    the walk has nothing to note of it (no call, result or media), so it need not call it."""
    verdict: _Verdict
    match part:
        case Text():
            verdict = _text_fits if rules.drop_empty_text else _always
        case ToolUse() | ToolResult():
            verdict = _always  # the walk judges calls and results itself: their ids, their place
        case Thinking() | RedactedThinking():
            verdict = _reasoning_fits
        case Image() | Audio() | Video() | Document() | ImageOutput() | AudioOutput():
            verdict = _media_fits
        case Native():
            verdict = _always  # carried verbatim; whether it goes is its codec's to say
        case _:
            assert_never(part)
    rules.verdicts[type(part)] = verdict
    return verdict


def _always(part: ContentPart, rules: TurnRules) -> bool:
    """A part of a class these rules never turn down and the walk need not look at again."""
    return True


def _text_fits(part: Text, rules: TurnRules) -> bool:
    """For rules that drop empty text: text fits unless it is blank (no characters but
    whitespace). Nothing on it keeps it, the target refuses the block: its echoes go with it,
    and the repair reports a cache mark or citations."""
    return bool(part.text) and not part.text.isspace()


def _reasoning_fits(part: Thinking | RedactedThinking, rules: TurnRules) -> bool:
    return rules.accepts_thinking(part)


def _media_fits(part: Image | Audio | Video | Document | ImageOutput | AudioOutput, rules: TurnRules) -> bool:
    return type(part.source) is not HandleSource


def _answers_calls(calls: Sequence[str], answers: list[str], holders: int, one_message: bool) -> bool:
    """Whether ``answers`` (from ``holders`` messages) answer exactly ``calls``, in any order
    and, where the target needs that, in one message."""
    if (holders > 1 and one_message) or len(answers) != len(calls):
        return False
    return answers == calls or sorted(answers) == sorted(calls)


def _run_answers(
    messages: Sequence[Message], run: list[tuple[int, int]], calls: list[str], answers: list[str], rules: TurnRules
) -> bool:
    """Whether the results of ``run`` (their ids ``answers``) answer ``calls``, as ``_Turns``
    judges it: under ``joins_results`` a tool message after a tool message is joined to it."""
    holders = sorted({m for m, _ in run})
    if not (rules.one_results_message and rules.joins_results):
        return _answers_calls(calls, answers, len(holders), rules.one_results_message)
    joined = [m for k, m in enumerate(holders) if k and messages[m].role == "tool" == messages[holders[k - 1]].role]
    if joined:
        return len(holders) - len(joined) == 1 and answers == calls
    return _answers_calls(calls, answers, len(holders), True)


class _Slot:
    """A part on its way to the output, with the path it had in the request as given."""

    __slots__ = ("origin", "part", "was")

    def __init__(self, part: ContentPart, origin: str) -> None:
        self.part = part
        self.origin = origin
        self.was = part  # the part as the request had it


class _Fixer:
    """One pass over the messages of a transcript :func:`keeps_rules` turned down; builds a new
    list only where something needs changing.

    The repair runs on every encode of a transcript that breaks a rule (an agent's unanswered
    calls do, turn after turn), so it is written for speed (PERF.md): each message first gets the
    verdict of the check (``_walk``), and one that needs nothing goes through as the
    same object; what is built new is made from values that are already IR without validating
    them again: added results, warnings and messages with ``construct``, changed parts and
    messages with ``replace``.
    """

    def __init__(self, messages: Sequence[Message], rules: TurnRules, reasoning: ReasoningPolicy, out: WarningSink):
        self.messages = messages
        self.rules = rules
        self.reasoning = reasoning
        self.out = out
        self.origins: list[tuple[int, list[str] | None]] = []
        self.results: dict[str, list[tuple[int, int]]] | None = None  # see _results_after
        self.calls: dict[str, list[int]] | None = None  # see _next_call
        self.joined: set[int] = set()  # assistant messages whose calls an earlier one's run answered

    def repair(self) -> list[Message]:
        """The fixed messages."""
        messages = self.messages
        taken: set[tuple[int, int]] = set()  # results moved up to their call
        kept: set[tuple[int, int]] = set()  # results already right after their call
        fixed: list[Message] = []
        origins = self.origins
        record: Record = []
        _walk(messages, self.rules, record=record)
        if self.rules.stored_turns:  # the results before the first assistant message answer stored calls
            for i, message in enumerate(messages):
                if message.role == "assistant":
                    break
                if message.role == "tool" or message.role == "user":  # elsewhere a result leads nothing (_walk)
                    kept.update((i, j) for j in range(record[i][1]))
        for i, message in enumerate(messages):
            ids, results, misfits = record[i]
            if ids is not None and all((i, j) in kept for j in range(results)):
                fixed.append(message)  # as it was: most messages, even in a repair
                origins.append((i, None))
                if not ids or message.role != "assistant" or i in self.joined:
                    continue
                answered, run = self._run_after(i, ids)
                if answered:
                    kept.update(run)
                    continue
                calls = [
                    _Slot(part, f"messages[{i}].parts[{j}]")
                    for j, part in enumerate(message.parts)
                    if type(part) is ToolUse
                ]
            else:
                slots = self._fix_message(i, message, misfits or (), taken, kept)
                if slots:
                    self._emit(fixed, message, slots, i)
                if message.role != "assistant" or i in self.joined:
                    continue
                calls = [slot for slot in slots if type(slot.part) is ToolUse]
                if not calls:
                    continue
                answered, run = self._run_after(i, [_original_id(slot) for slot in calls])
                if answered:
                    kept.update(run)
                    continue
            role, slots = self._answer(i, calls, taken | kept, taken, set(run))
            origins.append((i, [slot.origin.lstrip("@") for slot in slots]))
            fixed.append(construct(Message, role=role, parts=[slot.part for slot in slots]))
        return fixed

    def _fix_message(
        self,
        i: int,
        message: Message,
        misfits: Collection[int],
        taken: set[tuple[int, int]],
        kept: set[tuple[int, int]],
    ) -> list[_Slot]:
        """The parts of message ``i`` with their fixes; results moved up (``taken``) leave it,
        and a result not right after its call (not ``kept``) is an orphan. A part the walk found
        fitting (not in ``misfits``) goes as it is."""
        slots: list[_Slot] = []
        for j, part in enumerate(message.parts):
            result = type(part) is ToolResult
            if result and (i, j) in taken:
                continue
            slot = _Slot(part, f"messages[{i}].parts[{j}]")
            placed = not result or (i, j) in kept
            if placed and j not in misfits:
                slots.append(slot)
                continue
            if type(part) is Text and part.cache_control is not None and _takes_mark(slots):
                # a blank text's mark moves to the part before it: the cached prefix is the same
                # (the recorded Bedrock cache-point-read: a cachePoint after a "\n" text block)
                slots[-1].part = replace(slots[-1].part, cache_control=part.cache_control)
                part = replace(part, cache_control=None)
                slot.part = part
            fixed = self._fix_part(slot)
            if fixed is not None:
                slots.append(fixed if placed else self._orphan(fixed))
        return slots

    def _run_after(self, i: int, calls: list[str]) -> tuple[bool, list[tuple[int, int]]]:
        """Whether the results after the turn assistant message ``i`` (making ``calls``) opens
        answer it, as the walk judges it, and where they sit: the run right after it, or under
        ``joins_turns`` after the assistant messages that follow it, whose calls join the turn's
        (they are then ``joined``). Not answered: the run right after message ``i``."""
        messages = self.messages
        end = i + 1
        if self.rules.joins_turns:
            while end < len(messages) and messages[end].role == "assistant":
                calls = calls + [part.id for part in messages[end].parts if type(part) is ToolUse]
                end += 1
        run, answers = _answer_run_at(messages, end)
        if not _run_answers(messages, run, calls, answers, self.rules):
            return False, run if end == i + 1 else _answer_run_at(messages, i + 1)[0]
        self.joined.update(range(i + 1, end))
        return True, run

    # -- fixes, one per concern -----------------------------------------------------------

    def _fix_part(self, slot: _Slot) -> _Slot | None:
        """A part the walk turned down, or a result that moves, fixed on its own: foreign
        reasoning, empty text, an id the target rejects."""
        part = slot.part
        ids = self.rules.tool_ids
        match part:
            case Thinking() | RedactedThinking():
                return self._foreign_reasoning(slot, part)
            case Text():
                if part.cache_control is not None:
                    self._lossy(slot.origin, "cache_control", "an empty text block cannot be sent, nor its cache mark")
                if part.citations:
                    self._lossy(slot.origin, "citations", "a blank text block cannot be sent, nor its citations")
                return None
            case ToolUse():
                if ids is not None:
                    slot.part = replace(part, id=ids.encode(part.id))
            case ToolResult():
                if ids is not None and (wire := ids.encode(part.tool_use_id)) != part.tool_use_id:
                    slot.part = replace(part, tool_use_id=wire)
            case Image() | Audio() | Video() | Document() | ImageOutput() | AudioOutput() | Native():
                pass  # a handle: normalize_request refuses it before any repair
            case _:
                assert_never(part)
        return slot

    def _foreign_reasoning(self, slot: _Slot, part: Thinking | RedactedThinking) -> _Slot | None:
        vendors = sorted({echo.provider for echo in part.provider_echoes}) or ["no vendor"]
        whose = f"reasoning signed by {', '.join(vendors)}"
        if self.reasoning == "as_text" and isinstance(part, Thinking) and part.text:
            self._lossy(slot.origin, part.type, f"{whose} sent as plain text", action="converted")
            slot.part = construct(Text, text=part.text)
            return slot
        self._lossy(slot.origin, part.type, f"{whose} cannot be sent back to this vendor")
        return None

    def _orphan(self, slot: _Slot) -> _Slot:
        """A result whose call is not in the turn before it: the API would reject it, so it goes
        as text, labelled with the call it answers."""
        part = slot.part
        if not isinstance(part, ToolResult) or slot.origin.startswith("@"):
            return slot
        self._lossy(
            slot.origin, "tool_result", "a result with no call in the turn before is sent as text", action="converted"
        )
        slot.part = construct(
            Text, text=f"[result of tool call {part.tool_use_id} ({part.name})]\n{_result_text(part)}"
        )
        return slot

    def _answer(
        self,
        i: int,
        calls: list[_Slot],
        used: set[tuple[int, int]],
        taken: set[tuple[int, int]],
        run: set[tuple[int, int]],
    ) -> tuple[Role, list[_Slot]]:
        """The results of the calls in message ``i``, gathered into one message right after it;
        an unanswered call gets an error result so the API accepts the turn."""
        results = self._results_after(i)
        answer: list[_Slot] = []
        role: Role = "tool"
        for call in calls:
            assert isinstance(call.part, ToolUse)
            tool_id = _original_id(call)
            # A later turn that reuses the id (servers that number calls per turn) owns the
            # results after it: this call looks no further.
            bound = self._next_call(tool_id, i)
            found = [at for at in results.get(tool_id, ()) if i < at[0] < bound and at not in used]
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
                    self._lossy(origin, "tool_result", "moved up to follow its call", action="converted")
                fixed = self._fix_part(_Slot(result, origin))
                answer.append(_Slot(fixed.part if fixed else result, "@" + origin))
                continue
            self._lossy(
                call.origin,
                "tool_use",
                "no result was recorded for this call; an error result was added",
                action="converted",
            )
            # Said in the text, not with is_error: some wires have no error flag, and one loss
            # gets one warning.
            missing = "Error: no result was recorded for this call."
            stub = construct(ToolResult, tool_use_id=call.part.id, name=call.part.name, content=missing)
            answer.append(_Slot(stub, "@" + call.origin))
        return role, answer

    def _lossy(
        self, path: str, part_type: str, why: str, *, action: Literal["dropped", "converted"] = "dropped"
    ) -> None:
        """``WarningSink.lossy`` for values that are already valid: built with ``construct``."""
        self.out.warnings.append(
            construct(LossyEncode, codec=self.out.codec, path=path, message=why, part_type=part_type, action=action)
        )

    def _next_call(self, tool_id: str, i: int) -> int:
        """The index of the next assistant message after ``i`` calling ``tool_id`` again, else
        the end. Built once, when first needed."""
        if self.calls is None:
            where: dict[str, list[int]] = {}
            for m, message in enumerate(self.messages):
                if message.role == "assistant":
                    for part in message.parts:
                        if type(part) is ToolUse:
                            where.setdefault(part.id, []).append(m)
            self.calls = where
        return next((m for m in self.calls.get(tool_id, ()) if m > i), len(self.messages))

    def _results_after(self, i: int) -> dict[str, list[tuple[int, int]]]:
        """Where each call's results sit, in the messages after ``i`` (the earliest assistant
        turn that needs answering: later ones only look further on). Built once, when first
        needed."""
        if self.results is None:
            found: dict[str, list[tuple[int, int]]] = {}
            messages = self.messages
            for m in range(i + 1, len(messages)):
                message = messages[m]
                if message.role == "assistant":
                    continue
                for p, part in enumerate(message.parts):
                    if type(part) is ToolResult:
                        found.setdefault(part.tool_use_id, []).append((m, p))
            self.results = found
        return self.results

    def _emit(self, fixed: list[Message], message: Message, slots: list[_Slot], source: int) -> None:
        """Message ``source`` with its fixed parts: the same object when none changed (no part
        left it, none was replaced)."""
        self.origins.append((source, [slot.origin for slot in slots]))
        if len(slots) == len(message.parts) and all(slot.part is slot.was for slot in slots):
            fixed.append(message)
            return
        parts = [slot.part for slot in slots]
        if message.role == "tool" and not any(isinstance(part, ToolResult) for part in parts):
            fixed.append(replace(message, parts=parts, role="user"))  # a tool message must hold results
        else:
            fixed.append(replace(message, parts=parts))


def _takes_mark(slots: list[_Slot]) -> bool:
    """Whether the last part of ``slots`` can take a cache mark and has none."""
    if not slots:
        return False
    part = slots[-1].part
    return "cache_control" in type(part).model_fields and getattr(part, "cache_control", None) is None


def _answer_run_at(messages: Sequence[Message], start: int) -> tuple[list[tuple[int, int]], list[str]]:
    """Where the results that directly follow an assistant turn sit, and their ids: the leading
    tool_result parts of the tool/user messages after it, up to the first message holding
    anything else."""
    found: list[tuple[int, int]] = []
    ids: list[str] = []
    for m in range(start, len(messages)):
        message = messages[m]
        if message.role not in ("tool", "user"):
            break
        lead = 0
        for part in message.parts:
            if type(part) is not ToolResult:
                break
            found.append((m, lead))
            ids.append(part.tool_use_id)
            lead += 1
        if lead < len(message.parts) or lead == 0:
            break
    return found, ids


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
    provider: str | None = None,
    writes_unmapped: frozenset[str] | None = None,
) -> Encoded:
    """What a codec's ``encode_request`` does: resolve artifact handles (when given a
    resolver), normalize, then ``encode(request, strict)``.

    A request that already keeps the rules goes straight to ``encode``; otherwise the codec
    encodes the fixed request and every warning is reported against the request as given.
    Without a resolver, a handle is an ``EncodeError`` at its path, before any body is built.
    ``provider``: the codec's own; every other provider's echo keys marked ``unmapped`` are
    reported dropped (``WarningSink.unmapped_echoes``), and the own provider's but
    ``writes_unmapped`` where that is given (codecs sharing a provider)."""
    if resolve is not None:
        request = resolve_handles(request, resolve, codec=codec)
    names = rules.names
    given = request
    if names is not None:  # the tools' names here, the calls' and results' as the walk reads them
        request = send_names(request, names, codec=codec, parts=False)  # the same object when no name needs it
    refuse_unsendable(request, codec=codec, tool_names=rules.tool_names)
    checks = PartChecks(codec, unique_ids=rules.tool_ids is not None)
    keeps = _walk(request.messages, rules, checks)  # the verdict and the checks of every part, in one walk
    if names is not None and request is given and (sent := send_part_names(request, names, checks.held)) is not given:
        request = sent  # a call's or result's name goes out otherwise: the walk again, on the names sent
        checks = PartChecks(codec, unique_ids=rules.tool_ids is not None)
        keeps = _walk(request.messages, rules, checks)
    found = checks.misnamed
    misnamed = misnamed_results(request, found, rules, codec=codec) if found else None
    _check_policy(reasoning)
    ready = _normalized(request, rules, keeps, codec=codec, reasoning=reasoning)
    if provider is not None and checks.marked:  # echoes the walk found marking a key unmapped
        out = WarningSink(codec)
        out.unmapped_marked(checks.marked, own=provider, writes=writes_unmapped)
        misnamed = (misnamed or []) + out.warnings
    if not ready.changed and not misnamed:
        return encode(request, strict)
    return finish_encode(_noting(ready, misnamed), encode(ready.request, False), codec=codec, strict=strict)


def misnamed_results(
    request: Request, found: list[tuple[int, int, str]], rules: TurnRules, *, codec: str
) -> list[AnyWarning]:
    """A LossyEncode at ``messages[i].parts[j].name`` for each tool result whose name is not the
    name of the call it answers (``found`` by the walk's ``PartChecks``: message, part, the call's
    name) and which the target sends without a name (:class:`TurnRules` ``result_names``): there
    a result answers its call by id, so it goes as that call's, and its own name is lost."""
    sends = rules.result_names
    if sends is True:
        return []
    warnings: list[AnyWarning] = []
    for i, j, called in found:
        part = request.messages[i].parts[j]
        assert isinstance(part, ToolResult)
        if callable(sends) and sends(part):
            continue
        why = f"a result answers its call by id here, with no name of its own: {part.name!r} goes as {called!r}'s"
        warnings.append(
            construct(
                LossyEncode,
                codec=codec,
                path=f"messages[{i}].parts[{j}].name",
                message=why,
                part_type="tool_result",
                action="dropped",
            )
        )
    return warnings


def _noting(ready: Normalized, misnamed: list[AnyWarning] | None) -> Normalized:
    """``ready`` with the warnings of :func:`misnamed_results` (and of unmapped echoes) among its
    own, in message order."""
    if not misnamed:
        return ready
    return Normalized(ready.request, _merge(misnamed, ready.warnings), ready.origins)
