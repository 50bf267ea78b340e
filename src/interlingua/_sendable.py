"""Requests no vendor would take, refused before a body is built (IR -> EncodeError with a path).

Types let these through and every vendor answers 400 to them, so an encoder refuses them, at
the path of the request as given, rather than send them: an empty ``model``, a negative
``max_tokens``, a NaN or infinite sampling setting (no JSON token spells it), a tool name
outside the target's pattern, two calls of one assistant turn sharing an id (no result could
say which it answers), and base64 data that is not base64. None of these has a faithful repair;
what has one is repaired elsewhere (an id the target rejects, an empty one included, is
rewritten by ``ToolIds``; orphan results by the turn normalizer).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from ._errors import EncodeError
from ._parts import Audio, Base64Source, ContentPart, Document, Image, ToolResult, ToolUse, Video
from ._request import Request, Tool

_SETTINGS = ("temperature", "top_p", "presence_penalty", "frequency_penalty")

# Standard or URL-safe alphabet (protobuf JSON bytes fields take both), line breaks allowed (MIME
# style), and padding anywhere: encoded chunks joined end to end are still read. What this
# refuses is text that is not base64 at all (a data URL, a file path, spaces, other characters).
_BASE64 = re.compile(r"[A-Za-z0-9+/=_\-\r\n]*")


def refuse_unsendable(request: Request, *, codec: str, tool_names: re.Pattern[str] | None, unique_ids: bool) -> None:
    """EncodeError at the first thing in ``request`` the target refuses whatever the encoder
    does (see the module docstring); ``tool_names`` is the target's name pattern, ``unique_ids``
    whether it matches results to calls by id."""
    if request.model == "":
        raise EncodeError(codec, "model", "empty: every vendor needs a model id")
    if request.max_tokens is not None and request.max_tokens < 0:
        raise EncodeError(codec, "max_tokens", f"{request.max_tokens} is negative")
    for name in _SETTINGS:
        value = getattr(request, name)
        if value is not None and not math.isfinite(value):
            raise EncodeError(codec, name, f"{value} is not a JSON number")
    if tool_names is not None:
        for i, tool in enumerate(request.tools):
            if isinstance(tool, Tool) and tool_names.fullmatch(tool.name) is None:
                raise EncodeError(codec, f"tools[{i}].name", f"{tool.name!r} does not match {tool_names.pattern}")
    for i, message in enumerate(request.messages):
        seen: set[str] = set()
        for at, part in _parts(message.parts, f"messages[{i}].parts"):
            if isinstance(part, ToolUse) and unique_ids:
                if part.id in seen:
                    raise EncodeError(codec, f"{at}.id", f"tool call id {part.id!r} is used twice in one turn")
                seen.add(part.id)
            elif isinstance(part, Image | Audio | Video | Document) and isinstance(part.source, Base64Source):
                _check_base64(part.source.data, f"{at}.source.data", codec)


def _parts(parts: list[ContentPart], at: str) -> Iterator[tuple[str, ContentPart]]:
    """Each part with its path, and the parts of a tool result's content after it."""
    for j, part in enumerate(parts):
        yield f"{at}[{j}]", part
        if isinstance(part, ToolResult) and isinstance(part.content, list):
            yield from _parts(part.content, f"{at}[{j}].content")


def _check_base64(data: str, at: str, codec: str) -> None:
    if _BASE64.fullmatch(data) is None:
        raise EncodeError(codec, at, "not base64 data")
