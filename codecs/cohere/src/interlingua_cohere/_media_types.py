"""The inline media types Cohere chat v2 takes, per kind of part, each with its source (read by
the encoder, ``_messages._encode_image``, and shown in docs/guide/tools.md)."""

from __future__ import annotations

from interlingua.kit import MediaTypes

_CONTENT = (
    "cohere SDK types/content.py: a message's Content is TextContent or ImageUrlContent (no audio, video or "
    "file block; a ``document`` is text for grounding)"
)

MEDIA_TYPES = {
    "image": MediaTypes(
        frozenset({"image/png", "image/jpeg", "image/webp", "image/gif"}),
        "https://docs.cohere.com/docs/image-inputs (image_url with a URL or a base64 data URL; PNG, JPEG, WEBP "
        "and non-animated GIF)",
    ),
    "audio": MediaTypes(frozenset(), _CONTENT),
    "video": MediaTypes(frozenset(), _CONTENT),
    "document": MediaTypes(frozenset(), _CONTENT),
}
