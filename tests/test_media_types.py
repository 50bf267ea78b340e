"""Every codec's encoder keeps its own media table (``CodecBase.media_types``, data with sources):
an inline part of a type its kind's entry lists goes into the body, any other is left out with a
LossyEncode at its path (HEIC to OpenAI, GIF to Gemini, ...)."""

from __future__ import annotations

import pytest

import interlingua as il
from interlingua import Audio, Document, Image, LossyEncode, MediaSource, Message, Request, Text, Video
from interlingua._media_rules import KINDS

WIRES = ["anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse", "cohere-chat"]
PARTS = {"image": Image, "audio": Audio, "video": Video, "document": Document}
DATA = "AAAAGGZ0eXBoZWljAAAAAA=="  # a HEIC file's first bytes; the encoders read only the stated type
OTHERS = {  # types some wire refuses, beside every type any table lists
    "image": ["image/heic", "image/tiff", "image/bmp", "image/avif", "image/svg+xml"],
    "audio": ["audio/midi", "audio/amr", "audio/x-foo"],
    "video": ["video/x-matroska", "video/ogg", "video/h265"],
    "document": ["application/zip", "application/vnd.ms-powerpoint", "text/plain", "application/rtf"],
}


def _cases() -> list[tuple[str, str, str]]:
    cases = []
    for wire in WIRES:
        media = il.get_codec(wire).media_types  # type: ignore[attr-defined]  # a CodecBase
        for kind in KINDS:
            if kind not in media:
                continue
            tables = [il.get_codec(codec).media_types for codec in WIRES]  # type: ignore[attr-defined]
            listed = {t for table in tables if kind in table for t in table[kind].types}
            cases += [(wire, kind, media_type) for media_type in sorted(listed | set(OTHERS[kind]))]
    return cases


def test_every_wire_states_its_image_types_and_the_six_state_fifteen_kinds_or_more() -> None:
    stated = {wire: set(il.get_codec(wire).media_types) for wire in WIRES}  # type: ignore[attr-defined]
    assert all("image" in kinds for kinds in stated.values())
    assert sum(len(kinds) for kinds in stated.values()) >= 19  # documents unstated on the two OpenAI wires
    for wire in WIRES:
        for rule in il.get_codec(wire).media_types.values():  # type: ignore[attr-defined]
            assert rule.source and ("http" in rule.source or "SDK" in rule.source or "botocore" in rule.source)


@pytest.mark.parametrize(("wire", "kind", "media_type"), _cases())
def test_an_inline_part_goes_when_its_wire_lists_its_type_and_is_dropped_with_a_warning_otherwise(
    wire: str, kind: str, media_type: str
) -> None:
    codec = il.get_codec(wire)
    part = PARTS[kind](source=MediaSource.from_base64(media_type, DATA))
    request = Request(model="m-1", messages=[Message(role="user", parts=[Text(text="look"), part])])
    encoded = codec.encode_request(request)
    sent = DATA in str(encoded.body)
    dropped = [w for w in encoded.warnings if isinstance(w, LossyEncode) and w.path == "messages[0].parts[1]"]
    if codec.media_types[kind].takes(media_type):  # type: ignore[attr-defined]
        assert sent and not [w for w in dropped if w.action == "dropped"], (wire, media_type, dropped)
    else:
        assert not sent and [w.action for w in dropped] == ["dropped"], (wire, media_type, encoded.warnings)


def test_heic_warns_on_every_wire_but_gemini_which_takes_it() -> None:
    heic = Image(source=MediaSource.from_base64("image/heic", DATA))
    request = Request(model="m-1", messages=[Message(role="user", parts=[Text(text="look"), heic])])
    warned = {wire: bool(il.get_codec(wire).encode_request(request).warnings) for wire in WIRES}
    assert warned == {wire: wire != "gemini" for wire in WIRES}


def media_table() -> str:
    """The tables as docs/guide/tools.md shows them (full MIME types; ``text/*``: any text type)."""
    rows = ["| wire | image | audio | video | document |", "|---|---|---|---|---|"]
    for wire in WIRES:
        media = il.get_codec(wire).media_types  # type: ignore[attr-defined]
        cells = []
        for kind in KINDS:
            rule = media.get(kind)
            if rule is None:
                cells.append("not stated: sent as it is")
            elif not rule.types and not rule.prefixes:
                cells.append("none")
            else:
                cells.append(", ".join([f"`{t}`" for t in sorted(rule.types)] + [f"`{p}*`" for p in rule.prefixes]))
        rows.append(f"| {wire} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def test_the_tools_guide_shows_every_wires_table_as_the_codecs_state_it() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "guide" / "tools.md").read_text()
    assert media_table() in page  # regenerate from media_table() when a codec's table changes
