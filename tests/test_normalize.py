"""Normalization: the fixes every encoder applies, their warnings and paths, on hand-made and
generated transcripts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua import (
    Encoded,
    LossyEncode,
    LossyEncodeError,
    Message,
    RedactedThinking,
    Request,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
)
from interlingua.kit import ToolIds, TurnRules, encode_with_rules, normalize_request, own_thinking
from interlingua.testing import strategies

LOWER = "abcdefghijklmnopqrstuvwxyz0123456789"
ACME = TurnRules(
    accepts_thinking=own_thinking("acme"), tool_ids=ToolIds(r"[a-z0-9]{1,8}", length=8, prefix="t", alphabet=LOWER)
)
PLAIN = TurnRules(accepts_thinking=own_thinking("acme"))


def _normalize(messages: list[Message], rules: TurnRules = PLAIN, reasoning: str = "drop") -> tuple[Request, list[str]]:
    ready = normalize_request(Request(model="m", messages=messages), rules, codec="acme-chat", reasoning=reasoning)  # type: ignore[arg-type]  # a policy under test
    return ready.request, [f"{w.path}: {w.message}" for w in ready.warnings]


def _shape(request: Request) -> list[tuple[str, list[str]]]:
    """Each message's role and its parts, short: the structure normalization changes."""

    def short(part: object) -> str:
        match part:
            case ToolUse():
                return f"call {part.id}"
            case ToolResult():
                return f"result {part.tool_use_id}"
            case Text():
                return f"text {part.text[:30]!r}"
            case _:
                return type(part).__name__

    return [(m.role, [short(p) for p in m.parts]) for m in request.messages]


def _call(i: str) -> ToolUse:
    return ToolUse(id=i, name="f", input={})


def _result(i: str) -> ToolResult:
    return ToolResult(tool_use_id=i, name="f", content=f"out {i}")


def test_a_request_that_keeps_the_rules_comes_back_as_it_is() -> None:
    request = Request(
        model="m",
        messages=[
            Message.user("q"),
            Message.assistant(Thinking(text="t").with_echo("acme", {"sig": "s"}), _call("a"), _call("b")),
            Message.tool(_result("a")),
            Message.tool(_result("b")),
            Message.user("next"),
        ],
    )
    ready = normalize_request(request, PLAIN, codec="acme-chat", reasoning="drop")
    assert ready.request is request
    assert ready.warnings == []
    assert not ready.changed


def test_results_separated_from_their_call_are_moved_up() -> None:
    request, warnings = _normalize(
        [Message.user("q"), Message.assistant(_call("a")), Message.user("wait"), Message.tool(_result("a"))]
    )
    assert _shape(request) == [
        ("user", ["text 'q'"]),
        ("assistant", ["call a"]),
        ("tool", ["result a"]),
        ("user", ["text 'wait'"]),
    ]
    assert warnings == ["messages[3].parts[0]: moved up to follow its call"]


def test_a_target_may_need_a_turns_results_in_one_message() -> None:
    rules = TurnRules(accepts_thinking=own_thinking("acme"), one_results_message=True)
    messages = [Message.assistant(_call("a"), _call("b")), Message.tool(_result("a")), Message.tool(_result("b"))]
    merged, warnings = _normalize(messages, rules)
    assert _shape(merged) == [("assistant", ["call a", "call b"]), ("tool", ["result a", "result b"])]
    assert warnings == []  # the same results in the same order: nothing lost
    as_given, _ = _normalize(messages)
    assert len(as_given.messages) == 3


def test_results_lead_the_message_that_holds_them() -> None:
    request, warnings = _normalize([Message.assistant(_call("a")), Message.user("and then", _result("a"))])
    assert _shape(request) == [("assistant", ["call a"]), ("user", ["result a"]), ("user", ["text 'and then'"])]
    assert warnings == ["messages[1].parts[1]: moved up to follow its call"]


def test_an_unanswered_call_gets_an_error_result() -> None:
    request, warnings = _normalize([Message.assistant(_call("a"), _call("b")), Message.tool(_result("b"))])
    assert _shape(request) == [("assistant", ["call a", "call b"]), ("tool", ["result a", "result b"])]
    added = request.messages[1].parts[0]
    assert isinstance(added, ToolResult) and added.name == "f"
    assert added.content == "Error: no result was recorded for this call." and not added.is_error
    assert warnings == ["messages[0].parts[0]: no result was recorded for this call; an error result was added"]


