"""The media types the two OpenAI wires take inline (data, each with its source), shared by
openai-chat and openai-responses. An inline image of another type (HEIC, TIFF, BMP, ...) is
left out with a warning: neither wire converts it, and the API refuses it. A web URL is sent as
it is (the server reads the type of what it fetches).
"""

from __future__ import annotations

from interlingua.kit import MediaTypes

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "image/gif"})
"""https://platform.openai.com/docs/guides/images-vision (image input requirements: PNG, JPEG,
WEBP, non-animated GIF); the same four in the profile quoted at
https://docs.rs/crate/shift-preflight/latest/source/profiles/openai.json."""

IMAGE_ALIASES = frozenset({"image/jpg"})
"""A common misspelling of image/jpeg: the same bytes, passed as they are (no page lists it)."""


def refused_image(media_type: str) -> str | None:
    """Why an inline image of ``media_type`` cannot go to OpenAI, or None when it can."""
    if media_type in IMAGE_TYPES or media_type in IMAGE_ALIASES:
        return None
    return f"OpenAI takes PNG, JPEG, WEBP and GIF images, not {media_type}; dropped (convert it first)"


AUDIO_TYPES = frozenset({"audio/wav", "audio/x-wav", "audio/wave", "audio/mpeg", "audio/mp3"})
"""openai SDK types/chat/chat_completion_content_part_input_audio_param.py: ``format`` is "wav" or
"mp3" (the MIME types of those two formats, as ``chat._parts`` reads them)."""

_IMAGES = MediaTypes(
    IMAGE_TYPES | IMAGE_ALIASES, "https://platform.openai.com/docs/guides/images-vision (PNG, JPEG, WEBP, GIF)"
)
_NO_VIDEO = "openai SDK types: no input content part carries video"

CHAT_MEDIA_TYPES = {
    "image": _IMAGES,
    "audio": MediaTypes(AUDIO_TYPES, "openai SDK types/chat/chat_completion_content_part_input_audio_param.py"),
    "video": MediaTypes(frozenset(), _NO_VIDEO),
}
"""Chat Completions, per kind; documents (``file`` parts) are not stated: sent as they are."""

RESPONSES_MEDIA_TYPES = {
    "image": _IMAGES,
    "audio": MediaTypes(frozenset(), "openai SDK types/responses/response_input_content_param.py: no audio part"),
    "video": MediaTypes(frozenset(), _NO_VIDEO),
}
"""Responses, per kind; documents (``input_file``) are not stated: sent as they are."""
