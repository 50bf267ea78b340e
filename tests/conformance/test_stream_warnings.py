"""Nothing lost without a word, for streams (a gateway answering in another vendor's format).

Every recorded real stream of each wire (``shared/fixtures/real`` and the streamed answers of
``shared/fixtures/lingua``) and every golden stream of ``fixtures/<wire>/stream/`` is decoded by
its own codec and re-encoded by each other codec; the target decodes its own stream back. Each
difference between the two accumulated answers (the parts by type, thinking text, tool calls,
citations, usage, stop reason) must be covered by a warning on the encoded stream that names
what was lost, and every warning's path names an event of the stream. A file holding several
answers one after another is not one stream and is left out.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from interlingua import (
    DecodedStream,
    EncodedStream,
    LossyEncode,
    MessageEnd,
    Response,
    ServerSentEvent,
    SSEEvent,
    StreamAccumulator,
    StreamEvent,
    Text,
    Thinking,
    ToolUse,
    UnsupportedSetting,
    get_codec,
    parse_sse,
    render_sse,
)
from interlingua.testing import corpus_missing, lingua_fixtures_dir, read_stream_file, real_fixtures

from .conftest import CONFORMANCE, LINGUA_WIRES, WIRES, golden, real_folder

_EVENT_PATH = re.compile(r"events\[(\d+)\](\.|$)")


STREAM_FOLDERS = LINGUA_WIRES | {
    folder: wire for wire, data in CONFORMANCE.items() for folder in data.lingua_stream_folders
}
"""Lingua corpus provider folder -> the wire whose streams it holds."""


def _sources() -> list[tuple[str, Path]]:
    found = [
        (wire, path)
        for wire in WIRES
        for path in real_fixtures(real_folder(wire), "stream", CONFORMANCE[wire].stream_files)
    ]
    found += [(wire, path) for wire in WIRES for path in golden(wire, "stream", "*.sse")]
    if corpus_missing("lingua") is not None:  # a clone without the corpus: its goldens alone
        return found
    lingua = sorted(lingua_fixtures_dir().glob("*/*/*response-streaming.json"))
    return found + [(STREAM_FOLDERS[path.parent.name], path) for path in lingua if path.parent.name in STREAM_FOLDERS]


def _lingua_events(path: Path) -> list[SSEEvent]:
    """The lingua corpus keeps a stream as the list of its events' data payloads; a Converse
    event is boto3's ``{name: payload}``, named on the wire by its frame."""
    payloads = json.loads(path.read_text(encoding="utf-8"))
    if path.parent.name == "bedrock":
        return [ServerSentEvent(data=json.dumps(body), event=name) for p in payloads for name, body in p.items()]
    return [ServerSentEvent(data=json.dumps(p), event=p.get("type") if isinstance(p, dict) else None) for p in payloads]


def _name(path: Path) -> str:
    return f"{path.parts[-3]}/{path.parts[-2]}/{path.stem}" if path.suffix == ".json" else path.name


def _decode(wire: str, path: Path) -> list[StreamEvent]:
    codec = get_codec(wire)
    if path.suffix == ".json":
        decoded = codec.decode_stream(_lingua_events(path))
    elif path.name.endswith(".eventstream.bin"):
        decoded = codec.decode_event_stream([path.read_bytes()])  # type: ignore[attr-defined]  # Converse's own
    elif path.name.endswith(".json-array.txt"):
        decoded: DecodedStream = codec.decode_json_array_stream([path.read_bytes()])  # type: ignore[attr-defined]  # gemini's own
    else:
        decoded = codec.decode_stream(read_stream_file(path))
    events = list(decoded)
    assert decoded.warnings == []  # one candidate, one choice: nothing left out
    return events


def _one_answer(wire: str, path: Path) -> bool:
    """A recorded file that holds several answers one after another (an agent's turns) is not
    one stream: a target's reader stops at the first end."""
    return sum(isinstance(e, MessageEnd) for e in _decode(wire, path)) <= 1


def _answer(events: list[StreamEvent]) -> Response:
    """The answer the events add up to; a stream that carried an error gives what came before."""
    acc = StreamAccumulator()
    for event in events:
        acc.add(event)
    return acc.snapshot() if acc.error is not None else acc.response()