def test_an_id_reused_by_a_later_turn_keeps_its_results_to_that_turn() -> None:
    """Servers that number calls per turn send ``call_0`` every turn: a result after the second
    ``call_0`` answers that one, never the unanswered first."""
    messages = [
        Message.assistant(_call("call_0")),
        Message.user("never mind"),
        Message.assistant(_call("call_0")),
        Message.tool(_result("call_0")),
    ]
    request, warnings = _normalize(messages)
    assert _shape(request) == [
        ("assistant", ["call call_0"]),
        ("tool", ["result call_0"]),
        ("user", ["text 'never mind'"]),
        ("assistant", ["call call_0"]),
        ("tool", ["result call_0"]),
    ]
    assert request.messages[4] is messages[3]
    assert warnings == ["messages[0].parts[0]: no result was recorded for this call; an error result was added"]
    again, more = _normalize(list(request.messages))
    assert _shape(again) == _shape(request) and more == []


def test_an_orphan_result_becomes_labelled_text() -> None:
    request, warnings = _normalize([Message.user("q"), Message.tool(_result("zz")), Message.assistant("ok")])
    assert _shape(request) == [
        ("user", ["text 'q'"]),
        ("user", ["text '[result of tool call zz (f)]\\no'"]),
        ("assistant", ["text 'ok'"]),
    ]
    assert warnings == ["messages[1].parts[0]: a result with no call in the turn before is sent as text"]


def test_foreign_reasoning_is_dropped_or_sent_as_text() -> None:
    messages = [
        Message.user("q"),
        Message.assistant(
            Thinking(text="mine").with_echo("acme", {"sig": "1"}),
            Thinking(text="theirs").with_echo("other", {"sig": "2"}),
            RedactedThinking().with_echo("other", {"data": "x"}),
            Text(text="answer"),
        ),
    ]
    dropped, warnings = _normalize(messages)
    assert _shape(dropped)[1] == ("assistant", ["Thinking", "text 'answer'"])
    assert warnings == [
        "messages[1].parts[1]: reasoning signed by other cannot be sent back to this vendor",
        "messages[1].parts[2]: reasoning signed by other cannot be sent back to this vendor",
    ]
    as_text, warnings = _normalize(messages, reasoning="as_text")
    assert _shape(as_text)[1] == ("assistant", ["Thinking", "text 'theirs'", "text 'answer'"])
    assert warnings[0] == "messages[1].parts[1]: reasoning signed by other sent as plain text"
    assert len(warnings) == 2  # redacted reasoning has no text to send


def test_own_reasoning_survives_a_detour_through_another_vendor() -> None:
    signed = Thinking(text="plan").with_echo("acme", {"sig": "s1"})
    request, _ = _normalize(
        [
            Message.user("q"),
            Message.assistant(signed, _call("a")),
            Message.tool(_result("a")),
            Message.assistant(Thinking(text="other's").with_echo("other", {"sig": "o"}), Text(text="mid")),
            Message.user("back to acme"),
        ]
    )
    assert request.messages[1].parts[0] is signed


def test_tool_ids_are_rewritten_the_same_way_for_call_and_result_and_map_back() -> None:
    ids = ToolIds(r"[a-z0-9]{1,8}", length=8, prefix="t", alphabet=LOWER)
    rules = TurnRules(accepts_thinking=own_thinking("acme"), tool_ids=ids)
    request, warnings = _normalize(
        [Message.assistant(_call("call_LONG.id"), _call("ok1")), Message.tool(_result("call_LONG.id"), _result("ok1"))],
        rules,
    )
    call, kept = request.messages[0].parts
    result, kept_result = request.messages[1].parts
    assert isinstance(call, ToolUse) and isinstance(result, ToolResult)
    assert call.id == result.tool_use_id != "call_LONG.id"
    assert ids.accepts(call.id) and len(call.id) == 8
    assert ids.decode(call.id) == "call_LONG.id"
    assert kept == _call("ok1") and kept_result == _result("ok1")
    assert warnings == []  # lossless: deterministic and reversible
    again, _ = _normalize([Message.assistant(_call("call_LONG.id")), Message.tool(_result("call_LONG.id"))], rules)
    assert again.messages[0].parts[0] == call


def test_empty_text_is_removed_where_the_target_rejects_it() -> None:
    rules = TurnRules(accepts_thinking=own_thinking("acme"), drop_empty_text=True)
    echoed = Text(text="").with_echo("acme", {"sig": "the block's own"})
    request, warnings = _normalize(
        [
            Message.user(Text(text=""), Text(text="q"), Text(text=" \n")),
            Message.assistant(echoed, Text(text=" a ")),
            Message.user(Text(text="").with_cache_control()),
        ],
        rules,
    )
    # blank text goes, whitespace-only too, echo and all: Anthropic answers 400 "text content
    # blocks must contain non-whitespace text" (reported in anthropics/claude-code#23440)
    assert _shape(request) == [("user", ["text 'q'"]), ("assistant", ["text ' a '"])]
    assert warnings == ["messages[2].parts[0]: an empty text block cannot be sent, nor its cache mark"]
    moved, warnings = _normalize([Message.user(Text(text="q"), Text(text="\n").with_cache_control("1h"))], rules)
    assert moved.messages[0].parts == [Text(text="q").with_cache_control("1h")] and warnings == []
    unchanged, _ = _normalize([Message.user(Text(text=""), Text(text="q"))])
    assert _shape(unchanged) == [("user", ["text ''", "text 'q'"])]


