"""Wire detection never raises an untyped error: every installed codec's ``sniff`` and
``sniff_stream``, asked about mutated real bodies (values retyped, nulled, keys deleted, lists cut)
and about bodies whose sniffed keys hold values of every JSON type, returns a claim or None; and
``detect_body`` answers with a Detected or a DetectError. Before the fix, Chat's sniffer raised a
bare TypeError on an unhashable ``role`` and Cohere's on an unhashable ``finish_reason`` or a
``messages`` that is a number (issue 40: 786 of 354,720 fuzzed inputs)."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interlingua as il
from interlingua.cli.detect import DetectError, detect_body, detect_stream
from interlingua.testing import mutations

from .conftest import FIXTURES

SNIFFED_KEYS = [
    *("messages", "role", "finish_reason", "object", "choices", "tools", "content", "type", "input"),
    *("contents", "candidates", "output", "message", "system", "model", "documents", "stopReason", "parts"),
]
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(SNIFFED_KEYS), inner, max_size=3),
    max_leaves=8,
)


def _sniffers() -> list[Any]:
    return [il.get_codec(name) for name in il.codecs()]


def _detect(body: Any) -> None:
    for codec in _sniffers() if isinstance(body, dict) else ():  # a sniffer takes an object (detect_body checks)
        claim = codec.sniff(body)  # a codec's own sniffer, not behind detection's guard
        assert claim is None or isinstance(claim, il.kit.Sniffed)
    with contextlib.suppress(DetectError):
        detect_body(body)


def test_the_sniffers_of_chat_and_cohere_take_unhashable_values() -> None:
    _detect({"messages": [{"role": ["user"], "content": "hi"}]})
    _detect({"finish_reason": {"x": 1}, "message": {}})
    _detect({"messages": 7, "model": "m"})


@pytest.mark.parametrize("wire", il.codecs())
def test_mutated_real_bodies(wire: str) -> None:
    corpus = mutations.load_corpus(wire, FIXTURES / wire)
    rng = random.Random(wire)
    bodies = corpus.requests + corpus.responses
    assert bodies
    for _ in range(600):
        _detect(mutations.mutate_body(rng.choice(bodies), rng))


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(SNIFFED_KEYS), JSON, max_size=5))
def test_sniffed_keys_holding_any_json(body: dict[str, Any]) -> None:
    _detect(body)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", "message", "message_start", "content-delta"]), JSON), max_size=4))
def test_stream_sniffers_take_any_event_data(events: list[tuple[str, Any]]) -> None:
    for codec in _sniffers():
        claim = codec.sniff_stream(events)
        assert claim is None or isinstance(claim, il.kit.Sniffed)
    with contextlib.suppress(DetectError):
        detect_stream(events)
