"""No false alarms (DESIGN.md invariant 2, "Warnings are true"): what every target carries draws
no warning anywhere.

- Hypothesis properties: requests built only of the features every target's capability matrix
  declares ``native`` (:data:`CARRIED`) encode to every target with no warning at all (notes such
  as UnknownModel aside); and wire bodies spelling those settings in any row the wire's coverage
  declaration maps into them (Chat's ``max_tokens`` and ``max_completion_tokens``, Gemini's
  ``generationConfig.maxOutputTokens``, ...), decoded by their own codec, do too.
- Ordinary conversions: every decoded body of the golden fixtures and the three real corpora
  whose settings the source wire's coverage declaration maps into the IR (``ir`` rows) and whose
  features the target declares native crosses to that target with no warning.
- The cases the issue names: a spelling a decoder keeps for its own round trip (``max_tokens``
  beside ``max_completion_tokens``, a Gemini body's ``model``) is a private record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interlingua as il
from interlingua import SETTINGS, MediaSource, Message, Request, Text, Tool, ToolResult, ToolUse
from interlingua.testing import covering, skip_without_corpus, strategies

from ._crossings import crossings
from ._features import expectation, features
from .conftest import _MODEL_IN_URL, BY_ID, CONFORMANCE, TARGETS, Target, decode_with
from .coverage_doc import COVERAGE

ROOT = Path(__file__).resolve().parents[2]


def _carried_everywhere() -> frozenset[str]:
    """The part types and settings every target declares native (the row alone: foreign
    ``native`` parts and tools are another matter, and are not drawn)."""
    rows = set()
    for key in (*il.PART_TYPES, *SETTINGS):
        if all(
            (t.codec.capabilities.parts if key in il.PART_TYPES else t.codec.capabilities.settings)[key] == "native"
            for t in TARGETS
        ):
            rows.add(key)
    return frozenset(rows - {"native", "native_tools"})


CARRIED = _carried_everywhere()
UNKNOWN_MODEL = "model-1"  # no catalog rule applies, only a note: every warning left is the wire's


def test_the_rows_carried_everywhere_are_the_ones_the_property_draws() -> None:
    assert {
        "text",
        "image",
        "tool_use",
        "tool_result",
        "system",
        "tools",
        "max_tokens",
        "temperature",
        "top_p",
    } == CARRIED  # tool_choice: Cohere cannot force one named tool (its modes are drawn; see _settings)


# --- the property ----------------------------------------------------------------------------

_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
_words = strategies.texts.filter(lambda text: text.strip() == text and text.strip() != "")
_call_ids = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=9, max_size=9)
"""Ids every target takes as they are (Mistral's rule is the narrowest: nine letters and digits)."""
_SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


@st.composite
def _user_turn(draw: st.DrawFn) -> Message:
    parts: list[Any] = [Text(draw(_words))]
    if "image" in CARRIED and draw(st.booleans()):
        parts.insert(0, il.Image(MediaSource.from_base64("image/png", _PNG)))
    return Message(role="user", parts=parts)


@st.composite
def _tool_loop(draw: st.DrawFn, names: list[str]) -> list[Message]:
    """An assistant turn calling tools, one tool message answering each call by name, and the
    assistant's answer."""
    ids = draw(st.lists(_call_ids, min_size=1, max_size=2, unique=True))
    calls = [ToolUse(i, draw(st.sampled_from(names)), {"q": draw(_words)}) for i in ids]
    results = [ToolResult(call.id, call.name, draw(_words)) for call in calls]
    answer = Message.assistant(draw(_words))
    return [Message(role="assistant", parts=calls), Message(role="tool", parts=results), answer]


@st.composite
def carried_requests(draw: st.DrawFn) -> Request:
    """A well-formed conversation of the rows of :data:`CARRIED` only."""
    names = draw(st.lists(strategies.names, min_size=1, max_size=2, unique=True))
    tools: list[Tool] = []
    if "tools" in CARRIED:
        tools = [Tool(name=n, description=draw(_words), input_schema=_SCHEMA) for n in names]
    messages: list[Message] = []
    if "system" in CARRIED and draw(st.booleans()):
        messages.append(Message.system(draw(_words)))
    for _ in range(draw(st.integers(1, 3))):
        messages.append(draw(_user_turn()))
        calling: bool = draw(st.booleans())
        if tools and calling:
            messages.extend(draw(_tool_loop(names)))
        else:
            messages.append(Message.assistant(draw(_words)))
    messages.append(draw(_user_turn()))
    fields: dict[str, Any] = {"model": UNKNOWN_MODEL, "messages": messages, "tools": tools}
    for key, values in _settings().items():
        if key in CARRIED or key == "tool_choice":
            fields[key] = draw(values)
    if not tools:
        fields["tool_choice"] = None
    return Request(**fields)


def _settings() -> dict[str, st.SearchStrategy[Any]]:
    return {
        "max_tokens": st.none() | st.integers(1, 4096),
        "temperature": st.none() | st.floats(0, 1).map(lambda f: round(f, 2)),  # Converse's range is 0 to 1
        "top_p": st.none() | st.floats(0.01, 1).map(lambda f: round(f, 2)),
        # tool_choice's row is native everywhere but Cohere, which cannot force one named tool
        # (its note); the modes every target takes are drawn.
        "tool_choice": st.none() | st.sampled_from(["auto", "required"]),
    }


@settings(max_examples=60, deadline=None)
@given(carried_requests())
def test_what_every_target_carries_draws_no_warning_on_any(request: Request) -> None:
    for target in TARGETS:
        encoded = target.codec.encode_request(request)
        assert encoded.warnings == [], f"{target.id}: {[str(w) for w in encoded.warnings]}"
        assert {note.kind for note in encoded.notes} <= {"unknown_model"}


# --- the same, from wire bodies: each wire's coverage rows that map into a carried field -------

BASES: dict[str, dict[str, Any]] = {  # the smallest body of each wire with a coverage contract: one user turn
    wire: {**data.smallest, **({"model": UNKNOWN_MODEL} if "model" in data.smallest else {})}
    for wire, data in CONFORMANCE.items()
    if data.smallest is not None and wire in COVERAGE
}
_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "max_tokens": st.integers(1, 4096),
    "temperature": st.floats(0, 1).map(lambda f: round(f, 2)),
    "top_p": st.floats(0.01, 1).map(lambda f: round(f, 2)),
}


