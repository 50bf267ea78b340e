"""Tool id rules are the host's (its dialect's), not the wire's: api.openai.com's 40 characters and
Mistral's 9 letters and digits hold there only, and OpenRouter, which hands out longer ids itself,
gets every id back as it gave it. Held on pydantic-ai's recorded OpenRouter calls."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import (
    assert_request_round_trip,
    assert_response_round_trip,
    corpus_missing,
    real_fixtures_dir,
    skip_without_corpus,
)

OPENROUTER = il.get_codec("openai-chat", dialect="openrouter")
OPENAI = il.get_codec("openai-chat")
LONG_ID = "toolu_vrtx_015QAXScZzRDPttiPoc34AdD_0123456789abcdef"  # 51 characters


@cache
def _openrouter_cases() -> tuple[Path, ...]:
    """The pydantic-ai corpus's openai-chat calls whose host is OpenRouter and that it accepted."""
    if corpus_missing("real") is not None:
        return ()
    root = real_fixtures_dir().parent / "pydantic-ai" / "openai-chat"
    found = []
    for case in sorted(root.glob("*/meta.json")):
        meta = json.loads(case.read_text())
        if meta.get("dialect") == "openrouter" and 200 <= meta["status"] < 300:
            found.append(case.parent)
    return tuple(found)


def _load(case: Path, name: str) -> Any:
    return json.loads((case / name).read_text())


def test_the_corpus_holds_openrouter_calls_with_tool_calls() -> None:
    skip_without_corpus()
    cases = _openrouter_cases()
    assert len(cases) >= 20
    answers = [_load(case, "response.json") for case in cases if (case / "response.json").exists()]
    assert any("tool_calls" in json.dumps(answer) for answer in answers)


@pytest.mark.parametrize("case", _openrouter_cases(), ids=lambda p: p.name)
def test_a_recorded_openrouter_request_round_trips_in_its_dialect(case: Path) -> None:
    assert_request_round_trip(OPENROUTER, _load(case, "request.json"))


def _with_long_id() -> tuple[dict[str, Any], dict[str, Any]]:
    """The recorded OpenRouter tool call answer with an id over 40 characters, and the request
    that answers it (the recorded question, the call, its result)."""
    skip_without_corpus()
    case = next(c for c in _openrouter_cases() if c.name.endswith("test_openrouter_tool_calling"))
    answer = _load(case, "response.json")
    call = answer["choices"][0]["message"]["tool_calls"][0]
    call["id"] = LONG_ID
    request = copy.deepcopy(_load(case, "request.json"))
    assistant = {"role": "assistant", "content": "", "tool_calls": [{k: v for k, v in call.items() if k != "index"}]}
    request["messages"] += [assistant, {"role": "tool", "tool_call_id": LONG_ID, "content": "0.2697"}]
    return answer, request


def test_openrouter_takes_back_the_long_ids_it_hands_out() -> None:
    answer, request = _with_long_id()
    assert_response_round_trip(OPENROUTER, answer)
    assert OPENROUTER.decode_response(answer).message.parts[-1].id == LONG_ID  # type: ignore[union-attr]
    assert_request_round_trip(OPENROUTER, request)
    assert OPENROUTER.rules.table and all(  # type: ignore[attr-defined]  # every codec here has them
        rule.name != "tool-call-ids" for rule in OPENROUTER.rules.table  # type: ignore[attr-defined]
    )


def test_api_openai_com_maps_the_same_id_to_one_of_at_most_40_characters_both_ways() -> None:
    _, request = _with_long_id()
    encoded = OPENAI.encode_request(OPENROUTER.decode_request(request))
    sent = encoded.body["messages"][-2]["tool_calls"][0]["id"]
    assert len(sent) <= 40 and sent != LONG_ID
    assert encoded.body["messages"][-1]["tool_call_id"] == sent
    assert encoded.warnings == []  # the mapping is lossless: the codec maps it back when it decodes
    assert OPENAI.decode_request(encoded.body).messages[-2].parts[-1].id == LONG_ID  # type: ignore[union-attr]


@pytest.mark.parametrize("dialect", ["openai", "mistral"])
def test_each_id_rule_names_its_source(dialect: str) -> None:
    table = il.get_codec("openai-chat", dialect=dialect).rules.table  # type: ignore[attr-defined]
    (rule,) = [rule for rule in table if rule.name == "tool-call-ids"]
    assert rule.source.startswith("https://")
