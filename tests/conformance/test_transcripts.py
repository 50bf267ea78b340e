"""Every transcript of ``fixtures/transcripts/`` through every codec: the persisted form is
stable, each body passes the SDK oracle and the vendor rules, warnings appear exactly where the
target's capabilities say lossy, and the codec's own decode gives back what it carries natively."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from interlingua import PART_TYPES, SETTINGS, Encoded, Request, Transcript
from interlingua.testing import check_rules

from ._compare import missing_parts
from ._features import features, judge
from .conftest import (
    BY_ID,
    REQUEST_KEY,
    TARGET_IDS,
    TRANSCRIPTS,
    TRANSCRIPTS_DIR,
    decode_with,
    oracle,
    rule_table,
    transcript_request,
)

STEMS = [p.stem for p in TRANSCRIPTS]


@cache
def request_for(stem: str, target_id: str) -> Request:
    return transcript_request(stem, BY_ID[target_id].model)


@cache
def encoded(stem: str, target_id: str) -> Encoded:
    return BY_ID[target_id].codec.encode_request(request_for(stem, target_id))


# --- the persisted form ------------------------------------------------------------------------


def test_the_corpus_has_at_least_thirty_transcripts() -> None:
    assert len(STEMS) >= 30


def test_the_corpus_exercises_every_part_type_and_setting() -> None:
    seen = {f.key for stem in STEMS for f in features(transcript_request(stem, "m"))}
    assert sorted(set(PART_TYPES) - seen) == []
    assert sorted(set(SETTINGS) - seen) == []


@pytest.mark.parametrize("stem", STEMS)
def test_transcript_round_trips_through_its_persisted_forms(stem: str) -> None:
    text = (TRANSCRIPTS_DIR / f"{stem}.json").read_text(encoding="utf-8")
    transcript = Transcript.loads(text)
    dumped = transcript.dumps()
    assert json.loads(dumped) == json.loads(text)  # nothing added, nothing dropped, defaults left out
    assert Transcript.loads(dumped) == transcript
    assert Transcript.loads(dumped).dumps() == dumped
    assert Transcript.loads_jsonl(transcript.dumps_jsonl()) == transcript


@pytest.mark.parametrize("stem", STEMS)
def test_transcript_names_its_request_settings(stem: str) -> None:
    settings = Transcript.loads((TRANSCRIPTS_DIR / f"{stem}.json").read_bytes()).metadata[REQUEST_KEY]
    request = Request.model_validate(settings)
    assert request.messages == []  # the messages are the transcript's, never repeated here
    assert request.max_tokens is not None


# --- every transcript through every codec ------------------------------------------------------

PAIRS = [(stem, target) for stem in STEMS for target in TARGET_IDS]
PAIR_IDS = [f"{stem}->{target}" for stem, target in PAIRS]


@pytest.mark.parametrize(("stem", "target"), PAIRS, ids=PAIR_IDS)
def test_encoded_body_passes_the_sdk_oracle(stem: str, target: str) -> None:
    assert oracle(BY_ID[target], encoded(stem, target).body) == []


@pytest.mark.parametrize(("stem", "target"), PAIRS, ids=PAIR_IDS)
def test_encoded_body_keeps_the_vendor_rules(stem: str, target: str) -> None:
    spec = BY_ID[target]
    assert check_rules(spec.codec.name, encoded(stem, target).body, model=spec.model, table=rule_table(spec)) == []


@pytest.mark.parametrize(("stem", "target"), PAIRS, ids=PAIR_IDS)
def test_warnings_appear_exactly_where_capabilities_say_lossy(stem: str, target: str) -> None:
    spec = BY_ID[target]
    assert judge(spec.codec, request_for(stem, target), encoded(stem, target).warnings) == []


@pytest.mark.parametrize(("stem", "target"), PAIRS, ids=PAIR_IDS)
def test_decoding_the_body_gives_back_every_native_part(stem: str, target: str) -> None:
    spec = BY_ID[target]
    result = encoded(stem, target)
    decoded = decode_with(spec, result.body)
    assert missing_parts(spec.codec, request_for(stem, target), decoded, result.warnings) == []


# --- a vendor's own echoes go back byte for byte, detours included -----------------------------

ECHO_TARGETS = ("anthropic-messages", "openai-responses", "gemini", "openrouter")


def _own_echo_strings(request: Request, provider: str, model: str) -> list[str]:
    """Every string in ``provider``'s echoes on the request's parts, when recorded from
    ``model`` (or without a model), plus the ids of calls that carry such an echo."""
    found: list[str] = []
    for message in request.messages:
        for part in message.parts:
            echo = part.echo(provider)
            if echo is None or (echo.model is not None and echo.model != model):
                continue
            found.extend(_strings(echo.data))
            if part.type == "tool_use":
                found.append(part.id)
    return found


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


ECHO_PAIRS = [
    (stem, target)
    for stem in STEMS
    for target in ECHO_TARGETS
    if _own_echo_strings(transcript_request(stem, None), BY_ID[target].codec.provider, BY_ID[target].model)
]


@pytest.mark.parametrize(("stem", "target"), ECHO_PAIRS, ids=[f"{s}->{t}" for s, t in ECHO_PAIRS])
def test_own_echoes_go_back_byte_for_byte(stem: str, target: str) -> None:
    """A conversation started on vendor A, continued on B and back on A: A's signatures, item
    ids and encrypted reasoning reach A's body unchanged (issue 8, switch tests)."""
    spec = BY_ID[target]
    sent = set(_strings(encoded(stem, target).body))
    wanted = _own_echo_strings(request_for(stem, target), spec.codec.provider, spec.model)
    assert [s for s in wanted if s not in sent] == []

