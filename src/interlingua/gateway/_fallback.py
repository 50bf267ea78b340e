"""Fallback and load balancing: a route's upstreams, the order one request tries them in, and what
each try came to.

A route lists upstreams (any wire, any model), each with an ``order`` and a ``weight``. A request
tries the lowest order first; upstreams sharing an order share its requests by weight (the first
try is drawn by weight, the rest of the tier follows, drawn the same way). A try that fails with a
429, a 5xx, a timeout or a broken connection, before the caller has been sent anything, moves on
to the next upstream, which encodes the same decoded request with its own codec and model rules;
the failed upstream cools down (for the ``retry-after`` it sent, else the route's ``cooldown``),
and the tries of other requests, in this process or any sharing the cooldown store, skip it
until then. Under ``fallback_strict`` a hop that would lose part of the request is refused and
the next one tried. What each try came to is kept on :class:`Hop` for the answer's headers and
the log line.
"""

from __future__ import annotations

import logging
import math
import os
import random
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from .._errors import EncodeError, ProviderError, ServerError, TimeoutError, TransportError
from .._warnings import AnyWarning, LossyEncodeError
from ._errors import ConfigError

if TYPE_CHECKING:
    from ._state import Cooldowns

log = logging.getLogger("interlingua.gateway")

UPSTREAM_HEADER = "x-interlingua-upstream"
"""The upstream that served the answer (its name, or ``codec/model``)."""
HOPS_HEADER = "x-interlingua-hops"
"""Every upstream a request tried, in order, with what it came to: ``a 429, b 200 warnings=2``."""
DEFAULT_COOLDOWN = 30.0
"""Seconds a failed upstream is skipped when it did not say (``retry-after``) for how long."""
MAX_COOLDOWN = 3600.0
"""A ``retry-after`` longer than an hour is read as an hour."""

_NAME = re.compile(r"[\w.:/@+-]+", re.ASCII)
T = TypeVar("T")


@dataclass(frozen=True)
class Upstream:
    """One upstream of a route: ``codec``, ``base_url``, ``api_key_env``, ``model``, ``strict``,
    ``max_retries``, ``timeout`` and ``settings`` as on :class:`~interlingua.gateway.Route`;
    ``order`` (lower is tried first; None: its place in the list) and ``weight`` (its share of
    the requests among upstreams of the same order); ``name`` (shown in the headers, the log and
    the cooldown key; default ``codec/model``)."""

    codec: str
    base_url: str | None = None
    api_key_env: str | None = None
    model: str | None = None
    strict: bool = False
    max_retries: int = 0
    timeout: float | None = None
    settings: Mapping[str, str] = field(default_factory=dict)
    weight: float = 1.0
    order: int | None = None
    name: str | None = None

    @property
    def label(self) -> str:
        if self.name is not None:
            return self.name
        return self.codec if self.model is None else f"{self.codec}/{self.model}"

    @property
    def key(self) -> str:
        """What its cooldown is kept under: the same in every process reading the same config."""
        return f"{self.label}@{self.base_url or 'default'}"

    def api_key(self) -> str | None:
        """The upstream key, read when its client is built; never logged or shown."""
        return key_from(self.api_key_env, f"upstream {self.label!r}")


def key_from(variable: str | None, who: str) -> str | None:
    """The key in environment ``variable`` (None: no key), for ``who`` (a route or an upstream,
    as the error names it); a variable not set is a ConfigError."""
    if variable is None:
        return None
    key = os.environ.get(variable)
    if not key:
        raise ConfigError(f"{who}: environment variable {variable} is not set")
    return key


def check_upstream(upstream: Upstream, at: str) -> None:
    """Raise ConfigError for what only a fallback upstream has: a weight, an order, a name."""
    weight = upstream.weight
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 < weight < math.inf:
        raise ConfigError(f"{at}: weight must be a positive number, not {weight!r}")
    if upstream.order is not None and (isinstance(upstream.order, bool) or not isinstance(upstream.order, int)):
        raise ConfigError(f"{at}: order must be a whole number, not {upstream.order!r}")
    if upstream.name is not None and not (isinstance(upstream.name, str) and _NAME.fullmatch(upstream.name)):
        raise ConfigError(f"{at}: name must be letters, digits and . : / @ + - _ only, not {upstream.name!r}")


def plan(upstreams: Sequence[Upstream], rng: random.Random) -> list[int]:
    """The indexes of ``upstreams`` in the order one request tries them: by ``order``, and within
    one order a draw by weight without replacement (each next pick weighted among those left;
    Efraimidis and Spirakis' keys ``u ** (1 / weight)``, largest first, draw exactly that)."""

    def rank(at: int) -> tuple[int, float]:
        upstream = upstreams[at]
        order = at if upstream.order is None else upstream.order
        return order, -(rng.random() ** (1.0 / upstream.weight))

    return sorted(range(len(upstreams)), key=rank)


