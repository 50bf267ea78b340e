"""Normalization builds its output without validating it (``construct``, a copy with changes):
these properties check that what it builds is what validation would give, that it keeps the
untouched messages as the same objects, and that its caches of tool ids change no result."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from interlingua import LossyEncode, Message, Request, Text, Thinking, ToolResult, ToolUse, WarningSink
from interlingua._normalize import _Fixer, keeps_rules
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
                messages[k] = messages[k].model_copy(update={"parts": [*messages[k].parts, Text(text="")]})
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
    """``keeps_rules`` writes the part tests of ``_fits`` out inline for speed: it must say yes
    exactly where the repair, which uses ``_fits``, would change nothing and say nothing."""
    assume(not find_handles(request))  # the fast check stops at those; normalize_request raises
    out = WarningSink("acme-chat")
    fixed = _Fixer(request.messages, RULES[rules], reasoning, out).repair()
    same_length = len(fixed) == len(request.messages)
    untouched = same_length and all(a is b for a, b in zip(fixed, request.messages, strict=True))
    verdict = keeps_rules(request.messages, RULES[rules])
    assert verdict == (untouched and not out.warnings)


def _assert_comes_from(part: object, given: object) -> None:
    """``part`` is the caller's part at its origin, or one of the fixes made of such a part."""
    if part is given:
        return
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
