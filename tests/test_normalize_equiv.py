"""Normalization builds its output without validating it (``construct``, a copy with changes):
these properties check that what it builds is what validation would give, that it keeps the
untouched messages as the same objects, and that its caches of tool ids change no result."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import interlingua as il
from interlingua import (
    ContentPart,
    EncodeError,
    LossyEncode,
    Message,
    RedactedThinking,
    Request,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    WarningSink,
)
from interlingua._normalize import Record, _Fixer, _walk, keeps_rules
from interlingua._sendable import PartChecks
from interlingua.kit import (
    ReasoningPolicy,
    ToolIds,
    TurnRules,
    find_handles,
    no_thinking,
    normalize_request,
    own_thinking,
    unsigned_or_own_thinking,
)
from interlingua.testing import strategies

LOWER = "abcdefghijklmnopqrstuvwxyz0123456789"
RULES = {
    "plain": TurnRules(accepts_thinking=own_thinking("acme")),
    "short ids, no empty text": TurnRules(
        accepts_thinking=own_thinking("acme"),
        tool_ids=ToolIds(r"[a-z0-9]{1,8}", length=8, prefix="t", alphabet=LOWER),
        drop_empty_text=True,
    ),
    "one results message": TurnRules(
        accepts_thinking=unsigned_or_own_thinking("acme"), one_results_message=True, drop_empty_text=True
    ),
    "nine alphanumerics, no reasoning": TurnRules(
        accepts_thinking=no_thinking, tool_ids=ToolIds(r"[a-zA-Z0-9]{9}", length=9), one_results_message=True
    ),
    "joined turns": TurnRules(accepts_thinking=own_thinking("acme"), joins_turns=True, drop_empty_text=True),
    "joined turns, one results message, stored": TurnRules(
        accepts_thinking=own_thinking("acme"), joins_turns=True, one_results_message=True, stored_turns=True
    ),
    "stored turns, short ids": TurnRules(
        accepts_thinking=own_thinking("acme"),
        tool_ids=ToolIds(r"[a-z0-9]{1,8}", length=8, prefix="t", alphabet=LOWER),
        stored_turns=True,
    ),
    "one results message, joined by the writer": TurnRules(
        accepts_thinking=own_thinking("acme"), one_results_message=True, joins_results=True, joins_turns=True
    ),
}
POOL = ["a", "b", "call_LONG.id", "ok1"]  # few ids, so calls and results meet in odd places


@st.composite
def scrambled(draw: st.DrawFn) -> Request:
    """A well-formed transcript broken the ways recorded traffic is: ids shared or too long,
    messages dropped, moved, repeated or split, foreign parts and empty text added."""
    messages = draw(strategies.conversations(max_turns=4))

    def reid(part: object) -> object:
        if isinstance(part, ToolUse) and draw(st.booleans()):
            return part.model_copy(update={"id": draw(st.sampled_from(POOL))})
        if isinstance(part, ToolResult) and draw(st.booleans()):
            return part.model_copy(update={"tool_use_id": draw(st.sampled_from(POOL))})
        return part

    messages = [m.model_copy(update={"parts": [reid(p) for p in m.parts]}) for m in messages]
    for _ in range(draw(st.integers(0, 4))):
        k = draw(st.integers(0, len(messages) - 1))
        match draw(st.sampled_from(["drop", "move", "repeat", "insert", "empty text", "split"])):
            case "drop" if len(messages) > 1:
                messages.pop(k)
            case "move":
                moved = messages.pop(k)
                messages.insert(draw(st.integers(0, len(messages))), moved)
            case "repeat":
                messages.insert(k, messages[k])
            case "insert":
                messages.insert(k, draw(strategies.messages()))
            case "empty text":
                blank = Text(text=draw(st.sampled_from(["", " ", "\n"])))
                messages[k] = messages[k].model_copy(update={"parts": [*messages[k].parts, blank]})
            case "split" if len(messages[k].parts) > 1:
                head, tail = messages[k].parts[:1], messages[k].parts[1:]
                messages[k : k + 1] = [
                    messages[k].model_copy(update={"parts": head}),
                    messages[k].model_copy(update={"parts": tail}),
                ]
    return Request(model="m", messages=messages)


requests = st.one_of(scrambled(), strategies.requests(well_formed=False))
policies = st.sampled_from(["drop", "as_text"])
rule_names = st.sampled_from(sorted(RULES))
fast = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(requests, rule_names, policies)
def test_the_repair_is_valid_ir_final_and_keeps_the_callers_objects(
    request: Request, rules: str, reasoning: ReasoningPolicy
) -> None:
    ready = normalize_request(request, RULES[rules], codec="acme-chat", reasoning=reasoning)
    # what validation gives
    dumped = ready.request.model_dump()
    again = Request.model_validate(dumped)
    assert again == ready.request and again.model_dump() == dumped
    for warning in ready.warnings:
        assert isinstance(warning, LossyEncode)
        assert LossyEncode.model_validate(warning.model_dump()) == warning
        assert warning.model_fields_set == {"codec", "path", "message", "part_type", "action"}
    # final: a second normalization changes nothing
    twice = normalize_request(ready.request, RULES[rules], codec="acme-chat", reasoning=reasoning)
    assert twice.request is ready.request and twice.warnings == [] and not twice.changed
    # the caller's objects, wherever nothing needed fixing
    if not ready.changed:
        assert ready.request is request
        return
    assert ready.origins is not None and len(ready.origins) == len(ready.request.messages)
    for message, (source, paths) in zip(ready.request.messages, ready.origins, strict=True):
        if paths is None:
            assert message is request.messages[source]
            continue
        assert len(paths) == len(message.parts)
        for part, path in zip(message.parts, paths, strict=True):
            m, p = (int(n) for n in path.removeprefix("messages[").removesuffix("]").split("].parts["))
            _assert_comes_from(part, request.messages[m].parts[p])


@fast
@given(requests, rule_names, policies)
def test_the_fast_check_passes_exactly_what_the_repair_leaves_alone(
    request: Request, rules: str, reasoning: ReasoningPolicy
) -> None:
    """``keeps_rules`` stops at the first thing that needs a fix; the repair reads the verdict of
    every message and part from the same walk: yes exactly where the repair changes nothing and
    says nothing."""
    assume(not find_handles(request))  # the fast check stops at those; normalize_request raises
    out = WarningSink("acme-chat")
    fixed = _Fixer(request.messages, RULES[rules], reasoning, out).repair()
    same_length = len(fixed) == len(request.messages)
    untouched = same_length and all(a is b for a, b in zip(fixed, request.messages, strict=True))
    verdict = keeps_rules(request.messages, RULES[rules])
    assert verdict == (untouched and not out.warnings)


CODECS = {codec.name: codec for codec in map(il.get_codec, il.codecs())}  # the installed codecs


@fast
@given(requests, st.sampled_from(sorted(CODECS)), policies)
def test_every_codecs_verdict_is_the_repair_changing_nothing(
    request: Request, wire: str, reasoning: ReasoningPolicy
) -> None:
    """Under each installed codec's own rules: ``keeps_rules`` says yes exactly where the repair
    changes nothing and reports nothing, and the walk an encode makes (the part checks of
    ``refuse_unsendable`` along) and the one the repair reads give the same verdict."""
    assume(not find_handles(request))
    rules = getattr(CODECS[wire], "rules", None)  # not in the Codec protocol; every codec here has them
    assert isinstance(rules, TurnRules)
    out = WarningSink("acme-chat")
    fixed = _Fixer(request.messages, rules, reasoning, out).repair()
    untouched = len(fixed) == len(request.messages) and all(
        a is b for a, b in zip(fixed, request.messages, strict=True)
    )
    verdict = keeps_rules(request.messages, rules)
    assert verdict == (untouched and not out.warnings)
    record: Record = []
    assert _walk(request.messages, rules, record=record) == verdict
    assert len(record) == len(request.messages)
    if verdict:  # every message and part fits where the transcript does
        assert all(calls is not None and misfits is None for calls, _, misfits in record)
    try:
        walked = _walk(request.messages, rules, PartChecks(wire, unique_ids=rules.tool_ids is not None))
    except EncodeError:
        return  # an encode refuses the request before any verdict is used
    assert walked == verdict


@fast
@given(requests, st.sampled_from(sorted(CODECS)))
def test_every_codecs_verdict_is_its_rules_as_written(request: Request, wire: str) -> None:
    """The one verdict against the rules stated plainly (``_as_written``), under each installed
    codec's rules: the check and the repair share the walk, so this is what holds the walk
    itself to the rules."""
    assume(not find_handles(request))
    rules = getattr(CODECS[wire], "rules", None)
    assert isinstance(rules, TurnRules)
    assert keeps_rules(request.messages, rules) == _as_written(request.messages, rules)


@fast
@given(requests, rule_names)
def test_each_rule_sets_verdict_is_its_rules_as_written(request: Request, rules: str) -> None:
    """As above, under the rule sets of this file (joined and stored turns among them)."""
    assume(not find_handles(request))
    assert keeps_rules(request.messages, RULES[rules]) == _as_written(request.messages, RULES[rules])


def _turn(*results: str, then: str | None = None, role: str = "tool") -> Message:
    parts: list[ContentPart] = [ToolResult(tool_use_id=i, name="f", content="ok") for i in results]
    return Message(role=role, parts=[*parts, *([Text(text=then)] if then else [])])  # type: ignore[arg-type]  # a role


_CALLS = Message.assistant(ToolUse(id="a", name="f", input={}), ToolUse(id="b", name="f", input={}))
SPLIT_RUNS = {  # the ways a turn's results can be split, ended or misplaced
    "one message": [_CALLS, _turn("a", "b")],
    "two messages": [_CALLS, _turn("a"), _turn("b")],
    "two messages, out of the calls' order": [_CALLS, _turn("b"), _turn("a")],
    "a user message, then a tool message": [_CALLS, _turn("a", role="user"), _turn("b")],
    "two, the second ending in text": [_CALLS, _turn("a"), _turn("b", then="go on", role="user")],
    "the first ending in text": [_CALLS, _turn("a", then="wait", role="user"), _turn("b")],
    "one missing": [_CALLS, _turn("a"), Message.user("next")],
    "one repeated": [_CALLS, _turn("a", "a")],
    "an empty tool message": [_CALLS, Message.tool(), _turn("a", "b")],
    "after text": [_CALLS, Message.user("first", ToolResult(tool_use_id="a", name="f")), _turn("b")],
    "an orphan": [Message.user("hi"), _turn("a")],
    "two assistant messages, one run": [
        Message.assistant(ToolUse(id="a", name="f", input={})),
        Message.assistant("and", ToolUse(id="b", name="f", input={})),
        _turn("a", "b"),
    ],
    "two assistant messages, a run each": [
        Message.assistant(ToolUse(id="a", name="f", input={})),
        _turn("a"),
        Message.assistant(ToolUse(id="b", name="f", input={})),
        _turn("b"),
    ],
}


@pytest.mark.parametrize("wire", sorted(CODECS))
@pytest.mark.parametrize("case", sorted(SPLIT_RUNS))
def test_split_runs_of_results_get_the_verdict_of_the_rules_as_written(case: str, wire: str) -> None:
    rules = getattr(CODECS[wire], "rules", None)
    assert isinstance(rules, TurnRules)
    messages = SPLIT_RUNS[case]
    assert keeps_rules(messages, rules) == _as_written(messages, rules)


def test_consecutive_assistant_messages_are_one_turn_only_where_the_rules_join_them() -> None:
    """The APIs that combine consecutive same-role turns judge the calls of both against the
    results after the second (recorded requests so were answered 200)."""
    messages = SPLIT_RUNS["two assistant messages, one run"]
    assert keeps_rules(messages, RULES["joined turns"])
    assert not keeps_rules(messages, RULES["plain"])
    fixed = _Fixer(messages, RULES["plain"], "drop", WarningSink("acme-chat")).repair()
    assert [m.role for m in fixed] == ["assistant", "tool", "assistant", "tool"]


def test_results_before_the_first_assistant_message_answer_stored_calls_only_where_the_rules_say() -> None:
    messages = [_turn("a"), Message.user("go on")]
    assert keeps_rules(messages, RULES["stored turns, short ids"])
    assert not keeps_rules(messages, RULES["plain"])
    later = [Message.assistant("hi"), _turn("a")]  # after an assistant message: an orphan still
    assert not keeps_rules(later, RULES["stored turns, short ids"])


def test_a_split_run_keeps_the_rules_only_where_results_may_sit_in_two_messages() -> None:
    messages = SPLIT_RUNS["two, the second ending in text"]
    assert keeps_rules(messages, RULES["plain"])
    assert not keeps_rules(messages, RULES["one results message"])


def _as_written(messages: list[Message], rules: TurnRules) -> bool:
    """Every part fits (ids the target takes, no foreign reasoning, no blank text where it is
    dropped), every result leads a tool or user message in the run right after the assistant
    turn whose calls it answers, and each such run answers exactly those calls (in one message
    where the target needs that). Under ``joins_turns`` a turn is a run of assistant messages;
    under ``stored_turns`` the results before the first assistant message answer stored calls;
    under ``joins_results`` consecutive tool messages of a run are one message, where their
    results come in the calls' order.
    Slow and plain: a test oracle, not a second verdict."""
    ids = rules.tool_ids
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolUse | ToolResult):
                if ids is not None and not ids.accepts(part.id if isinstance(part, ToolUse) else part.tool_use_id):
                    return False
            elif isinstance(part, Thinking | RedactedThinking):
                if not rules.accepts_thinking(part):
                    return False
            elif isinstance(part, Text) and rules.drop_empty_text and not part.text.strip():
                return False
        leading = _leading(message)
        if sum(isinstance(part, ToolResult) for part in message.parts) != len(leading):
            return False  # a result that does not lead its message
    answered: set[int] = set()
    for i, message in enumerate(messages):
        if message.role != "assistant" or (rules.joins_turns and i and messages[i - 1].role == "assistant"):
            continue  # not a turn's first message
        end = i + 1
        while rules.joins_turns and end < len(messages) and messages[end].role == "assistant":
            end += 1
        calls = [part.id for m in messages[i:end] for part in m.parts if isinstance(part, ToolUse)]
        if not calls:
            continue
        answers: list[str] = []
        holders = 0
        joined = False  # under joins_results, a tool message joined to the tool message before it
        for k in range(end, len(messages)):
            if messages[k].role not in ("tool", "user"):
                break
            leading = _leading(messages[k])
            if leading:
                answers += leading
                tools = messages[k].role == "tool" and messages[k - 1].role == "tool" and k > end
                if rules.one_results_message and rules.joins_results and tools:
                    joined = True
                else:
                    holders += 1
                answered.add(k)
            if not leading or len(leading) < len(messages[k].parts):
                break
        if sorted(answers) != sorted(calls) or (rules.one_results_message and holders > 1):
            return False
        if joined and answers != calls:
            return False  # the writer joins them as they come: only in the calls' order
    first = next((k for k, message in enumerate(messages) if message.role == "assistant"), len(messages))
    stored = range(first) if rules.stored_turns else range(0)
    return all(k in answered or k in stored for k, message in enumerate(messages) if _leading(message))


def _leading(message: Message) -> list[str]:
    """The ids of the results that open a tool or user message."""
    ids: list[str] = []
    if message.role in ("tool", "user"):
        for part in message.parts:
            if not isinstance(part, ToolResult):
                break
            ids.append(part.tool_use_id)
    return ids


def _assert_comes_from(part: object, given: object) -> None:
    """``part`` is the caller's part at its origin, or one of the fixes made of such a part."""
    if part is given:
        return
    mark = getattr(given, "cache_control", None)
    if type(part) is type(given) and part.model_copy(update={"cache_control": mark}) == given:
        return  # a cache mark moved onto it from a blank text after it
    match part:
        case Text():  # an orphan result or foreign reasoning, as text
            assert isinstance(given, (ToolResult, Thinking))
        case ToolUse():  # its id rewritten
            assert isinstance(given, ToolUse) and part.id != given.id
            assert part.model_copy(update={"id": given.id}) == given
        case ToolResult() if isinstance(given, ToolUse):  # the error result added for a call
            assert (part.name, part.content) == (given.name, "Error: no result was recorded for this call.")
        case ToolResult():  # its id rewritten
            assert isinstance(given, ToolResult) and part.tool_use_id != given.tool_use_id
            assert part.model_copy(update={"tool_use_id": given.tool_use_id}) == given
        case _:
            raise AssertionError(f"{part!r} does not come from {given!r}")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scrambled())
