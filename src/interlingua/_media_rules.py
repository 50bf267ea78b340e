"""Which inline media types a wire takes, per kind of part, as data with the source of each fact.

A codec states its table as ``CodecBase.media_types``: for each kind it states (``image``,
``audio``, ``video``, ``document``), the MIME types its inline data may have. An inline part
(base64 data) of a type outside its kind's entry is left out of the body with a LossyEncode at
its path (no codec converts media: no conversion here is lossless and dependency-free); an
entry with no types says the wire has no inline part of that kind. A kind a codec does not
state is sent as it is. ``tests/test_media_types.py`` holds every codec's encoder to its table,
and docs/guide/tools.md shows the tables.
"""

from __future__ import annotations

from typing import NamedTuple

KINDS = ("image", "audio", "video", "document")


class MediaTypes(NamedTuple):
    """The inline types a wire takes for one kind of part: ``types`` exactly, and any type that
    starts with one of ``prefixes`` (``text/``); ``source`` says where that is written."""

    types: frozenset[str]
    source: str
    prefixes: tuple[str, ...] = ()

    def takes(self, media_type: str) -> bool:
        """Whether ``media_type`` (its parameters and case aside) is one of these."""
        base = media_type.split(";", 1)[0].strip().lower()
        return base in self.types or base.startswith(self.prefixes)

    def refusal(self, wire: str, kind: str, media_type: str) -> str | None:
        """Why an inline ``kind`` of ``media_type`` cannot go to ``wire``; None when it can."""
        if self.takes(media_type):
            return None
        if not self.types and not self.prefixes:
            return f"{wire} takes no inline {kind}; dropped"
        listed = ", ".join(sorted(self.types) + [f"{p}*" for p in self.prefixes])
        return f"{wire} takes inline {kind}s of {listed}, not {media_type}; dropped (convert it first)"
