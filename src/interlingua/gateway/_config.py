"""The gateway's configuration: routes (model pattern -> upstream), keys, limits; from TOML or code."""

from __future__ import annotations

import fnmatch
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._ids import IdStore, SqliteIdStore

DEFAULT_MAX_BODY = 32 * 1024 * 1024
"""32 MiB: the largest request limit the four served APIs document."""


class ConfigError(ValueError):
    """A configuration the gateway cannot run with (named by its key)."""


@dataclass(frozen=True)
class Route:
    """Where requests for models matching ``match`` (a glob: ``acme-*``) go.

    ``codec`` is the upstream's wire; ``base_url`` its address (None: the codec's default);
    ``api_key_env`` the environment variable holding its key (None: the codec's usual ones, or
    no key when none is set, for a local server).
    ``model`` replaces the caller's model name upstream. ``strict`` refuses a request the
    upstream's wire cannot carry whole (a 400 naming the path). ``max_retries``: the upstream
    call's own retries; 0 by default, the caller's SDK retries with the status it is given."""

    match: str
    codec: str
    base_url: str | None = None
    api_key_env: str | None = None
    model: str | None = None
    strict: bool = False
    max_retries: int = 0
    timeout: float | None = None
    settings: Mapping[str, str] = field(default_factory=dict)

    def matches(self, model: str) -> bool:
        return fnmatch.fnmatchcase(model, self.match)

    def api_key(self) -> str | None:
        """The upstream key, read when the route's client is built; never logged or shown."""
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env)
        if not key:
            raise ConfigError(f"route {self.match!r}: environment variable {self.api_key_env} is not set")
        return key


@dataclass(frozen=True)
class GatewayConfig:
    """``routes`` are tried in order, the first match wins. ``keys``: the keys callers must
    present (``Authorization: Bearer``, ``x-api-key`` or ``x-goog-api-key``); empty, none is
    asked. ``max_body_bytes``: larger request bodies get a 413. ``id_store``: see
    :class:`~interlingua.gateway.IdStore`."""

    routes: Sequence[Route]
    keys: frozenset[str] = field(default=frozenset(), repr=False)
    max_body_bytes: int = DEFAULT_MAX_BODY
    id_store: IdStore | None = None

    def route_for(self, model: str) -> Route | None:
        return next((route for route in self.routes if route.matches(model)), None)


_ROUTE_KEYS = frozenset(Route.__dataclass_fields__)
_GATEWAY_KEYS = frozenset({"keys_env", "max_body_bytes", "id_store"})


def load_config(path: str | Path) -> GatewayConfig:
    """A :class:`GatewayConfig` from TOML: a ``[gateway]`` table (``keys_env``: the variable
    holding the callers' keys, comma-separated; ``max_body_bytes``; ``id_store``: a SQLite file
    that keeps the tool ids too long to encode, shared by workers and restarts) and ``[[route]]`` tables
    with :class:`Route`'s fields. Keys are never written in the file itself."""
    try:
        document = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return config_from_mapping(document)


def config_from_mapping(document: Mapping[str, Any]) -> GatewayConfig:
    gateway = document.get("gateway", {})
    unknown = set(gateway) - _GATEWAY_KEYS
    if unknown:
        raise ConfigError(f"[gateway]: unknown keys {sorted(unknown)}; known: {sorted(_GATEWAY_KEYS)}")
    routes = []
    for at, table in enumerate(document.get("route", [])):
        unknown = set(table) - _ROUTE_KEYS
        if unknown or "match" not in table or "codec" not in table:
            raise ConfigError(f"route[{at}]: needs match and codec; unknown keys {sorted(unknown)}")
        routes.append(Route(**table))
    if not routes:
        raise ConfigError("no [[route]] tables: the gateway would answer every model with a 404")
    keys: frozenset[str] = frozenset()
    if "keys_env" in gateway:
        raw = os.environ.get(gateway["keys_env"], "")
        keys = frozenset(k.strip() for k in raw.split(",") if k.strip())
        if not keys:
            raise ConfigError(f"[gateway] keys_env: environment variable {gateway['keys_env']} holds no key")
    store = SqliteIdStore(str(gateway["id_store"])) if "id_store" in gateway else None
    size = int(gateway.get("max_body_bytes", DEFAULT_MAX_BODY))
    return GatewayConfig(routes, keys=keys, max_body_bytes=size, id_store=store)
