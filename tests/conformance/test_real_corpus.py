"""Every recorded request of ``shared/fixtures/real``, decoded by its own codec and encoded by
every other: the body passes the SDK oracle and the vendor rules, and the warnings appear
exactly where the target's capabilities say lossy."""

from __future__ import annotations

from functools import cache

import pytest

from interlingua import Encoded, Request
from interlingua.testing import check_rules, skip_without_corpus

from ._features import judge
from .conftest import BY_ID, REAL, REAL_SOURCES, TARGETS, Recorded, decode_recorded, oracle, rule_table

CASES = [(recorded, target.id) for recorded in REAL for target in TARGETS if target.id != REAL_SOURCES[recorded.wire]]
IDS = [f"{recorded.id}->{target}" for recorded, target in CASES]


@cache
def request_for(recorded: Recorded, target: str) -> Request:
    """The recorded conversation, now addressed to the target's model."""
    return decode_recorded(recorded.wire, recorded.path).model_copy(update={"model": BY_ID[target].model})


@cache
def encoded(recorded: Recorded, target: str) -> Encoded:
    return BY_ID[target].codec.encode_request(request_for(recorded, target))


def test_the_recorded_corpus_is_there() -> None:
    skip_without_corpus()
    assert {r.wire for r in REAL} == set(REAL_SOURCES)
    assert len(REAL) >= 80


@pytest.mark.parametrize(("recorded", "target"), CASES, ids=IDS)
def test_cross_encoded_body_passes_the_sdk_oracle(recorded: Recorded, target: str) -> None:
    assert oracle(BY_ID[target], encoded(recorded, target).body) == []


@pytest.mark.parametrize(("recorded", "target"), CASES, ids=IDS)
def test_cross_encoded_body_keeps_the_vendor_rules(recorded: Recorded, target: str) -> None:
    spec = BY_ID[target]
    assert check_rules(spec.codec.name, encoded(recorded, target).body, model=spec.model, table=rule_table(spec)) == []


@pytest.mark.parametrize(("recorded", "target"), CASES, ids=IDS)
def test_cross_encoded_warnings_appear_exactly_where_capabilities_say_lossy(recorded: Recorded, target: str) -> None:
    spec = BY_ID[target]
    assert judge(spec.codec, request_for(recorded, target), encoded(recorded, target).warnings) == []