def test_tool_id_caches_change_no_result(request: Request) -> None:
    """A fresh ``ToolIds`` and one that has seen (and cached) every id give the same request."""

    def rules() -> TurnRules:
        return TurnRules(accepts_thinking=own_thinking("acme"), tool_ids=ToolIds(r"[a-zA-Z0-9]{9}", length=9))

    warm = rules()
    normalize_request(request, warm, codec="acme-chat", reasoning="drop")
    cold = normalize_request(request, rules(), codec="acme-chat", reasoning="drop")
    hot = normalize_request(request, warm, codec="acme-chat", reasoning="drop")
    assert hot.request == cold.request and hot.warnings == cold.warnings and hot.origins == cold.origins


class _FewIds(ToolIds):
    _LIMIT = 3


def test_a_cached_id_is_remembered_again_for_decoding_after_it_was_forgotten() -> None:
    ids = _FewIds(r"[a-z]{1,8}", length=8, prefix="t", alphabet="abcdefghijklmnopqrstuvwxyz")
    first = ids.encode("call_1")
    for other in ("call_2", "call_3", "call_4"):
        ids.encode(other)
    assert ids.decode(first) == first  # forgotten: at most three mappings are kept
    assert ids.encode("call_1") == first  # the same id, found in the cache (or made again)
    assert ids.decode(first) == "call_1"
    assert ids.accepts("abc") and not ids.accepts("call_1") and ids.accepts(first)


