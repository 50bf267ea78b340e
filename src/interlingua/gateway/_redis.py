"""The id store and the cooldowns on Redis, for gateway instances on several hosts
(``pip install 'interlingua[redis]'``: redis-py, imported when a ``redis://`` state is opened).

Ids are kept under ``interlingua:id:<key>`` for ``id_ttl`` seconds (30 days by default: a
conversation resumed later than that finds its stored id gone and sends it as it came, as a
restart with the memory store would). A cooldown is a key ``interlingua:cool:<upstream>`` that
expires when the cooldown ends, on the Redis server's clock, so instances on hosts whose clocks
differ agree on it; a shorter cooldown never cuts a longer one short.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

ID_PREFIX = "interlingua:id:"
COOL_PREFIX = "interlingua:cool:"
DEFAULT_ID_TTL = 30 * 24 * 3600

_COOL = """
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then
    redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 0
"""
"""Set the cooldown's expiry unless the key already expires later (one round trip, atomic)."""


class RedisIdStore:
    """:class:`~interlingua.gateway.IdStore` on Redis (blocking calls, as the id map is used from
    the stream pipe's synchronous code: one short round trip, only for ids too long to encode)."""

    def __init__(self, url: str, *, id_ttl: int = DEFAULT_ID_TTL) -> None:
        import redis

        self._redis: Any = redis.Redis.from_url(url, decode_responses=True)
        self._ttl = id_ttl

    def put(self, key: str, original: str) -> None:
        self._redis.set(ID_PREFIX + key, original, ex=self._ttl)

    def get(self, key: str) -> str | None:
        found = self._redis.get(ID_PREFIX + key)
        return None if found is None else str(found)


class RedisCooldowns:
    """:class:`~interlingua.gateway.Cooldowns` on Redis, on redis-py's asyncio client (made on
    first use, on the serving event loop)."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._redis: Any = None

    def _client(self) -> Any:
        if self._redis is None:
            import redis.asyncio

            self._redis = redis.asyncio.Redis.from_url(self._url, decode_responses=True)
        return self._redis

    async def cool(self, key: str, seconds: float) -> None:
        await self._client().eval(_COOL, 1, COOL_PREFIX + key, max(int(seconds * 1000), 1))

    async def remaining(self, keys: Sequence[str]) -> dict[str, float]:
        if not keys:
            return {}
        async with self._client().pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.pttl(COOL_PREFIX + key)
            left = await pipe.execute()
        return {key: ms / 1000 for key, ms in zip(keys, left, strict=True) if ms > 0}

    async def aclose(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None