def carried_rows(wire: str) -> dict[str, str]:
    """The settings of ``wire``'s body (a key, or a key inside one object) whose coverage row says
    ``ir`` into a Request field every target carries: row -> the field (``max_tokens`` and
    ``max_completion_tokens`` both -> max_tokens on Chat Completions)."""
    rows = {}
    for row, (where, note) in COVERAGE[wire].declaration("request").items():
        field = re.match(r"Request\.(\w+)", note)
        if where == "ir" and field and field.group(1) in CARRIED and re.fullmatch(r"\w+(\.\w+)?", row):
            rows[row] = field.group(1)
    return rows


@st.composite
def carried_bodies(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    wire = draw(st.sampled_from(sorted(BASES)))
    body = json.loads(json.dumps(BASES[wire]))
    rows = carried_rows(wire)
    values = {field: draw(strategy) for field, strategy in _VALUES.items()}  # two spellings: one value
    for row in draw(st.lists(st.sampled_from(sorted(rows)), unique=True)):
        *outer, key = row.split(".")
        holder = body.setdefault(outer[0], {}) if outer else body
        holder[key] = values[rows[row]]
    return wire, body


def test_each_wire_spells_the_carried_settings_in_rows_of_its_coverage() -> None:
    assert {wire: sorted(set(carried_rows(wire).values())) for wire in BASES} == {
        wire: ["max_tokens", "temperature", "top_p"] for wire in BASES
    }
    assert set(carried_rows("openai-chat")) >= {"max_tokens", "max_completion_tokens"}


@settings(max_examples=80, deadline=None)
@given(carried_bodies())
def test_a_body_of_carried_settings_crosses_to_every_wire_without_a_warning(drawn: tuple[str, dict[str, Any]]) -> None:
    wire, body = drawn
    source = il.get_codec(wire)
    request = decode_with(BY_ID[wire], body) if wire in _MODEL_IN_URL else source.decode_request(body)
    request = request.model_copy(update={"model": UNKNOWN_MODEL})
    again = source.encode_request(request)
    assert again.body == body, "the source wire gives its own body back"
    for target in TARGETS:
        if target.id != wire:
            encoded = target.codec.encode_request(request)
            assert encoded.warnings == [], f"{wire} -> {target.id}: {[str(w) for w in encoded.warnings]}"


# --- ordinary conversions of recorded and golden bodies -------------------------------------


def _golden() -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for wire in COVERAGE:
        for path in sorted((ROOT / "fixtures" / wire / "request").glob("*.json")):
            if not path.name.endswith(".ir.json"):
                found.append((wire, f"{wire}/{path.stem}", json.loads(path.read_text(encoding="utf-8"))))
    return found


def _settings_map_into_the_ir(wire: str, body: Mapping[str, Any]) -> bool:
    """Whether each setting of ``body`` is one the wire's coverage declaration maps into the IR
    (``ir``) or leaves to the transport. A list no row names as a whole (``messages``, ``tools``)
    is the conversation, judged part by part by :func:`_ordinary_for`."""
    declaration = COVERAGE[wire].declaration("request")
    return all(_mapped(declaration, key, value) for key, value in body.items())


def _mapped(declaration: Any, path: str, value: Any) -> bool:
    row = covering(declaration, path)
    if isinstance(value, list):
        row = row or covering(declaration, f"{path}[]")
        if row is None:  # the conversation, when the wire declares what its elements hold
            return any(declared.startswith(f"{path}[") for declared in declaration)
        return declaration[row][0] in ("ir", "transport")
    if row is not None and declaration[row][0] in ("ir", "transport"):
        return True
    if isinstance(value, Mapping) and value and (row is None or not row.endswith(".*")):
        return all(_mapped(declaration, f"{path}.{key}", inner) for key, inner in value.items())
    return False


def _ordinary_for(request: Request, target: Target) -> bool:
    """Every feature of ``request`` but its options is a row of :data:`CARRIED` (or a tool_choice
    mode), native on ``target`` for this request, media come inline (base64: a URL or a file id
    reaches only some wires, by each codec's notes), no part carries an echo (a meaning echo is
    warned where it is dropped) and every call's arguments are a JSON object. Options: see
    :func:`_settings_map_into_the_ir`."""
    codec = target.codec
    found = [f for f in features(request) if f.key != "provider_options"]
    if not all(f.key in CARRIED or (f.key == "tool_choice" and isinstance(request.tool_choice, str)) for f in found):
        return False
    inline = all(getattr(f.part, "source", None) is None or f.part.source.type == "base64" for f in found)
    plain = not any(getattr(f.part, "provider_echoes", None) for f in found)  # an echo may hold meaning
    plain = plain and not any(getattr(f.part, "raw_input", None) is not None for f in found)  # not JSON
    return inline and plain and all(expectation(codec, request, f)[0] == "native" for f in found)


def _ordinary_conversions() -> list[tuple[str, Request, Target]]:
    cases = []
    for wire, name, body in _golden():
        if not _settings_map_into_the_ir(wire, body):
            continue
        request = decode_with(BY_ID[wire], body)
        cases += [(name, request.model_copy(update={"model": t.model}), t) for t in TARGETS if t.id != wire]
    for corpus in ("real", "lingua", "pydantic-ai"):
        for recording, request, target in crossings(corpus):
            if recording.wire in COVERAGE and _settings_map_into_the_ir(recording.wire, _body(recording.path)):
                cases.append((recording.id, request, target))
    return [(name, request, target) for name, request, target in cases if _ordinary_for(request, target)]


def _body(path: Path) -> Any:
    document = json.loads(path.read_text(encoding="utf-8"))
    return document["body"] if isinstance(document, dict) and set(document) == {"method", "path", "body"} else document


def test_ordinary_conversions_of_golden_and_recorded_bodies_draw_no_warning() -> None:
    skip_without_corpus("real")  # the ordinary bodies are mostly recorded ones
    skip_without_corpus("lingua")
    skip_without_corpus("pydantic-ai")
    cases = _ordinary_conversions()
    assert len(cases) >= 48  # the probe counted 48; the corpora give many more
    alarms = []
    for name, request, target in cases:
        encoded = target.codec.encode_request(request)
        alarms += [f"{name} -> {target.id}: {w}" for w in encoded.warnings]
    assert alarms == [], f"{len(alarms)} warnings on ordinary conversions, the first: " + "\n".join(alarms[:10])


# --- the cases the issue names ---------------------------------------------------------------

CHAT_MAX_TOKENS = {"model": "gpt-4o", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}]}
GEMINI_MODEL = {"model": "gemini-2.5-flash", "contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
GEMINI_TEXT = {
    "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
    "generationConfig": {"responseModalities": ["TEXT"], "maxOutputTokens": 100},
}
GEMINI_EMPTY = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {}}
ANTHROPIC = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]}
CHAT_ONE_CHOICE = {"model": "gpt-4o", "n": 1, "messages": [{"role": "user", "content": "hi"}]}
SPELLINGS = [
    ("openai-chat", CHAT_MAX_TOKENS),
    ("openai-chat", {**CHAT_MAX_TOKENS, "max_completion_tokens": 100}),
    ("openai-chat", CHAT_ONE_CHOICE),
    ("gemini", GEMINI_MODEL),
    ("gemini", GEMINI_TEXT),
    ("gemini", GEMINI_EMPTY),
    ("openai-responses", {"model": "gpt-5", "input": "hi", "previous_response_id": None}),
    ("openai-responses", {"model": "gpt-5", "input": "hi", "reasoning": {}, "text": {}}),
    ("anthropic-messages", {**ANTHROPIC, "stop_sequences": []}),
]


