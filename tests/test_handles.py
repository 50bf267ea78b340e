"""Artifact handles: media kept in the host's store, resolved only when a request is encoded.

Every codec (and every chat dialect) must encode a resolved handle exactly as it encodes the same
media given inline, for each form a resolver may return; a missing or failing resolver is an
EncodeError naming the part's path and the handle id, raised before any body exists."""

from __future__ import annotations

import asyncio
import base64
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import validate_wire

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
TARGETS = [
    ("anthropic-messages", {}),
    ("gemini", {}),
    ("openai-responses", {}),
    ("openai-chat", {}),
    ("openai-chat", {"dialect": "mistral"}),
    ("openai-chat", {"dialect": "openrouter"}),
]


def _codec(name: str, options: dict[str, Any]) -> il.Codec:
    return il.get_codec(name, **options)


def _request(screenshot: il.MediaSource, report: il.MediaSource | None = None) -> il.Request:
    parts: list[il.ContentPart] = [il.Text("What changed on screen?"), il.Image(screenshot)]
    if report is not None:
        parts.append(il.Document(report, name="report.pdf"))
    return il.Request(
        model="some-model",
        max_tokens=256,
        messages=[il.Message.system("Be brief."), il.Message.user(*parts)],
    )


STORE = {"shot-1": PNG, "report-1": PDF}


def _bytes(handle_id: str) -> bytes:
    return STORE[handle_id]


def _base64(handle_id: str) -> il.MediaSource:
    media_type = "image/png" if handle_id.startswith("shot") else "application/pdf"
    return il.MediaSource.from_base64(media_type, base64.b64encode(STORE[handle_id]).decode())


def _url(handle_id: str) -> il.MediaSource:
    return il.MediaSource.from_url(f"https://artifacts.example.com/{handle_id}")


HANDLED = _request(il.MediaSource.handle("shot-1", "image/png"), il.MediaSource.handle("report-1", "application/pdf"))


@pytest.mark.parametrize(("name", "options"), TARGETS, ids=lambda v: v if isinstance(v, str) else str(v or ""))
@pytest.mark.parametrize("resolver", [_bytes, _base64, _url], ids=["bytes", "base64", "url"])
def test_every_codec_encodes_a_resolved_handle_as_the_same_media_given_inline(
    name: str, options: dict[str, Any], resolver: Any
) -> None:
    codec = _codec(name, options)
    inline = _request(*[_inline(resolver, key) for key in ("shot-1", "report-1")])
    expected = codec.encode_request(inline)
    got = codec.encode_request(HANDLED, resolve=resolver)
    assert got.body == expected.body
    assert got.warnings == expected.warnings
    if not options:  # dialect bodies leave OpenAI's types (the conformance suite checks them apart)
        assert validate_wire(name, "request", got.body) == []
    assert "shot-1" not in str(got.body) or resolver is _url  # a URL resolver may name the id


def _inline(resolver: Any, handle_id: str) -> il.MediaSource:
    value = resolver(handle_id)
    if isinstance(value, bytes):
        media_type = "image/png" if handle_id.startswith("shot") else "application/pdf"
        return il.MediaSource.from_bytes(value, media_type)
    if isinstance(value, il.UrlSource):  # the handle's media type fills a URL that has none
        media_type = "image/png" if handle_id.startswith("shot") else "application/pdf"
        return value.model_copy(update={"media_type": media_type})
    assert isinstance(value, il.MediaSource)
    return value


@pytest.mark.parametrize(("name", "options"), TARGETS, ids=lambda v: v if isinstance(v, str) else str(v or ""))
def test_a_handle_without_a_resolver_is_an_encode_error_at_its_path(name: str, options: dict[str, Any]) -> None:
    codec = _codec(name, options)
    with pytest.raises(il.EncodeError) as caught:
        codec.encode_request(HANDLED)
    assert caught.value.path == "messages[1].parts[1].source"
    assert "'shot-1'" in str(caught.value) and "resolve=" in str(caught.value)