@dataclass
class Hop:
    """One upstream a request tried (or skipped): ``outcome`` is the status it answered, or
    ``timeout``, ``connection``, ``cooling`` (skipped: cooling down), ``lossy`` (refused: it would
    lose part of the request under strict), ``refused`` (its wire cannot carry the request)."""

    at: int
    upstream: Upstream
    strict: bool = False
    outcome: str = ""
    warnings: list[AnyWarning] = field(default_factory=list)

    def shown(self) -> str:
        more = f" warnings={len(self.warnings)}" if self.warnings and self.outcome.isdigit() else ""
        return f"{self.upstream.label} {self.outcome}{more}"


def fall_over(exc: BaseException) -> str | None:
    """What a failed try came to when the next upstream should be tried (None: answer with it)."""
    if isinstance(exc, ProviderError):  # an error event in a stream has no status: its class's
        status = exc.status or exc.status_code or 502
        return str(status) if status == 429 or status >= 500 else None
    if isinstance(exc, TimeoutError):
        return "timeout"
    if isinstance(exc, TransportError):
        return "connection"
    return None


class Attempts:
    """One request's tries over a route's upstreams. ``run(attempt)`` calls ``attempt(hop, more)``
    (``more``: whether another upstream is left to try, so a stream should be read up to its first
    event before it is answered) until one returns; ``hops`` says what each came to. A route of
    one upstream tries it once, with no cooldown: its failure goes to the caller as it came."""

    def __init__(
        self, upstreams: Sequence[Upstream], cooldowns: Cooldowns, *, strict: bool, cooldown: float, rng: random.Random
    ) -> None:
        self.upstreams, self.cooldowns, self.fallback_strict, self.cooldown = upstreams, cooldowns, strict, cooldown
        self.hops: list[Hop] = []
        self._rng = rng

    @property
    def served(self) -> Hop | None:
        last = self.hops[-1] if self.hops else None
        return last if last is not None and last.outcome == "200" else None

    def upstream(self) -> str | None:
        """The upstream that served, else the last one asked (None: none was asked)."""
        asked = [hop for hop in self.hops if hop.outcome != "cooling"]
        return asked[-1].upstream.label if asked else None

    def headers(self) -> dict[str, str]:
        served = self.served
        headers = {} if served is None else {UPSTREAM_HEADER: served.upstream.label}
        if len(self.upstreams) > 1 and self.hops:
            headers[HOPS_HEADER] = ", ".join(hop.shown() for hop in self.hops)
        return headers

    async def run(self, attempt: Callable[[Hop, bool], Awaitable[T]]) -> T:
        if len(self.upstreams) == 1:
            hop = Hop(0, self.upstreams[0], strict=self.upstreams[0].strict)
            self.hops.append(hop)
            result = await attempt(hop, False)
            hop.outcome = "200"
            return result
        order = plan(self.upstreams, self._rng)
        cooling = await self._cooling(order)
        ready = [at for at in order if at not in cooling]
        failure: BaseException | None = None
        for at in order:
            strict = self.upstreams[at].strict or (self.fallback_strict and at != order[0])
            hop = Hop(at, self.upstreams[at], strict=strict)
            self.hops.append(hop)
            if at in cooling:
                hop.outcome = "cooling"
                continue
            ready.remove(at)
            try:
                result = await attempt(hop, bool(ready))
            except EncodeError as exc:
                hop.outcome = "lossy" if isinstance(exc, LossyEncodeError) else "refused"
                failure = failure if isinstance(failure, ProviderError | TransportError) else exc
                continue
            except (ProviderError, TransportError) as exc:
                outcome = fall_over(exc)
                if outcome is None:
                    raise
                hop.outcome = outcome
                failure = exc
                await self._cool(hop.upstream, exc)
                continue
            hop.outcome = "200"
            return result
        if failure is not None:
            raise failure
        wait = min(cooling.values())
        raise ServerError(
            "every upstream of this route is cooling down after failures", status=503, retry_after=wait
        )

    async def _cooling(self, order: list[int]) -> dict[int, float]:
        """Seconds left for each upstream cooling down; none when the store cannot be read (a
        shared store that is down must not take the gateway with it: logged)."""
        keys = [self.upstreams[at].key for at in order]
        try:
            left = await self.cooldowns.remaining(keys)
        except Exception as exc:
            log.warning("cooldowns could not be read (%s); trying every upstream", type(exc).__name__)
            return {}
        return {at: left[key] for at, key in zip(order, keys, strict=True) if key in left}

    async def _cool(self, upstream: Upstream, exc: BaseException) -> None:
        asked = exc.retry_after if isinstance(exc, ProviderError) else None
        seconds = min(asked, MAX_COOLDOWN) if asked is not None and asked > 0 else self.cooldown
        try:
            await self.cooldowns.cool(upstream.key, seconds)
        except Exception as exc:
            log.warning("a cooldown could not be kept (%s)", type(exc).__name__)
