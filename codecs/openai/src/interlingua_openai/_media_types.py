"""The media types the two OpenAI wires take inline (data, each with its source), shared by
openai-chat and openai-responses. An inline image of another type (HEIC, TIFF, BMP, ...) is
left out with a warning: neither wire converts it, and the API refuses it. A web URL is sent as
it is (the server reads the type of what it fetches).
"""

from __future__ import annotations

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
