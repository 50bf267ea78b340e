"""Requests no vendor would take, refused before a body is built (IR -> EncodeError with a path).

Types let these through and every vendor answers 400 to them, so an encoder refuses them, at
the path of the request as given, rather than send them: an empty ``model``, a negative
``max_tokens``, a NaN or infinite sampling setting (no JSON token spells it), a tool name
outside the target's pattern even once escaped (``_tool_names``: an empty one), two calls of
one assistant turn sharing an id (no result could say which it answers), and base64 data that
is not base64. None of these has a faithful repair;
what has one is repaired elsewhere (an id the target rejects, an empty one included, is
rewritten by ``ToolIds``; orphan results by the turn normalizer).

The parts are checked in the walk of the turn rules (``PartChecks``), which also notes the tool
results whose name is not their call's: nothing refuses them, but a target whose results carry
no name loses that name (``_normalize.misnamed_results`` reports it). One walk of the transcript
serves every check an encode makes before writing.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ._errors import EncodeError
from ._message import Message
from ._model import JsonObject
from ._parts import Audio, Base64Source, ContentPart, Document, Image, ToolUse, Video
from ._request import Request, Tool

_INF = math.inf
_MEDIA = (Image, Audio, Video, Document)
MEDIA_TYPES = frozenset(_MEDIA)

# Standard or URL-safe alphabet (protobuf JSON bytes fields take both), line breaks allowed (MIME
# style), and padding anywhere: encoded chunks joined end to end are still read. What this
# refuses is text that is not base64 at all (a data URL, a file path, spaces, other characters).
_BASE64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-\r\n"


def refuse_unsendable(request: Request, *, codec: str, tool_names: re.Pattern[str] | None) -> None:
    """EncodeError at the first setting of ``request`` the target refuses whatever the encoder
    does (see the module docstring); ``tool_names`` is the target's name pattern. Its parts are
    checked by :class:`PartChecks`, in the walk of the turn rules."""
    if request.model == "":
        raise EncodeError(codec, "model", "empty: every vendor needs a model id")
    if request.max_tokens is not None and request.max_tokens < 0:
        raise EncodeError(codec, "max_tokens", f"{request.max_tokens} is negative")
    for name in _SETTINGS:
        value = getattr(request, name)
        if value is not None and not -_INF < value < _INF:  # NaN compares false both ways
            raise EncodeError(codec, name, f"{value} is not a JSON number")
    if tool_names is not None:
        for i, tool in enumerate(request.tools):
            if type(tool) is Tool and tool_names.fullmatch(tool.name) is None:
                raise EncodeError(codec, f"tools[{i}].name", f"{tool.name!r} does not match {tool_names.pattern}")


_SETTINGS = ("temperature", "top_p", "presence_penalty", "frequency_penalty")


class PartChecks:
    """The checks of the parts of one request, made as the walk of the turn rules
    (``_normalize._walk``) passes them, so an encode walks the transcript once: media data that
    is not base64, two calls of one turn sharing an id (``unique_ids``: the target matches
    results to calls by id), and, refusing nothing, the results whose name is not their call's
    (``misnamed``: message, part, the name of the latest call with its id before it; none in a
    transcript any wire decoded unless the wire gave the result a name of its own). Paths are
    spelled out only for an error."""

    __slots__ = ("codec", "held", "marked", "misnamed", "names", "unique_ids")

    def __init__(self, codec: str, *, unique_ids: bool) -> None:
        self.codec = codec
        self.unique_ids = unique_ids
        self.names: dict[str, str] = {}  # call id -> the name of its latest call
        self.misnamed: list[tuple[int, int, str]] = []
        self.held: set[str] = set()  # every name on a call or result (``send_part_names`` reads them)
        # (path, message or part, part type) of each whose echoes mark a key ``unmapped``
        # (``WarningSink.unmapped_marked`` reports them): looked for in the same walk.
        self.marked: list[tuple[str, Any, str]] = []

    def call(self, call_id: str, name: str) -> None:
        self.names[call_id] = name
        self.held.add(name)

    def media(self, part: ContentPart, i: int, j: int) -> None:
        source = part.source  # type: ignore[union-attr]  # every media part has one
        if type(source) is Base64Source and not _is_base64(source.data):
            raise EncodeError(self.codec, f"messages[{i}].parts[{j}].source.data", "not base64 data")

    def result(
        self, i: int, j: int, tool_use_id: str, content: str | list[ContentPart] | JsonObject, name: str
    ) -> None:
        """The result at ``messages[i].parts[j]``, as the walk read it."""
        self.held.add(name)
        if type(content) is list:
            _check_result(content, f"messages[{i}].parts[{j}].content", self.codec)
            k = -1
            for inner in content:
                k += 1
                if inner.provider_echoes:
                    self.echoed(inner, i, j, k)
        called = self.names.get(tool_use_id)
        if called is not None and called != name:
            self.misnamed.append((i, j, called))

    def echoed(self, value: Message | ContentPart, i: int, j: int | None = None, k: int | None = None) -> None:
        """A message (``j`` None), a part of one, or a part ``k`` inside a tool result's content,
        with echoes: noted where one marks a key ``unmapped`` (a path spelled only then)."""
        if not any(echo.unmapped for echo in value.provider_echoes):
            return
        if j is None:
            self.marked.append((f"messages[{i}]", value, "message"))
            return
        at = f"messages[{i}].parts[{j}]" if k is None else f"messages[{i}].parts[{j}].content[{k}]"
        self.marked.append((at, value, value.type))  # type: ignore[union-attr]  # j given: a part

    def turn(self, parts: list[ContentPart], i: int) -> None:
        """A message holding more than one call: two sharing an id, no result could say which
        it answers."""
        if not self.unique_ids:
            return
        seen: set[str] = set()
        for j, part in enumerate(parts):
            if isinstance(part, ToolUse):
                if part.id in seen:
                    raise EncodeError(
                        self.codec,
                        f"messages[{i}].parts[{j}].id",
                        f"tool call id {part.id!r} is used twice in one turn",
                    )
                seen.add(part.id)


def _check_result(parts: list[ContentPart], at: str, codec: str) -> None:
    """A tool result's own parts: their media too must be sendable."""
    for k, part in enumerate(parts):
        if isinstance(part, _MEDIA) and isinstance(part.source, Base64Source) and not _is_base64(part.source.data):
            raise EncodeError(codec, f"{at}[{k}].source.data", "not base64 data")


def _is_base64(data: str) -> bool:
    """Whether ``data`` holds only base64 characters: two passes at C speed, not a regex. An
    agent sends the same images every turn, so long payloads keep their verdict (a string keeps
    its hash, so the lookup costs nothing); bounded like the tool-id verdicts."""
    if len(data) < 256:
        return data.isascii() and not data.encode("ascii").translate(None, _BASE64)
    verdict = _VERDICTS.get(data)
    if verdict is None:
        verdict = data.isascii() and not data.encode("ascii").translate(None, _BASE64)
        if len(_VERDICTS) >= 256:
            _VERDICTS.clear()
        _VERDICTS[data] = verdict
    return verdict


_VERDICTS: dict[str, bool] = {}
