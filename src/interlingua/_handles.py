"""Artifact handles: media a host keeps in its own store, resolved only when a request is encoded.

A transcript with a hundred screenshots then holds a hundred short names. The resolver is the
caller's: ``resolve(handle_id)`` returns the bytes, or a ``MediaSource`` (``from_base64``,
``from_url``, ``from_file_id``). Each distinct id is resolved once per request. A resolver that
raises or returns something else is an ``EncodeError`` naming the part's JSON path and the
handle id, raised before any body is built.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

from ._errors import EncodeError
from ._message import Message
from ._parts import (
    Audio,
    AudioOutput,
    Base64Source,
    ContentPart,
    Document,
    HandleSource,
    Image,
    ImageOutput,
    MediaSource,
    ToolResult,
    UrlSource,
    Video,
)
from ._request import Request

Resolved: TypeAlias = bytes | MediaSource
"""What a resolver gives for a handle id: raw bytes, or any non-handle ``MediaSource``."""
Resolver: TypeAlias = Callable[[str], Resolved]
AsyncResolver: TypeAlias = Callable[[str], Awaitable[Resolved]]


def unresolved_handle(codec: str, path: str, source: HandleSource) -> EncodeError:
    """The error for a handle met with no resolver to turn it into media."""
    return EncodeError(
        codec,
        path,
        f"artifact handle {source.id!r} ({source.media_type}) needs a resolver: pass resolve=... to encode it",
    )


WITH_SOURCE = frozenset({Image, Audio, Video, Document, ImageOutput, AudioOutput})
"""The part classes that carry a media ``source``."""
_MAY_HOLD = WITH_SOURCE | {ToolResult}


def _handles_in(parts: list[ContentPart], at: str, found: list[tuple[str, HandleSource]]) -> None:
    for j, part in enumerate(parts):
        kind = type(part)
        if kind in WITH_SOURCE:
            source = part.source  # type: ignore[union-attr]  # every class in WITH_SOURCE has one
            if type(source) is HandleSource:
                found.append((f"{at}[{j}].source", source))
        elif kind is ToolResult and type(part.content) is list:  # type: ignore[union-attr]
            _handles_in(part.content, f"{at}[{j}].content", found)  # type: ignore[union-attr]


def holds_handle(parts: list[ContentPart]) -> bool:
    """Whether these parts (a tool result's, say) hold a handle at any depth."""
    found: list[tuple[str, HandleSource]] = []
    _handles_in(parts, "", found)
    return bool(found)


def find_handles(request: Request) -> list[tuple[str, HandleSource]]:
    """Every handle in ``request`` with its JSON path, in order. Called on every encode without
    a resolver, so it tests classes, not attributes (a missing pydantic attribute is slow)."""
    found: list[tuple[str, HandleSource]] = []
    for i, message in enumerate(request.messages):
        if not _MAY_HOLD.isdisjoint(map(type, message.parts)):  # most messages: one C-level test
            _handles_in(message.parts, f"messages[{i}].parts", found)
    return found


def _accept(codec: str, path: str, handle: HandleSource, value: Any) -> MediaSource:
    if isinstance(value, bytes | bytearray | memoryview):
        from ._media import to_base64

        return Base64Source(media_type=handle.media_type, data=to_base64(bytes(value)))
    if isinstance(value, HandleSource) or not isinstance(value, MediaSource):
        got = "another handle" if isinstance(value, HandleSource) else type(value).__name__
        raise EncodeError(
            codec, path, f"artifact handle {handle.id!r}: the resolver returned {got}, not bytes or a MediaSource"
        )
    if isinstance(value, UrlSource) and value.media_type is None:
        return value.model_copy(update={"media_type": handle.media_type})
    return value


def _failed(codec: str, path: str, handle: HandleSource, exc: BaseException) -> EncodeError:
    return EncodeError(codec, path, f"artifact handle {handle.id!r}: the resolver failed: {exc!r}")


def _swap_parts(parts: list[ContentPart], done: dict[str, MediaSource]) -> list[ContentPart]:
    """``parts`` with their handles replaced: the same list when none held one."""
    swapped: list[ContentPart] = []
    changed = False
    for part in parts:
        kind = type(part)
        if kind in WITH_SOURCE and type(part.source) is HandleSource:  # type: ignore[union-attr]
            part = part.model_copy(update={"source": done[part.source.id]})  # type: ignore[union-attr]
            changed = True
        elif kind is ToolResult and type(part.content) is list:  # type: ignore[union-attr]
            content = _swap_parts(part.content, done)  # type: ignore[union-attr]
            if content is not part.content:  # type: ignore[union-attr]
                part = part.model_copy(update={"content": content})
                changed = True
        swapped.append(part)
    return swapped if changed else parts


def _swap(request: Request, done: dict[str, MediaSource]) -> Request:
    """``request`` with its handles replaced; messages without one stay the same objects."""
    messages: list[Message] = []
    for message in request.messages:
        parts = _swap_parts(message.parts, done)
        messages.append(message if parts is message.parts else message.model_copy(update={"parts": parts}))
    return request.model_copy(update={"messages": messages})


def resolve_handles(request: Request, resolve: Resolver, *, codec: str = "") -> Request:
    """``request`` with every handle replaced by what ``resolve`` returns for its id (the same
    object when it holds none)."""
    found = find_handles(request)
    if not found:
        return request
    done: dict[str, MediaSource] = {}
    for path, handle in found:
        if handle.id not in done:
            try:
                value = resolve(handle.id)
            except Exception as exc:
                raise _failed(codec, path, handle, exc) from exc
            done[handle.id] = _accept(codec, path, handle, value)
    return _swap(request, done)


async def aresolve_handles(request: Request, resolve: AsyncResolver | Resolver, *, codec: str = "") -> Request:
    """``resolve_handles`` for an async resolver (a sync one works too): distinct ids are
    fetched concurrently; the first failure in path order is the one raised."""
    import asyncio  # here, not at import: asyncio costs milliseconds and most callers are sync

    found = find_handles(request)
    if not found:
        return request
    first: dict[str, tuple[str, HandleSource]] = {}
    for path, handle in found:
        first.setdefault(handle.id, (path, handle))

    async def fetch(handle_id: str) -> Resolved:
        value = resolve(handle_id)
        return await value if isinstance(value, Awaitable) else value

    results = await asyncio.gather(*(fetch(i) for i in first), return_exceptions=True)
    done: dict[str, MediaSource] = {}
    for (path, handle), value in zip(first.values(), results, strict=True):
        if isinstance(value, BaseException):
            if not isinstance(value, Exception):
                raise value
            raise _failed(codec, path, handle, value) from value
        done[handle.id] = _accept(codec, path, handle, value)
    return _swap(request, done)
