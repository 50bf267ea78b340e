"""What gateway instances share: the id store (ids too long to encode) and the cooldowns.

``state`` in ``[gateway]`` names where both live: nothing (this process's memory), a SQLite file
(every worker and process on one host) or a ``redis://`` URL (every instance on every host;
``pip install 'interlingua[redis]'``, see ``_redis.py``). Cooldowns are kept as an end time, so a
cooldown one instance records holds in every other reading the same store.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ._ids import IdStore, MemoryIdStore, SqliteIdStore


@runtime_checkable
class Cooldowns(Protocol):
    """Where failed upstreams' cooldowns are kept. ``cool(key, seconds)``: skip ``key`` for that
    long; ``remaining(keys)``: seconds left for those of ``keys`` cooling down now."""

    async def cool(self, key: str, seconds: float) -> None: ...
    async def remaining(self, keys: Sequence[str]) -> dict[str, float]: ...


class MemoryCooldowns:
    """The default: this process only."""

    def __init__(self) -> None:
        self._until: dict[str, float] = {}

    async def cool(self, key: str, seconds: float) -> None:
        self._until[key] = max(self._until.get(key, 0.0), time.monotonic() + seconds)

    async def remaining(self, keys: Sequence[str]) -> dict[str, float]:
        now = time.monotonic()
        return {key: until - now for key in keys if (until := self._until.get(key, 0.0)) > now}


class SqliteCooldowns:
    """Cooldowns in one SQLite file, shared by every worker and process on one host (end times
    on the wall clock, which those processes share)."""

    def __init__(self, path: str) -> None:
        import sqlite3

        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10.0)
        self._db.execute("pragma journal_mode=wal")
        self._db.execute("create table if not exists cooldowns (key text primary key, until real not null)")
        self._lock = threading.Lock()

    async def cool(self, key: str, seconds: float) -> None:
        until = time.time() + seconds
        with self._lock:
            self._db.execute(
                "insert into cooldowns values (?, ?) on conflict(key) do update set until = max(until, excluded.until)",
                (key, until),
            )

    async def remaining(self, keys: Sequence[str]) -> dict[str, float]:
        if not keys:
            return {}
        now = time.time()
        marks = ",".join("?" * len(keys))
        with self._lock:
            rows = self._db.execute(f"select key, until from cooldowns where key in ({marks})", list(keys)).fetchall()
        return {str(key): float(until) - now for key, until in rows if until > now}


def open_state(where: str) -> tuple[IdStore, Cooldowns]:
    """The id store and the cooldowns ``where`` names: ``memory``, ``redis://...`` (or
    ``rediss://``, ``unix://``), or a SQLite file's path."""
    if where == "memory":
        return MemoryIdStore(), MemoryCooldowns()
    if where.startswith(("redis://", "rediss://", "unix://")):
        from ._redis import RedisCooldowns, RedisIdStore

        return RedisIdStore(where), RedisCooldowns(where)
    return SqliteIdStore(where), SqliteCooldowns(where)