def test_a_failing_resolver_is_an_encode_error_naming_the_handle_and_keeping_the_cause() -> None:
    def broken(handle_id: str) -> bytes:
        if handle_id == "report-1":
            raise FileNotFoundError(f"no artifact {handle_id}")
        return PNG

    with pytest.raises(il.EncodeError) as caught:
        il.get_codec("anthropic-messages").encode_request(HANDLED, resolve=broken)
    assert caught.value.path == "messages[1].parts[2].source"
    assert "'report-1'" in str(caught.value) and "no artifact report-1" in str(caught.value)
    assert isinstance(caught.value.__cause__, FileNotFoundError)


@pytest.mark.parametrize("returned", ["a string", None, il.MediaSource.handle("other", "image/png")])
def test_a_resolver_returning_something_else_is_an_encode_error(returned: Any) -> None:
    with pytest.raises(il.EncodeError) as caught:
        il.get_codec("gemini").encode_request(HANDLED, resolve=lambda _: returned)
    assert caught.value.path == "messages[1].parts[1].source"
    assert "not bytes or a MediaSource" in str(caught.value)


def test_each_distinct_handle_is_resolved_once_and_nested_tool_result_media_too() -> None:
    calls: list[str] = []

    def counting(handle_id: str) -> bytes:
        calls.append(handle_id)
        return PNG

    shot = il.MediaSource.handle("shot-1", "image/png")
    call = il.ToolUse("toolu_01", "screenshot", {})
    request = il.Request(
        model="m",
        max_tokens=64,
        messages=[
            il.Message.user("Take a screenshot.", il.Image(shot)),
            il.Message.assistant(call),
            il.Message.user(il.ToolResult(call.id, call.name, [il.Text("done"), il.Image(shot)])),
        ],
    )
    codec = il.get_codec("anthropic-messages")
    body = codec.encode_request(request, resolve=counting).body
    assert calls == ["shot-1"]
    nested = body["messages"][2]["content"][0]["content"][1]
    assert nested["source"] == {"type": "base64", "media_type": "image/png", "data": base64.b64encode(PNG).decode()}
    with pytest.raises(il.EncodeError) as caught:
        codec.encode_request(request)
    assert caught.value.path == "messages[0].parts[1].source"


def test_resolving_leaves_the_request_as_given_and_a_request_without_handles_untouched() -> None:
    resolved = il.resolve_handles(HANDLED, _bytes)
    assert isinstance(HANDLED.messages[1].parts[1].source, il.HandleSource)
    assert resolved.messages[1].parts[1].source == il.MediaSource.from_bytes(PNG, "image/png")
    assert resolved.messages[0] is HANDLED.messages[0]  # untouched messages are shared
    plain = _request(il.MediaSource.from_bytes(PNG, "image/png"))
    assert il.resolve_handles(plain, _bytes) is plain


def test_async_resolution_fetches_distinct_ids_concurrently_and_reports_the_first_failure_in_order() -> None:
    started: list[str] = []

    async def slow(handle_id: str) -> bytes:
        started.append(handle_id)
        await asyncio.sleep(0.01)
        if handle_id == "shot-1":
            raise ConnectionError("store down")
        return STORE[handle_id]

    with pytest.raises(il.EncodeError) as caught:
        asyncio.run(il.aresolve_handles(HANDLED, slow, codec="x"))
    assert started == ["shot-1", "report-1"]
    assert caught.value.path == "messages[1].parts[1].source" and "store down" in str(caught.value)

    async def fine(handle_id: str) -> bytes:
        return STORE[handle_id]

    assert asyncio.run(il.aresolve_handles(HANDLED, fine)) == il.resolve_handles(HANDLED, _bytes)