def test_an_agent_transcript_with_unanswered_calls_is_repaired_in_one_pass() -> None:
    """PERF.md's shape in small: calls answered and not, every other turn; the untouched
    messages come back as the same objects and the added results are plain IR."""
    messages: list[Message] = [Message.system("be brief")]
    for turn in range(6):
        messages.append(Message.user(f"step {turn}"))
        call = ToolUse(id=f"call_{turn}", name="read", input={"path": f"m{turn}.py"})
        messages.append(Message.assistant("Reading.", call))
        if turn % 2 == 0:
            messages.append(Message.tool(ToolResult(tool_use_id=f"call_{turn}", name="read", content="x = 1")))
    request = Request(model="m", messages=messages)
    ready = normalize_request(request, RULES["plain"], codec="acme-chat", reasoning="drop")
    assert [w.path for w in ready.warnings] == [
        "messages[5].parts[1]",
        "messages[10].parts[1]",
        "messages[15].parts[1]",
    ]
    assert len(ready.request.messages) == len(messages) + 3
    added = [m for m in ready.request.messages if not any(m is given for given in messages)]
    assert [(m.role, [p.tool_use_id for p in m.parts if isinstance(p, ToolResult)]) for m in added] == [
        ("tool", ["call_1"]),
        ("tool", ["call_3"]),
        ("tool", ["call_5"]),
    ]
    stub = ToolResult(tool_use_id="call_1", name="read", content="Error: no result was recorded for this call.")
    assert added[0] == Message.tool(stub)
    # built without validation, yet set as the validating constructors set them
    assert added[0].model_fields_set == Message.tool(stub).model_fields_set == {"role", "parts"}
    assert added[0].parts[0].model_fields_set == stub.model_fields_set
