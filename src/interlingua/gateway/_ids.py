"""Tool call ids across the gateway, both ways, with no state in the process where it can be.

An upstream's call id that the caller's wire would refuse (too long, other characters) is handed
to the caller encoded: a marker and the id's UTF-8 bytes in base 62, which every wire's id
alphabet holds (the encoding the library's own id mapping uses, ``interlingua._tool_ids``). The
caller sends it back on its next turn and the gateway decodes it, with no table, so any worker of
any gateway process, before or after a restart, gives the upstream the id it made. Only an id
too long to encode within the caller's limit goes to an :class:`IdStore` (keyed by a digest of
the id); share one store between workers for those.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from .._parts import ContentPart, ToolResult, ToolUse
from .._request import Request
from .._response import Response
from .._stream import PartStart, StreamEvent
from .._tool_ids import ENCODED, decode_id, encode_id

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
STORED = "ils0"
"""Marks an id kept in the store (a digest of the original)."""

Accepts = Callable[[str], bool]


@runtime_checkable
class IdStore(Protocol):
    """Where ids too long to encode are kept. ``put`` is called when the gateway hands the caller
    a stored id, ``get`` when the caller sends one back (None: not known here). A shared store
    (Redis, a database table) makes them survive restarts and span workers; the keys are
    deterministic digests, so two workers putting the same id write the same entry."""

    def put(self, key: str, original: str) -> None: ...
    def get(self, key: str) -> str | None: ...


class MemoryIdStore:
    """The default store: this process only, the most recent ``limit`` ids."""

    def __init__(self, limit: int = 100_000) -> None:
        self._limit = limit
        self._ids: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, key: str, original: str) -> None:
        with self._lock:
            self._ids[key] = original
            self._ids.move_to_end(key)
            if len(self._ids) > self._limit:
                self._ids.popitem(last=False)

    def get(self, key: str) -> str | None:
        with self._lock:
            return self._ids.get(key)


class SqliteIdStore:
    """A store shared by every worker and process on one host, surviving restarts: one SQLite
    file (a store for several hosts implements the same two methods on a shared database)."""

    def __init__(self, path: str) -> None:
        import sqlite3

        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10.0)
        self._db.execute("pragma journal_mode=wal")
        self._db.execute("create table if not exists tool_ids (key text primary key, original text not null)")
        self._lock = threading.Lock()

    def put(self, key: str, original: str) -> None:
        with self._lock:
            self._db.execute("insert or replace into tool_ids values (?, ?)", (key, original))

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("select original from tool_ids where key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])


def _stored_key(original: str) -> str:
    digest = int.from_bytes(hashlib.sha256(original.encode("utf-8", "surrogatepass")).digest()[:16], "big")
    digits = []
    for _ in range(22):
        digest, rest = divmod(digest, 62)
        digits.append(_DIGITS[rest])
    return STORED + "".join(digits)


class ToolIdMap:
    """Upstream ids out to the caller (``outward``), and back in from the caller (``inward``)."""

    def __init__(self, store: IdStore | None = None) -> None:
        self.store: IdStore = store if store is not None else MemoryIdStore()

    def outward(self, tool_id: str, accepts: Accepts | None) -> str:
        """The id to give a caller whose wire takes ids that pass ``accepts`` (None: any id)."""
        if accepts is None or accepts(tool_id):
            return tool_id
        encoded = encode_id(tool_id)
        if accepts(encoded):
            return encoded
        key = _stored_key(tool_id)
        self.store.put(key, tool_id)
        return key

    def inward(self, wire_id: str) -> str:
        """The upstream's id for one the caller sent; the id itself when the gateway did not make it."""
        if wire_id.startswith(ENCODED):
            return decode_id(wire_id) or wire_id
        if wire_id.startswith(STORED):
            return self.store.get(wire_id) or wire_id
        return wire_id

    def inward_request(self, request: Request) -> Request:
        """``request`` with the upstream's ids back on its calls and results (the same object
        when it holds none the gateway made)."""

        def made(part: object) -> bool:
            tool_id = part.id if isinstance(part, ToolUse) else part.tool_use_id if isinstance(part, ToolResult) else ""
            return tool_id.startswith((ENCODED, STORED))

        if not any(made(p) for m in request.messages for p in m.parts):
            return request
        messages = []
        for message in request.messages:
            parts = [self._inward_part(p) if made(p) else p for p in message.parts]
            messages.append(message.model_copy(update={"parts": parts}))
        return request.model_copy(update={"messages": messages})

    def _inward_part(self, part: ContentPart) -> ContentPart:
        if isinstance(part, ToolUse):
            return part.model_copy(update={"id": self.inward(part.id)})
        if isinstance(part, ToolResult):
            return part.model_copy(update={"tool_use_id": self.inward(part.tool_use_id)})
        return part

    def outward_response(self, response: Response, accepts: Accepts | None) -> Response:
        if accepts is None:
            return response
        parts = response.message.parts
        if all(not isinstance(p, ToolUse) or accepts(p.id) for p in parts):
            return response
        mapped = [
            p.model_copy(update={"id": self.outward(p.id, accepts)}) if isinstance(p, ToolUse) else p for p in parts
        ]
        return response.model_copy(update={"message": response.message.model_copy(update={"parts": mapped})})

    def outward_event(self, event: StreamEvent, accepts: Accepts | None) -> StreamEvent:
        if accepts is None or not isinstance(event, PartStart) or not isinstance(event.part, ToolUse):
            return event
        part = event.part
        if accepts(part.id):
            return event
        return PartStart(event.index, part.model_copy(update={"id": self.outward(part.id, accepts)}))
