"""The inline media types Converse takes, per kind of part: botocore's format enums and the MIME
type each names (``_parts``), shown in docs/guide/tools.md."""

from __future__ import annotations

from interlingua.kit import MediaTypes

from ._parts import AUDIO_FORMATS, DOCUMENT_FORMATS, IMAGE_FORMATS, VIDEO_FORMATS

_SHAPES = "botocore bedrock-runtime service-2.json: ImageFormat, AudioFormat, VideoFormat, DocumentFormat"

MEDIA_TYPES = {
    "image": MediaTypes(frozenset(IMAGE_FORMATS.values()), _SHAPES),
    "audio": MediaTypes(frozenset(AUDIO_FORMATS.values()), _SHAPES),
    "video": MediaTypes(frozenset(VIDEO_FORMATS.values()), _SHAPES),
    "document": MediaTypes(frozenset(DOCUMENT_FORMATS.values()), _SHAPES),
}