def test_a_transcript_of_200_screenshots_as_handles_stays_small_and_round_trips(tmp_path: Path) -> None:
    messages = [il.Message.system("You operate a browser.")]
    for k in range(200):
        shot = il.MediaSource.handle(f"artifacts/run-42/step-{k:03d}.png", "image/png")
        messages.append(il.Message.user(f"Step {k}", il.Image(shot)))
        messages.append(il.Message.assistant(f"Clicked button {k}."))
    transcript = il.Transcript(messages=messages)
    text = transcript.dumps()
    assert len(text.encode()) < 50_000
    assert il.Transcript.loads(text) == transcript
    transcript.dump(tmp_path / "t.jsonl")
    assert il.Transcript.load(tmp_path / "t.jsonl") == transcript


# --- from_bytes / from_path ---------------------------------------------------------------------


def _wav() -> bytes:
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 16000, 2, 16)
    data = b"\x00\x00" * 8
    chunks = b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WAVE" + chunks


def _gzip_png_lookalike() -> bytes:
    return zlib.compress(b"not an image")


SNIFFED = [
    ("shot.bin", PNG, "image/png"),
    ("photo", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 16, "image/jpeg"),
    ("anim.dat", b"GIF89a" + b"\x00" * 16, "image/gif"),
    ("pic", b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 16, "image/webp"),
    ("report", PDF, "application/pdf"),
    ("voice", _wav(), "audio/wav"),
    ("song", b"ID3\x04\x00" + b"\x00" * 16, "audio/mpeg"),
    ("clip", b"\x00\x00\x00\x18ftypmp42" + b"\x00" * 16, "video/mp4"),
    ("memo", b"\x00\x00\x00\x18ftypM4A " + b"\x00" * 16, "audio/mp4"),
    ("clip2", b"\x1a\x45\xdf\xa3" + b"\x00" * 16, "video/webm"),
    ("named.png", PDF, "application/pdf"),  # the bytes win over a misleading suffix
]


@pytest.mark.parametrize(("name", "data", "media_type"), SNIFFED, ids=[s[0] for s in SNIFFED])
def test_from_path_reads_the_media_type_from_the_file_signature(
    tmp_path: Path, name: str, data: bytes, media_type: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    source = il.MediaSource.from_path(path)
    assert source.media_type == media_type
    assert base64.b64decode(source.data) == data
    assert source == il.MediaSource.from_bytes(data, media_type)


def test_from_path_falls_back_to_the_suffix_and_rejects_the_unknown(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# heading\n")
    assert il.MediaSource.from_path(str(notes)).media_type == "text/markdown"
    blob = tmp_path / "blob.xyz"
    blob.write_bytes(_gzip_png_lookalike())
    with pytest.raises(ValueError, match=r"blob\.xyz: unknown media type .*'\.xyz'.*from_bytes"):
        il.MediaSource.from_path(blob)


def test_a_handle_is_ir_json_like_any_source() -> None:
    image = il.Image(il.MediaSource.handle("shot-1", "image/png"))
    assert image.to_json_dict() == {
        "type": "image",
        "source": {"type": "handle", "id": "shot-1", "media_type": "image/png"},
    }
    assert il.Image.model_validate_json(image.model_dump_json()) == image


@pytest.mark.parametrize("repair", [False, True], ids=["keeps the rules", "needs a repair first"])
def test_a_handle_inside_a_tool_result_is_found_whatever_else_the_request_needs(repair: bool) -> None:
    call = il.ToolUse("toolu_01", "screenshot", {})
    messages = [
        il.Message.user("Take a screenshot."),
        il.Message.assistant(call, *([il.ToolUse("toolu_02", "screenshot", {})] if repair else [])),
        il.Message.user(il.ToolResult(call.id, call.name, [il.Image(il.MediaSource.handle("shot-9", "image/png"))])),
    ]
    request = il.Request(model="m", max_tokens=64, messages=messages)
    for name, options in TARGETS:
        with pytest.raises(il.EncodeError) as caught:
            _codec(name, options).encode_request(request)
        assert caught.value.path == "messages[2].parts[0].content[0].source", name
        assert "'shot-9'" in str(caught.value)
