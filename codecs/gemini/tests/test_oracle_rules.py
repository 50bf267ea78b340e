"""generateContent's types and rules, as this codec's oracle (``_oracle.py``) states them."""

from __future__ import annotations

from interlingua.testing import check_rules, validate_wire


def test_gemini_models_forbid_extra_keys_and_accept_snake_case() -> None:
    good = {"contents": [{"role": "user", "parts": [{"text": "hi", "thought_signature": "c2ln"}]}]}
    assert validate_wire("gemini", "request", good) == []
    bad = {"contents": [{"role": "user", "parts": [{"txt": "hi"}]}], "generation_config": {}}
    assert validate_wire("gemini", "request", bad) == [
        "contents[0].parts[0].txt: unknown key (not in Part)",
        "generation_config: unknown key (not a generateContent request field)",
    ]
    assert (
        validate_wire("gemini", "error", {"error": {"code": 429, "message": "m", "status": "RESOURCE_EXHAUSTED"}}) == []
    )


def test_gemini_function_responses_match_calls_and_gemini_3_needs_signatures() -> None:
    call = {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}, {"functionCall": {"name": "g"}}]}
    answer = {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]}
    body = {"contents": [{"role": "user", "parts": [{"text": "q"}]}, call, answer]}
    assert check_rules("gemini", body, model="gemini-2.5-flash") == [
        "contents[2]: 1 functionResponse parts answer 2 functionCall parts"
    ]
    assert check_rules("gemini", body, model="gemini-3-pro-preview")[1:] == [
        "contents[1]: the first functionCall of a current-turn step needs a thoughtSignature (Gemini 3)"
    ]
    assert check_rules("gemini", body, model="gemini-3-pro-image-preview") == [  # takes unsigned calls
        "contents[2]: 1 functionResponse parts answer 2 functionCall parts"
    ]


def test_consecutive_model_contents_are_one_turn_whose_calls_one_content_answers() -> None:
    """Recorded: two model contents of one functionCall each, then both functionResponses in one
    user content, answered 200 (pydantic-ai corpus, test_cross_provider_capability_replay_...)."""
    first = {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}
    second = {"role": "model", "parts": [{"functionCall": {"name": "g", "args": {}}}]}
    one = {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]}
    both = {"role": "user", "parts": [*one["parts"], {"functionResponse": {"name": "g", "response": {}}}]}
    question = {"role": "user", "parts": [{"text": "q"}]}
    assert check_rules("gemini", {"contents": [question, first, second, both]}, model="gemini-2.5-flash") == []
    assert check_rules("gemini", {"contents": [question, first, second, one]}, model="gemini-2.5-flash") == [
        "contents[3]: 1 functionResponse parts answer 2 functionCall parts"
    ]
