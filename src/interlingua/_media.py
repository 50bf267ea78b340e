"""Reading media files for ``MediaSource.from_path``: the media type from the file's first bytes
(what the bytes are, whatever the name says), else from its suffix."""

from __future__ import annotations

import base64
from os import PathLike, fspath
from pathlib import Path

# (offset, signature, media type); RIFF and ISO-BMFF containers are told apart below.
_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"\x89PNG\r\n\x1a\n", "image/png"),
    (0, b"\xff\xd8\xff", "image/jpeg"),
    (0, b"GIF87a", "image/gif"),
    (0, b"GIF89a", "image/gif"),
    (0, b"%PDF-", "application/pdf"),
    (0, b"fLaC", "audio/flac"),
    (0, b"OggS", "audio/ogg"),
    (0, b"ID3", "audio/mpeg"),
    (0, b"\x1a\x45\xdf\xa3", "video/webm"),
    (0, b"BM", "image/bmp"),
)
_RIFF = {b"WEBP": "image/webp", b"WAVE": "audio/wav", b"AVI ": "video/x-msvideo"}
_BRANDS = {
    b"heic": "image/heic",
    b"heix": "image/heic",
    b"mif1": "image/heif",
    b"avif": "image/avif",
    b"M4A ": "audio/mp4",
    b"qt  ": "video/quicktime",
}
_MPEG_AUDIO_SYNC = (b"\xff\xfb", b"\xff\xf3", b"\xff\xf2")
# Our own table, not ``mimetypes``: its built-in map lacks .webp, .md, .flac, .ogg and .m4a and
# says audio/x-wav, and with the system's files it differs from machine to machine.
_SUFFIXES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".heic": "image/heic",
    ".heif": "image/heif",
    ".avif": "image/avif",
    ".bmp": "image/bmp",
    ".pdf": "application/pdf",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".csv": "text/csv",
    ".html": "text/html",
    ".json": "application/json",
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".flac": "audio/flac",
    ".ogg": "audio/ogg",
    ".m4a": "audio/mp4",
    ".aac": "audio/aac",
    ".mp4": "video/mp4",
    ".mov": "video/quicktime",
    ".webm": "video/webm",
    ".avi": "video/x-msvideo",
}


def sniff(data: bytes) -> str | None:
    """The media type the bytes announce, or None when no known signature matches."""
    for offset, signature, media_type in _SIGNATURES:
        if data.startswith(signature, offset):
            return media_type
    if data[:4] == b"RIFF" and data[8:12] in _RIFF:
        return _RIFF[data[8:12]]
    if data[4:8] == b"ftyp":
        return _BRANDS.get(data[8:12], "video/mp4")
    if data[:2] in _MPEG_AUDIO_SYNC:
        return "audio/mpeg"
    return None


def to_base64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def read_media(path: str | PathLike[str]) -> tuple[str, str]:
    """(media type, base64 data) of a file; ValueError naming the file when neither its bytes
    nor its suffix say what it is."""
    file = Path(fspath(path))
    data = file.read_bytes()
    media_type = sniff(data) or _SUFFIXES.get(file.suffix.lower())
    if media_type is None:
        raise ValueError(
            f"{file}: unknown media type (no known file signature, suffix {file.suffix or '(none)'!r}); "
            "use MediaSource.from_bytes(data, media_type)"
        )
    return media_type, to_base64(data)
