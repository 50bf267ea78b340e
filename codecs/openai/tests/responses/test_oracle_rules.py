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
