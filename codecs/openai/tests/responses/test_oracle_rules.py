"""The Responses API's rules beyond types, as this codec's oracle (``responses/_oracle.py``) states them."""

from __future__ import annotations

from interlingua.testing import check_rules


def test_openai_responses_outputs_follow_their_calls() -> None:
    body = {"model": "m", "input": [{"type": "function_call_output", "call_id": "c" * 65, "output": "x"}]}
    assert check_rules("openai-responses", body) == [
        "input[0].call_id: longer than 64 characters",
        f"input[0]: function_call_output for call {'c' * 65!r} that no earlier item made",
    ]
    assert check_rules("openai-responses", {**body, "previous_response_id": "resp_1"}) == [
        "input[0].call_id: longer than 64 characters"
    ]


def test_outputs_of_calls_in_stored_state_need_no_call_in_the_body() -> None:
    """A ``conversation`` holds its calls as a ``previous_response_id`` does (the pydantic-ai
    corpus's conversation-id continuation was answered 200)."""
    output = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    body = {"model": "m", "conversation": "conv_1", "input": [output]}
    assert check_rules("openai-responses", body) == []


def test_only_a_stored_reasoning_item_wants_an_output_item_after_it() -> None:
    user = {"role": "user", "content": "next"}
    id_less = {"type": "reasoning", "summary": [], "encrypted_content": "gAAAA"}
    foreign_id = {**id_less, "id": "84cf774d-60a1-4e20-85e3-4cf73ee18cd5"}  # another host's own id
    stored = {**id_less, "id": "rs_0123abcd"}
    assert check_rules("openai-responses", {"model": "m", "input": [id_less, user]}) == []
    assert check_rules("openai-responses", {"model": "m", "input": [foreign_id, user]}) == []
    assert check_rules("openai-responses", {"model": "m", "input": [stored, user]}) == [
        "input[0]: a stored reasoning item must be followed by the item it produced"
    ]
