"""Converse's rules beyond types (``_rules.py``): user and assistant turns alternate, so a turn's
results reach Bedrock in one user message."""

from __future__ import annotations

from typing import Any

import interlingua as il
from interlingua.testing import check_rules

BEDROCK = il.get_codec("bedrock-converse")
CHAT = il.get_codec("openai-chat")


def _call(call_id: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": "weather", "arguments": '{"city": "Oslo"}'}}


PARALLEL = {  # an OpenAI chat log: two parallel calls, one tool message for each result
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "Weather in Oslo, twice?"},
        {"role": "assistant", "content": None, "tool_calls": [_call("call_a"), _call("call_b")]},
        {"role": "tool", "tool_call_id": "call_a", "content": "rain, 7C"},
        {"role": "tool", "tool_call_id": "call_b", "content": "rain, 8C"},
    ],
}


def _shape(body: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(m["role"], [next(iter(block)) for block in m["content"]]) for m in body["messages"]]


def test_parallel_tool_results_reach_bedrock_in_one_user_turn() -> None:
    encoded = BEDROCK.encode_request(CHAT.decode_request(PARALLEL))
    assert _shape(encoded.body) == [
        ("user", ["text"]),
        ("assistant", ["toolUse", "toolUse"]),
        ("user", ["toolResult", "toolResult"]),
    ]
    results = encoded.body["messages"][2]["content"]
    assert [r["toolResult"]["toolUseId"] for r in results] == ["call_a", "call_b"]
    assert encoded.warnings == []  # joining the results loses nothing
    assert check_rules("bedrock-converse", encoded.body) == []


def test_results_out_of_the_calls_order_are_gathered_in_it() -> None:
    """The writer joins tool messages as they come (``joins_results``) only where they come in
    the calls' order; otherwise the turn rules' repair gathers them, in that order."""
    calls, first, second = PARALLEL["messages"][1:]
    body = {**PARALLEL, "messages": [PARALLEL["messages"][0], calls, second, first]}
    encoded = BEDROCK.encode_request(CHAT.decode_request(body))
    assert [r["toolResult"]["toolUseId"] for r in encoded.body["messages"][2]["content"]] == ["call_a", "call_b"]
    assert encoded.body == BEDROCK.encode_request(CHAT.decode_request(PARALLEL)).body
    assert check_rules("bedrock-converse", encoded.body) == []


def test_a_user_turn_after_the_results_joins_them_so_turns_still_alternate() -> None:
    body = {**PARALLEL, "messages": [*PARALLEL["messages"], {"role": "user", "content": "And tomorrow?"}]}
    encoded = BEDROCK.encode_request(CHAT.decode_request(body))
    assert _shape(encoded.body)[2:] == [("user", ["toolResult", "toolResult", "text"])]
    assert encoded.warnings == []
    assert check_rules("bedrock-converse", encoded.body) == []


def test_the_rule_flags_two_turns_of_one_role_in_a_row() -> None:
    body = {
        "messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {"role": "user", "content": [{"text": "again"}]},
        ]
    }
    assert check_rules("bedrock-converse", body) == ["messages[1]: a second user turn in a row"]


def test_every_row_of_the_table_names_its_source() -> None:
    table = BEDROCK.rules.table  # type: ignore[attr-defined]  # every codec here has its turn rules
    assert [rule.name for rule in table] == ["roles-alternate", "tool-use-ids", "tool-names", "own-reasoning"]
    assert all(rule.source.startswith("https://") for rule in table)


def test_a_system_turn_mid_conversation_sent_as_user_joins_the_user_turn_before_it() -> None:
    """Converse takes system blocks only before the conversation: a later one goes as a user turn
    (reported), and after a user turn it joins that one, so the turns still alternate."""
    turns = [il.Message.user("hi"), il.Message.assistant("hello"), il.Message.user("go"), il.Message.system("be brief")]
    request = il.Request(model="anthropic.claude-sonnet-4-5", messages=turns)
    encoded = BEDROCK.encode_request(request)
    assert encoded.body["messages"][2] == {"role": "user", "content": [{"text": "go"}, {"text": "be brief"}]}
    assert [w.path for w in encoded.warnings] == ["messages[3]"]
    assert check_rules("bedrock-converse", encoded.body) == []
