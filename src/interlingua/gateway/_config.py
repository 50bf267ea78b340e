"""The gateway's configuration: routes (model pattern -> upstream), keys, limits; from TOML or code."""

from __future__ import annotations

import fnmatch
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._errors import ConfigError
from ._fallback import DEFAULT_COOLDOWN, Upstream, check_upstream, key_from
from ._ids import IdStore, SqliteIdStore
from ._state import Cooldowns, open_state

DEFAULT_MAX_BODY = 32 * 1024 * 1024
"""32 MiB: the largest request limit the four served APIs document."""
DEFAULT_BODY_TIMEOUT = 60.0
"""Seconds a caller has to send its whole request body (a slow drip holds a connection)."""


@dataclass(frozen=True)
class Route:
    """Where requests for models matching ``match`` (a glob: ``acme-*``) go.

    ``codec`` is the upstream's wire; ``base_url`` its address (None: the codec's default);
    ``api_key_env`` the environment variable holding its key (None: the codec's usual ones, or
    no key when none is set, for a local server).
    ``model`` replaces the caller's model name upstream. ``strict`` refuses a request the
    upstream's wire cannot carry whole (a 400 naming the path). ``max_retries``: the upstream
    call's own retries; 0 by default, the caller's SDK retries with the status it is given.

    Or, instead of ``codec`` and the fields above, ``upstreams``: several
    :class:`~interlingua.gateway.Upstream` (fallback and load balancing, see
    ``gateway/_fallback.py``), with ``fallback_strict`` (a hop after a failure that would lose
    part of the request is refused, and the next upstream tried) and ``cooldown`` (seconds a
    failed upstream is skipped when its answer named no ``retry-after``)."""

    match: str
    codec: str = ""
    base_url: str | None = None
    api_key_env: str | None = None
    model: str | None = None
    strict: bool = False
    max_retries: int = 0
    timeout: float | None = None
    settings: Mapping[str, str] = field(default_factory=dict)
    upstreams: Sequence[Upstream] = ()
    fallback_strict: bool = False
    cooldown: float = DEFAULT_COOLDOWN

    def hops(self) -> tuple[Upstream, ...]:
        """The upstreams this route may use: ``upstreams``, or the one its own fields name."""
        if self.upstreams:
            return tuple(self.upstreams)
        fields = ("base_url", "api_key_env", "model", "strict", "max_retries", "timeout", "settings")
        return (Upstream(self.codec, **{name: getattr(self, name) for name in fields}),)

    def matches(self, model: str) -> bool:
        return fnmatch.fnmatchcase(model, self.match)

    def api_key(self) -> str | None:
        """The upstream key, read when the route's client is built; never logged or shown."""
        return key_from(self.api_key_env, f"route {self.match!r}")


@dataclass(frozen=True)
class GatewayConfig:
    """``routes`` are tried in order, the first match wins. ``keys``: the keys callers must
    present (``Authorization: Bearer``, ``x-api-key``, ``x-goog-api-key`` or ``?key=``); empty,
    none is asked. ``max_body_bytes``: larger request bodies get a 413. ``id_store``: see
    :class:`~interlingua.gateway.IdStore`. ``body_timeout``: a request body not read whole
    within it gets a 408. ``cooldowns``: where failed upstreams' cooldowns are kept (default:
    this process's memory; see :func:`~interlingua.gateway.open_state` to share them)."""

    routes: Sequence[Route]
    keys: frozenset[str] = field(default=frozenset(), repr=False)
    max_body_bytes: int = DEFAULT_MAX_BODY
    id_store: IdStore | None = None
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    cooldowns: Cooldowns | None = None
    telemetry: bool | str = False
    """True: OpenTelemetry spans and metrics (:func:`interlingua.instrument`); ``"content"``: with
    message content too."""

    def route_for(self, model: str) -> Route | None:
        return next((route for route in self.routes if route.matches(model)), None)


_ROUTE_KEYS = frozenset(Route.__dataclass_fields__) - {"upstreams"}
_FALLBACK_KEYS = frozenset({"match", "upstream", "fallback_strict", "cooldown"})
_UPSTREAM_KEYS = frozenset(Upstream.__dataclass_fields__)
_GATEWAY_KEYS = frozenset({"keys_env", "open", "max_body_bytes", "body_timeout", "id_store", "state", "telemetry"})