@pytest.mark.parametrize(("wire", "body"), SPELLINGS, ids=[f"{w}-{i}" for i, (w, _) in enumerate(SPELLINGS)])
def test_a_spelling_record_round_trips_and_no_other_wire_reports_it(wire: str, body: dict[str, Any]) -> None:
    source = il.get_codec(wire)
    request = source.decode_request(body)
    again = source.encode_request(request)
    assert (again.body, again.warnings) == (body, [])
    assert request.model is not None or wire == "gemini"
    for target in TARGETS:
        if target.codec.name == wire and target.dialect is None:
            continue
        encoded = target.codec.encode_request(request.model_copy(update={"model": target.model}))
        assert encoded.warnings == [], f"{target.id}: {[str(w) for w in encoded.warnings]}"


def test_the_max_tokens_a_chat_body_spells_reaches_every_wire_under_its_name() -> None:
    request = il.get_codec("openai-chat").decode_request(CHAT_MAX_TOKENS)
    for target in TARGETS:  # each wire's own spelling, read back by its own decoder
        encoded = target.codec.encode_request(request)
        assert (decode_with(target, encoded.body).max_tokens, encoded.warnings) == (100, []), target.id
    assert il.get_codec("gemini").encode_request(request).body["generationConfig"] == {"maxOutputTokens": 100}


def test_a_gemini_body_names_the_model_when_the_url_does_not() -> None:
    codec = il.get_codec("gemini")
    assert codec.decode_request(GEMINI_MODEL).model == "gemini-2.5-flash"
    told = codec.decode_request(GEMINI_MODEL, model="gemini-2.5-pro")  # type: ignore[call-arg]
    assert told.model == "gemini-2.5-pro"  # the URL's model serves; the body's name comes back as it was
    assert codec.encode_request(told).body == GEMINI_MODEL
