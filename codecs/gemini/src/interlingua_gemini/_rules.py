"""The generateContent rules beyond types, one row each with its source, and the turn rules the
encoder keeps from them (read by ``_codec.py`` and the oracle)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import Rule, RuleTable, TurnRules, own_thinking

from ._parts import PROVIDER


def _contents(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = body.get("contents")
    return [c if isinstance(c, Mapping) else {} for c in found] if isinstance(found, list) else []


def _parts(content: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = content.get("parts")
    return [p for p in found if isinstance(p, Mapping)] if isinstance(found, list) else []


def _turns(body: Mapping[str, Any]) -> list[tuple[int, str | None, list[Mapping[str, Any]]]]:
    """The conversation as the API reads it: consecutive contents of one role are one turn
    (index of its first content, role, parts). A recorded request with two model contents in a row,
    both calling, and one user content answering both, was answered 200 (pydantic-ai's
    cross-provider capability replay)."""
    turns: list[tuple[int, str | None, list[Mapping[str, Any]]]] = []
    for index, content in enumerate(_contents(body)):
        role = content.get("role")
        if turns and turns[-1][1] == role:
            turns[-1][2].extend(_parts(content))
        else:
            turns.append((index, role, list(_parts(content))))
    return turns


def _responses_answer_calls(body: Mapping[str, Any]) -> list[str]:
    """As many functionResponse parts as the model turn before made functionCalls."""
    problems = []
    turns = _turns(body)
    for k, (index, _, parts) in enumerate(turns):
        answers = sum(1 for p in parts if "functionResponse" in p)
        if not answers:
            continue
        before = turns[k - 1] if k > 0 else (0, None, [])
        calls = sum(1 for p in before[2] if "functionCall" in p) if before[1] == "model" else 0
        if answers != calls:
            problems.append(f"contents[{index}]: {answers} functionResponse parts answer {calls} functionCall parts")
    return problems


def _first_call_signed(body: Mapping[str, Any]) -> list[str]:
    """The first functionCall of each model step in the current turn carries a thoughtSignature."""
    contents = _contents(body)
    turn_start = 0
    for index, content in enumerate(contents):
        if content.get("role") != "model" and any("functionResponse" not in p for p in _parts(content)):
            turn_start = index + 1
    problems = []
    for index in range(turn_start, len(contents)):
        content = contents[index]
        if content.get("role") != "model":
            continue
        first_call = next((p for p in _parts(content) if "functionCall" in p), None)
        if first_call is not None and not first_call.get("thoughtSignature"):
            problems.append(
                f"contents[{index}]: the first functionCall of a current-turn step needs a thoughtSignature (Gemini 3)"
            )
    return problems


RULES: RuleTable = (
    Rule(
        "responses-answer-calls",
        "a turn's functionResponse parts are as many as the functionCall parts of the model turn before ('Please "
        "ensure that the number of function response parts is equal to the number of function call parts of the "
        "function call turn'): a turn's results go in one content",
        "https://github.com/google-gemini/gemini-cli/issues/4217",
        _responses_answer_calls,
    ),
    Rule(
        "first-call-signed",
        "Gemini 3 refuses a current-turn step whose first functionCall has no thoughtSignature (Gemini 3 Pro Image "
        "does not enforce it); foreign calls get the documented placeholder signature",
        "https://ai.google.dev/gemini-api/docs/thought-signatures",
        _first_call_signed,
        models=r"gemini-3(?!.*-image)",
    ),
    Rule(
        "function-names",
        "a function name starts with a letter or an underscore, then letters, digits, underscores, dots, colons "
        "and dashes, at most 128",
        "https://pub.dev/documentation/googleapis/17.0.0/aiplatform_v1/GoogleCloudAiplatformV1FunctionDeclaration/name.html",
    ),
    Rule(
        "own-thoughts",
        "only Gemini's own thoughts (with their thoughtSignature) go back, to the model that made them",
        "https://ai.google.dev/gemini-api/docs/thought-signatures",
    ),
)


def turn_rules() -> TurnRules:
    """What the encoder demands of a transcript, from the rows above: it takes any call id, and
    every functionResponse names its function."""
    return TurnRules(
        accepts_thinking=own_thinking(PROVIDER),
        one_results_message=True,
        joins_results=True,  # encode_messages puts consecutive tool messages in one content
        tool_names=r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}",
        result_names=True,
        # Consecutive model contents are one turn: a recorded request with two model contents of
        # one functionCall each, then one user content of both functionResponses, was answered
        # 200 (pydantic-ai corpus, test_cross_provider_capability_replay_..._gemini-3-flash-preview__3).
        joins_turns=True,
        table=RULES,
    )
