"""The inline media types the Messages API takes, per kind of part, each with its source (the
encoder's checks are ``_parts.IMAGE_TYPES`` and its PDF test; docs/guide/tools.md shows them)."""

from __future__ import annotations

from interlingua.kit import MediaTypes

from ._parts import IMAGE_TYPES

_BLOCKS = "anthropic SDK types: no content block carries audio or video (ContentBlockParam)"

MEDIA_TYPES = {
    "image": MediaTypes(IMAGE_TYPES, "anthropic SDK types/base64_image_source_param.py: media_type Literal"),
    "document": MediaTypes(
        frozenset({"application/pdf"}),
        "anthropic SDK types/base64_pdf_source_param.py: media_type Literal['application/pdf'] (plain text goes "
        "as a text source, not inline data)",
    ),
    "audio": MediaTypes(frozenset(), _BLOCKS),
    "video": MediaTypes(frozenset(), _BLOCKS),
}