def _facets(response: Response) -> dict[str, Any]:
    """What a gateway's caller reads from an answer, by the warning key that must cover a change.
    An absent usage counter is 0 (wires differ in which zeros they write)."""
    parts = response.message.parts
    facets: dict[str, Any] = {f"part:{kind}": count for kind, count in Counter(p.type for p in parts).items()}
    facets["text"] = "".join(p.text for p in parts if isinstance(p, Text))
    facets["thinking"] = "".join(p.text for p in parts if isinstance(p, Thinking))
    facets["tool_use"] = [(p.name, p.input) for p in parts if isinstance(p, ToolUse)]
    facets["citations"] = sum(len(p.citations) for p in parts if isinstance(p, Text))
    usage = response.usage
    for field in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens"):
        facets[f"usage:{field}"] = getattr(usage, field) or 0
    for key, count in usage.extra.items():
        facets[f"usage.extra:{key}"] = count
    facets["stop_reason"] = response.stop_reason
    return facets


def _covered(facet: str, warnings: list[Any]) -> bool:
    """A warning that names the lost thing: its part type (or the usage key, the stop reason)."""
    kind, _, key = facet.partition(":")
    for warning in warnings:
        named = warning.part_type if isinstance(warning, LossyEncode) else warning.setting
        if kind == "usage.extra" and warning.path.endswith(f"usage.extra.{key}"):
            return True
        if kind == "usage" and named == "usage" and (key in warning.path or "extra" not in warning.path):
            return True
        if kind in ("stop_reason", "citations") and named == kind:
            return True
        if kind == "part" and named == key:
            return True
        if kind in ("text", "thinking", "tool_use") and named == kind:
            return True
    return False


def _reason(facet: str, warnings: list[Any]) -> bool:
    """Thinking text lost with its part is covered by the part's warning."""
    if facet in ("thinking", "text", "tool_use"):
        return _covered(f"part:{facet}", warnings) or _covered(facet, warnings)
    return _covered(facet, warnings)


_KNOWN: dict[tuple[str, str], Any] = {}
"""Crossings known to fail, by (source file, target wire), each with its reason (none today: the
Responses encoder writes interleaved parts one item at a time since issue 39)."""
SOURCES = [(wire, path) for wire, path in _sources() if _one_answer(wire, path)]
CASES = [
    pytest.param(
        wire,
        path,
        target,
        id=f"{wire}/{_name(path)}->{target}",
        marks=_KNOWN.get((path.name, target), ()),
    )
    for wire, path in SOURCES
    for target in WIRES
    if target != wire
]


def _crossing(wire: str, path: Path, target: str) -> tuple[list[StreamEvent], EncodedStream, list[str]]:
    """The source's events, the target's encoded stream (iterated), and what changed on the way."""
    events = _decode(wire, path)
    codec = get_codec(target)
    encoded: EncodedStream = codec.encode_stream(events)
    wire_events = list(encoded)
    back = list(codec.decode_stream(parse_sse([b"".join(render_sse(wire_events))])))
    before, after = _facets(_answer(events)), _facets(_answer(back))
    # A counter the target derives itself (Gemini's totalTokenCount) is a gain, not a loss.
    return events, encoded, sorted(k for k in before if before[k] != after.get(k))


@pytest.mark.parametrize(("wire", "path", "target"), CASES)
def test_every_difference_after_a_stream_crossing_has_a_warning(wire: str, path: Path, target: str) -> None:
    events, encoded, lost = _crossing(wire, path, target)
    warnings = encoded.warnings
    assert [k for k in lost if not _reason(k, warnings)] == [], [str(w) for w in warnings]
    assert all(isinstance(w, LossyEncode | UnsupportedSetting) and w.codec == target for w in warnings)
    for warning in warnings:
        found = _EVENT_PATH.match(warning.path)
        assert found is not None and int(found[1]) < len(events), warning.path


@pytest.mark.parametrize(("wire", "path", "target"), CASES)
def test_a_stream_reports_every_kind_of_loss_its_answer_reports(wire: str, path: Path, target: str) -> None:
    """The same content, streamed or whole, gives the same kinds of warning (a stream may say
    more: its own losses, such as parts joined in one delta field)."""
    events, encoded, _ = _crossing(wire, path, target)
    whole = get_codec(target).encode_response(_answer(events))
    assert {_kind(w) for w in whole.warnings} - {_kind(w) for w in encoded.warnings} == set()


def _kind(warning: Any) -> tuple[str, str]:
    return warning.kind, warning.part_type if isinstance(warning, LossyEncode) else warning.setting


@pytest.mark.parametrize(("wire", "path"), SOURCES, ids=[f"{wire}/{_name(path)}" for wire, path in SOURCES])
def test_a_stream_re_encoded_by_its_own_codec_has_no_warning(wire: str, path: Path) -> None:
    """What the vendor sent passes unchanged and without a word (invariant 8, for streams)."""
    encoded = get_codec(wire).encode_stream(_decode(wire, path))
    list(encoded)
    assert encoded.warnings == []
