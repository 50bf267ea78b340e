"""The Chat Completions rules beyond types, as this codec's oracle (``chat/_oracle.py``) states them."""

from __future__ import annotations

from interlingua.testing import check_rules


def test_openai_chat_tool_messages_follow_their_calls() -> None:
    calls = {
        "role": "assistant",
        "tool_calls": [
            {"id": "a" * 41, "type": "function", "function": {"name": "f", "arguments": "{}"}},
            {"id": "b", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        ],
    }
    body = {
        "model": "m",
        "messages": [calls, {"role": "tool", "tool_call_id": "b", "content": "x"}, {"role": "user", "content": "y"}],
    }
    assert check_rules("openai-chat", body) == [
        "messages[0].tool_calls[0].id: does not match [^\\n]{0,40}",
        f"messages[0]: tool calls {['a' * 41]!r} not answered before messages[2]",
    ]
    stray = {"model": "m", "messages": [{"role": "tool", "tool_call_id": "z", "content": "x"}]}
    assert check_rules("openai-chat", stray) == ["messages[0]: tool message answers no pending tool call ('z')"]