def _fake_encode(request: Request, strict: bool) -> Encoded:
    """A codec that warns about every text part, at its path in the request it was given."""
    warnings = [
        LossyEncode(
            codec="acme-chat", path=f"messages[{i}].parts[{j}].text", message="x", part_type="text", action="converted"
        )
        for i, m in enumerate(request.messages)
        for j, p in enumerate(m.parts)
        if isinstance(p, Text)
    ]
    assert not strict
    return Encoded({"n": len(request.messages)}, list(warnings))


def test_codec_warnings_point_into_the_request_as_given() -> None:
    request = Request(
        model="m",
        messages=[
            Message.assistant(Thinking(text="theirs").with_echo("other", {"s": 1})),  # removed entirely
            Message.user(Text(text="hi")),
        ],
    )
    encoded = encode_with_rules(request, PLAIN, _fake_encode, codec="acme-chat", strict=False, reasoning="drop")
    assert encoded.body == {"n": 1}
    assert [w.path for w in encoded.warnings] == ["messages[0].parts[0]", "messages[1].parts[0].text"]


def test_strict_fails_once_with_every_warning() -> None:
    request = Request(model="m", messages=[Message.assistant(_call("a")), Message.user(Text(text="hi"))])
    with pytest.raises(LossyEncodeError) as caught:
        encode_with_rules(request, PLAIN, _fake_encode, codec="acme-chat", strict=True, reasoning="drop")
    assert [w.path for w in caught.value.warnings] == ["messages[0].parts[0]", "messages[1].parts[0].text"]


def test_an_id_rule_its_own_mapping_breaks_is_refused() -> None:
    with pytest.raises(ValueError, match="maps ids to ids its own pattern rejects"):
        ToolIds(r"[a-z]{1,8}", length=8)


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="reasoning must be one of"):
        _normalize([Message.user("q")], reasoning="keep")


@given(strategies.requests(well_formed=False), st.sampled_from(["drop", "as_text"]))
def test_any_request_comes_out_keeping_the_rules_and_stays_put(request: Request, reasoning: str) -> None:
    ready = normalize_request(request, ACME, codec="acme-chat", reasoning=reasoning)  # type: ignore[arg-type]
    again = normalize_request(ready.request, ACME, codec="acme-chat", reasoning=reasoning)  # type: ignore[arg-type]
    assert again.request is ready.request and again.warnings == []
    fixed = ready.request.messages
    for i, message in enumerate(fixed):
        calls = sorted(p.id for p in message.parts if isinstance(p, ToolUse)) if message.role == "assistant" else []
        if calls:
            following = [p.tool_use_id for m in fixed[i + 1 : i + 2] for p in m.parts if isinstance(p, ToolResult)]
            assert sorted(following) == calls
    calls_before = sum(isinstance(p, ToolUse) for m in request.messages if m.role == "assistant" for p in m.parts)
    calls_after = sum(isinstance(p, ToolUse) for m in fixed if m.role == "assistant" for p in m.parts)
    assert calls_after == calls_before  # calls are never dropped, only answered


def _keeps_search(part: ToolResult) -> bool:
    return part.name == "search"


@pytest.mark.parametrize(
    ("result_names", "expected"),
    [
        (False, ["messages[2].parts[0].name", "messages[6].parts[0].name"]),  # no result name on the wire
        (True, []),  # every result carries its own name
        (_keeps_search, ["messages[6].parts[0].name"]),  # the wire sends this one's name, not the other's
    ],
)
def test_a_result_named_unlike_its_call_is_reported_where_the_target_drops_the_name(
    result_names: bool | Callable[[ToolResult], bool], expected: list[str]
) -> None:
    request = Request(
        model="m",
        messages=[
            Message.user(Text(text="hi")),
            Message.assistant(ToolUse(id="a", name="lookup", input={})),
            Message.tool(ToolResult(tool_use_id="a", name="search", content="1")),
            Message.assistant(ToolUse(id="b", name="lookup", input={})),
            Message.tool(ToolResult(tool_use_id="b", name="lookup", content="2")),
            Message.assistant(ToolUse(id="c", name="lookup", input={})),
            Message.tool(ToolResult(tool_use_id="c", name="fetch", content="3")),
        ],
    )
    rules = TurnRules(accepts_thinking=own_thinking("acme"), result_names=result_names)
    encoded = encode_with_rules(request, rules, _fake_encode, codec="acme-chat", strict=False, reasoning="drop")
    lost = [w for w in encoded.warnings if w.path.endswith(".name")]
    assert [w.path for w in lost] == expected
    assert all((w.part_type, w.action) == ("tool_result", "dropped") for w in lost if isinstance(w, LossyEncode))