def load_config(path: str | Path) -> GatewayConfig:
    """A :class:`GatewayConfig` from TOML: a ``[gateway]`` table (``keys_env``: the variable
    holding the callers' keys, comma-separated, required unless ``open = true`` says anyone may
    call; ``max_body_bytes``; ``body_timeout``; ``id_store``: a SQLite file that keeps the tool ids
    too long to encode, shared by workers and restarts; ``state``: where the id store and the
    cooldowns live, a SQLite file or a ``redis://`` URL shared by several instances; ``telemetry``:
    true, or ``"content"``, for OpenTelemetry spans and metrics through the global providers) and
    ``[[route]]`` tables with :class:`Route`'s fields, or with ``match``, ``fallback_strict``,
    ``cooldown`` and ``[[route.upstream]]`` tables (:class:`Upstream`'s fields). Keys are never
    written in the file itself. Everything a request would otherwise find wrong later is checked
    here: each route's codec is installed and its ``api_key_env`` set."""
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
        if "upstream" in table:
            routes.append(check_route(_fallback_route(table, f"route[{at}]"), f"route[{at}]"))
            continue
        unknown = set(table) - _ROUTE_KEYS
        if unknown or "match" not in table or "codec" not in table:
            raise ConfigError(f"route[{at}]: needs match and codec; unknown keys {sorted(unknown)}")
        routes.append(check_route(Route(**table), f"route[{at}]"))
    if not routes:
        raise ConfigError("no [[route]] tables: the gateway would answer every model with a 404")
    keys: frozenset[str] = frozenset()
    if "keys_env" in gateway:
        raw = os.environ.get(gateway["keys_env"], "")
        keys = frozenset(k.strip() for k in raw.split(",") if k.strip())
        if not keys:
            raise ConfigError(f"[gateway] keys_env: environment variable {gateway['keys_env']} holds no key")
    elif gateway.get("open") is not True:
        raise ConfigError("[gateway]: no keys_env; set it, or open = true to let anyone call")
    if "state" in gateway and "id_store" in gateway:
        raise ConfigError("[gateway]: state holds the id store too; give state or id_store, not both")
    store: IdStore | None = SqliteIdStore(str(gateway["id_store"])) if "id_store" in gateway else None
    cooldowns = None
    if "state" in gateway:
        store, cooldowns = _state(gateway["state"])
    size = _number(gateway, "max_body_bytes", int, DEFAULT_MAX_BODY)
    timeout = _number(gateway, "body_timeout", float, DEFAULT_BODY_TIMEOUT)
    telemetry = gateway.get("telemetry", False)
    if telemetry not in (True, False, "content"):
        raise ConfigError(f"[gateway] telemetry: true, false or \"content\", not {telemetry!r}")
    return GatewayConfig(
        routes,
        keys=keys,
        max_body_bytes=int(size),
        id_store=store,
        body_timeout=timeout,
        cooldowns=cooldowns,
        telemetry=telemetry,
    )


def _fallback_route(table: Mapping[str, Any], at: str) -> Route:
    """A route of several upstreams: ``match``, ``fallback_strict``, ``cooldown`` and its
    ``[[route.upstream]]`` tables."""
    unknown = set(table) - _FALLBACK_KEYS
    if unknown or "match" not in table:
        known = sorted(_FALLBACK_KEYS)
        raise ConfigError(f"{at}: a route with [[route.upstream]] takes {known}; not {sorted(unknown)}")
    upstreams = []
    for n, entry in enumerate(table["upstream"]):
        unknown = set(entry) - _UPSTREAM_KEYS
        if unknown or "codec" not in entry:
            raise ConfigError(f"{at}.upstream[{n}]: needs codec; unknown keys {sorted(unknown)}")
        upstreams.append(Upstream(**entry))
    fields = {k: table[k] for k in ("fallback_strict", "cooldown") if k in table}
    return Route(table["match"], upstreams=tuple(upstreams), **fields)


def _state(where: object) -> tuple[IdStore, Cooldowns]:
    if not isinstance(where, str) or not where:
        raise ConfigError(f"[gateway] state: a SQLite file's path or a redis:// URL, not {where!r}")
    try:
        return open_state(where)
    except ImportError:
        raise ConfigError(f"[gateway] state {where!r}: needs redis-py: pip install 'interlingua[redis]'") from None


def check_route(route: Route, at: str) -> Route:
    """``route`` when it can serve: its codec installed, its key variable set, its numbers numbers
    (for each of its upstreams, when it has several)."""
    if route.upstreams:
        if route.codec:
            raise ConfigError(f"{at}: give codec or upstreams, not both")
        if isinstance(route.cooldown, bool) or not isinstance(route.cooldown, int | float) or route.cooldown < 0:
            raise ConfigError(f"{at}: cooldown must be a number of seconds >= 0, not {route.cooldown!r}")
        for n, upstream in enumerate(route.upstreams):
            _check_upstream(upstream, f"{at}.upstream[{n}]")
            check_upstream(upstream, f"{at}.upstream[{n}]")
        return route
    _check_upstream(route, at)
    return route


def _check_upstream(route: Route | Upstream, at: str) -> None:
    from .._registry import codecs

    known = codecs()
    if route.codec not in known:
        raise ConfigError(f"{at}: codec {route.codec!r} is not installed; installed: {', '.join(known)}")
    route.api_key()
    if route.timeout is not None and not (isinstance(route.timeout, int | float) and route.timeout > 0):
        raise ConfigError(f"{at}: timeout must be a positive number of seconds, not {route.timeout!r}")
    if not isinstance(route.max_retries, int) or isinstance(route.max_retries, bool) or route.max_retries < 0:
        raise ConfigError(f"{at}: max_retries must be a whole number >= 0, not {route.max_retries!r}")
    if route.base_url is not None:
        _check_base_url(route, at)


def _check_base_url(route: Route | Upstream, at: str) -> None:
    """A base URL the route's codec refuses (one ending in a version its wire is not served at)
    fails the start, not every request: the codec builds one request's URL for it, offline."""
    from .._codec import Endpoint
    from .._errors import EncodeError
    from .._message import Message
    from .._registry import get_codec
    from .._request import Request

    probe = Request(model=route.model or "model", max_tokens=1, messages=[Message.user("-")])
    endpoint = Endpoint(base_url=route.base_url, api_key="-", settings=route.settings)
    try:
        get_codec(route.codec).http_request(probe, stream=False, endpoint=endpoint)
    except EncodeError as error:
        if error.path == "base_url":
            raise ConfigError(f"{at}: base_url: {error.reason}") from None
    except Exception:  # the rest (settings, credentials) is for the request to report
        pass


def _number(table: Mapping[str, Any], key: str, kind: type[float], default: float) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, kind | int) or value <= 0:
        raise ConfigError(f"[gateway] {key}: a positive number, not {value!r}")
    return value
