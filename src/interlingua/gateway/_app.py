"""The ASGI app: a vendor endpoint in, a routed upstream call, the answer back in the caller's wire.

Starlette is imported when the app is built, never by ``import interlingua``. Each request:
key check, size limit, decode with the caller's codec, route by model, tool ids back to the
upstream's, the upstream call through :class:`~interlingua.AsyncClient`, the answer (or its
events, one by one) encoded with the caller's codec. What went wrong upstream comes back as the
caller's vendor error, with its status (a 429 keeps its ``retry-after``).
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import json
import logging
import math
import os
import random
import re
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import parse_qsl, urlencode

from .._client import AsyncClient
from .._codec import Codec, HttpRequest
from .._errors import (
    DecodeError,
    EncodeError,
    InterlinguaError,
    ProviderError,
    TimeoutError,
    TransportError,
)
from .._registry import ServedWire, get_codec, served
from .._request import Request
from .._response import Response
from .._warnings import AnyWarning, LossyEncodeError
from ._config import GatewayConfig, Route, check_route
from ._errors import ConfigError
from ._fallback import HOPS_HEADER, Attempts, Hop
from ._ids import ToolIdMap
from ._pipe import Pipe
from ._state import MemoryCooldowns

if TYPE_CHECKING:
    import httpx2
    from starlette.applications import Starlette
    from starlette.requests import Request as HttpIn
    from starlette.responses import Response as HttpOut

log = logging.getLogger("interlingua.gateway")

WARNINGS_HEADER = "x-interlingua-warnings"
"""``<count>; <first paths, comma-separated>``: what the conversion could not carry."""
_SHOWN_PATHS = 5


class _Refused(Exception):
    """Answer the caller now with ``status`` and ``message`` in its wire's error shape."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


class Gateway:
    """One gateway: its configuration, an upstream client per route (built on first use, sharing
    one connection pool) and the tool-id map. ``app()`` is the ASGI application."""

    def __init__(self, config: GatewayConfig, *, http_client: httpx2.AsyncClient | None = None) -> None:
        for at, route in enumerate(config.routes):
            check_route(route, f"routes[{at}]")
        self.config = config
        self.ids = ToolIdMap(config.id_store)
        self.cooldowns = config.cooldowns if config.cooldowns is not None else MemoryCooldowns()
        self._random = random.Random()
        self.open_streams = 0
        """Upstream streams open now (a disconnecting caller closes its own at once)."""
        self._http = http_client
        self._clients: dict[tuple[int, int], AsyncClient] = {}
        self._secrets: list[str] = []
        if config.telemetry:
            from .._otel import instrument

            instrument(content=True if config.telemetry == "content" else None)

    def app(self) -> Starlette:
        from starlette.applications import Starlette
        from starlette.routing import Route as Path

        from . import _count, _models

        def endpoint(wire: ServedWire) -> Callable[[HttpIn], Any]:
            counting = wire.serving.counting

            async def handle(request: HttpIn) -> HttpOut:
                if _count.asks_count(counting, request):  # models/M:countTokens
                    return await _count.count(self, wire, request)
                return await self.handle(wire, request)

            return handle

        def counter(wire: ServedWire) -> Callable[[HttpIn], Any]:
            async def handle(request: HttpIn) -> HttpOut:
                return await _count.count(self, wire, request)

            return handle

        def lister(claims: list[Any]) -> Callable[[HttpIn], Any]:
            async def handle(request: HttpIn) -> HttpOut:
                return await _models.answer(self, claims, request)

            return handle

        @contextlib.asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            yield
            await self.aclose()

        paths = [
            Path(path, endpoint(wire), methods=["POST"])
            for wire in served()
            for path in (wire.path, *wire.serving.also)
        ]
        # token counts and model lists (issue 42): their own paths, ahead of any catch-all
        counts = [(wire, wire.serving.counting.path) for wire in served() if wire.serving.counting is not None]
        paths[:0] = [Path(path, counter(wire), methods=["POST"]) for wire, path in counts if path is not None]
        paths += [Path(path, lister(claims), methods=["GET"]) for path, claims in _models.list_routes(served()).items()]
        return Starlette(routes=paths, lifespan=lifespan)

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.aclose()
        if self._http is not None:
            await self._http.aclose()
        self._clients.clear()
        close = getattr(self.cooldowns, "aclose", None)
        if close is not None:
            await close()

    # --- one request ------------------------------------------------------------------------

    async def handle(self, wire: ServedWire, http: HttpIn) -> HttpOut:
        started = time.perf_counter()
        caller = get_codec(wire.codec)
        facts: dict[str, Any] = {"route": _logged_path(http), "model": None, "tokens": None}
        try:
            self._check_key(http)
            body = await self._body(http)
            request, stream = self._decode(wire, caller, http, body)
            facts["model"] = request.model
            route = self.config.route_for(request.model or "")
            if route is None:
                raise _Refused(404, f"model: {request.model} is not served by this gateway")
            facts["match"] = route.match
            request = self.ids.inward_request(request)
            tries = Attempts(
                route.hops(), self.cooldowns, strict=route.fallback_strict, cooldown=route.cooldown, rng=self._random
            )
            facts["tries"] = tries

            async def attempt(hop: Hop, more: bool) -> Any:
                client, prepared = await self._prepare(route, hop, request, stream=stream)
                facts["host"] = prepared.host  # encoded for it; an answer records it on its signed blocks
                if stream:
                    return await self._open(client, prepared, caller, more)
                return await self._until_disconnect(http, client.send(prepared))

            if stream:
                return self._stream(await tries.run(attempt), facts, started)
            answer = await tries.run(attempt)
            answer = self.ids.outward_response(answer, _accepts(caller))
            encoded = caller.encode_response(answer)
        except _Refused as refused:
            return self._refuse(wire, refused, facts, started)
        except LossyEncodeError as exc:  # a strict route, no other upstream served
            paths = ", ".join(w.path for w in exc.warnings[:_SHOWN_PATHS])
            strict = _Refused(400, f"strict route {facts['match']!r}: {exc.codec} would lose {paths}")
            return self._refuse(wire, strict, facts, started)
        except Exception as exc:
            return self._refuse(wire, self._fault(exc), facts, started)
        warnings = [*answer.warnings, *encoded.warnings]  # the request's, the upstream answer's, the caller's
        facts["tokens"] = _tokens(answer)
        self._log(facts, warnings, started, 200)
        from starlette.responses import JSONResponse

        return JSONResponse(encoded.body, headers={**_warning_headers(warnings), **tries.headers()})

    def _check_key(self, http: HttpIn) -> None:
        if not self.config.keys:
            return
        headers = http.headers
        bearer = headers.get("authorization", "")
        offered = [
            bearer[7:] if bearer[:7].lower() == "bearer " else None,
            headers.get("x-api-key"),
            headers.get("x-goog-api-key"),
            http.query_params.get("key"),
        ]
        if not any(key in self.config.keys for key in offered if key):
            raise _Refused(401, "invalid or missing gateway key")

    async def _body(self, http: HttpIn) -> bytes:
        """The body, read no further than the limit (a lying or absent content-length included),
        and within ``body_timeout`` (a caller dripping bytes holds a connection: a 408)."""
        limit = self.config.max_body_bytes
        declared = http.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise _Refused(413, f"request body exceeds the gateway's limit of {limit} bytes")
        chunks, size = [], 0

        async def read() -> None:
            nonlocal size
            async for chunk in http.stream():
                size += len(chunk)
                if size > limit:
                    raise _Refused(413, f"request body exceeds the gateway's limit of {limit} bytes")
                chunks.append(chunk)

        try:
            await asyncio.wait_for(read(), self.config.body_timeout)
        except builtins.TimeoutError:  # asyncio's, since Python 3.11
            raise _Refused(408, f"the request body was not sent within {self.config.body_timeout:g} s") from None
        return b"".join(chunks)

    def _decode(self, wire: ServedWire, caller: Codec, http: HttpIn, raw: bytes) -> tuple[Request, bool]:
        body = json_object(raw)
        stream = body.get("stream") is True
        serving = wire.serving
        for key in serving.stream_keys:
            body.pop(key, None)
        model = None
        if serving.model_in_path:
            model, _, method = http.path_params["target"].rpartition(":")
            if not model or method not in serving.methods:
                counted = serving.counting.method if serving.counting is not None else None
                methods = [*serving.methods, *([counted] if counted else [])]
                raise _Refused(404, f"{http.url.path}: this gateway serves {', '.join(methods[:-1])} and {methods[-1]}")
            stream = method == serving.stream_method
        try:
            request = caller.decode_request(body)
        except DecodeError as exc:
            raise _Refused(400, f"{exc.path}: {exc.reason}") from None
        except ValueError as exc:  # a value the IR refuses (pydantic's ValidationError is a ValueError)
            raise _Refused(400, f"the request does not fit its wire: {str(exc).splitlines()[0]}") from None
        if model is not None:
            request = request.model_copy(update={"model": model.removeprefix("models/")})
        return request, stream

    async def _prepare(
        self, route: Route, hop: Hop, request: Request, *, stream: bool
    ) -> tuple[AsyncClient, HttpRequest]:
        """The request for one upstream, encoded by its codec under its model's name and rules:
        what its wire cannot carry rides on ``.encoded`` (and on ``hop.warnings``); under
        ``strict``, a LossyEncodeError (a 400 naming it, when no other upstream serves)."""
        client = self._client(route, hop.at)
        if hop.upstream.model is not None:
            request = request.model_copy(update={"model": hop.upstream.model})
        try:
            prepared = await client.prepare(request, stream=stream, strict=hop.strict)
        except LossyEncodeError:
            raise
        except EncodeError as exc:  # the caller's request, not the gateway's fault: a 400
            raise _Unfit(exc.codec, exc.path, exc.reason) from None
        hop.warnings = list(prepared.encoded.warnings) if prepared.encoded is not None else []
        return client, prepared

    async def _until_disconnect(self, http: HttpIn, call: Any) -> Response:
        """The upstream answer, or (the caller left first) the upstream call cancelled."""
        task = asyncio.ensure_future(call)
        watcher = asyncio.ensure_future(_disconnected(http))
        try:
            await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            watcher.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            raise _Refused(499, "the caller disconnected")
        return cast(Response, task.result())

    def _fault(self, exc: Exception) -> _Refused:
        """What is not the caller's fault: an upstream answer its own wire cannot read is the
        upstream's (502); anything else is the gateway's own (500), logged with its traceback.
        An upstream's refusal keeps its status; a request its wire cannot carry is a 400."""
        if isinstance(exc, ProviderError):
            return self._upstream_refusal(exc)
        if isinstance(exc, TransportError):
            return _Refused(504 if isinstance(exc, TimeoutError) else 502, self._hide(str(exc)))
        if isinstance(exc, _Unfit):
            return _Refused(400, f"{exc.path}: {exc.reason}")
        if isinstance(exc, DecodeError):
            return _Refused(502, self._hide(f"the upstream's answer could not be read: {exc}"))
        if not isinstance(exc, InterlinguaError | ConfigError):
            log.error("an internal error", exc_info=exc)
            return _Refused(500, "an internal error in the gateway")
        return _Refused(500, self._hide(str(exc)))

    def _upstream_refusal(self, exc: ProviderError) -> _Refused:
        status = exc.status or exc.status_code or 502  # an error event in a stream: its class says
        if status in (401, 403):  # the gateway's own upstream key was refused: not the caller's business
            return _Refused(502, "the upstream refused the gateway's credentials")
        headers = {}
        if exc.retry_after is not None:
            headers["retry-after"] = str(max(math.ceil(exc.retry_after), 0))
        return _Refused(status, self._hide(exc.message), headers)

    # --- streams ----------------------------------------------------------------------------

    async def _open(self, client: AsyncClient, prepared: HttpRequest, caller: Codec, more: bool) -> _Opened:
        """Open the upstream stream first, so its refusal is still an HTTP status (AsyncClient's
        open: its retries, its deadline, its vendor errors). With ``more`` upstreams left to try,
        read it up to the first bytes the caller would get: a stream that breaks or stalls before
        them is a TransportError here, and the next upstream is tried. With telemetry on, the
        upstream call has a span of its own (``_Opened.call``), ended by the relay or here."""
        warnings = list(prepared.encoded.warnings) if prepared.encoded is not None else []
        call = client.span(prepared)
        try:
            response = await client.open(prepared)
        except BaseException as exc:
            if call is not None:
                call.failed(exc, warnings)
            raise
        pipe = Pipe(
            client.codec,
            caller,
            self.ids,
            _accepts(caller),
            max_event_size=client.max_event_size,
            hide=self._hide,
            framing=prepared.events,
            collect=call is not None,
        )
        opened = _Opened(response, pipe, response.aiter_bytes(), client.deadline, call)
        if more:
            try:
                opened.first = await opened.read_ahead(client.codec.name)
            except BaseException as exc:
                pipe.close()
                await response.aclose()
                if call is not None:
                    call.failed(exc, warnings)
                raise
        return opened

    def _stream(self, opened: _Opened, facts: dict[str, Any], started: float) -> HttpOut:
        """Relay an opened stream; the headers say what the request's encoding could not carry
        and which upstream serves it."""
        from starlette.responses import StreamingResponse

        tries: Attempts = facts["tries"]
        served = tries.served
        warnings = served.warnings if served is not None else []
        self.open_streams += 1
        relay = self._relay(opened, warnings, facts, started)
        headers = {**_warning_headers(warnings), **tries.headers()}
        return StreamingResponse(relay, media_type="text/event-stream", headers=headers)

    async def _relay(
        self, opened: _Opened, warnings: list[AnyWarning], facts: dict[str, Any], started: float
    ) -> AsyncIterator[bytes]:
        """The caller's bytes as the pipe makes them; a caller that leaves cancels this generator,
        and the ``finally`` closes the upstream stream. The route's timeout (``deadline``) bounds
        the wait between two events, not only each read: bytes that make no event (comment lines
        dripped by a stalled upstream) do not hold the caller."""
        network: BaseException | None = None
        response, pipe, deadline, call = opened.response, opened.pipe, opened.deadline, opened.call
        try:
            if opened.first:
                yield opened.first
            try:
                loop = asyncio.get_running_loop()
                async with asyncio.timeout(deadline) as bound:
                    async for chunk in opened.chunks:
                        if made := pipe.feed(chunk):
                            bound.reschedule(loop.time() + deadline)
                            yield made
            except builtins.TimeoutError:
                network = TimeoutError(f"no upstream event within {deadline:g} s")
            except Exception as exc:  # the network broke: the pipe ends the stream with an error event
                network = exc
            if made := pipe.finish(network):
                yield made
        finally:
            import anyio

            pipe.close()
            self.open_streams -= 1
            # The caller left: Starlette cancelled this generator's scope, and anyio cancels every
            # await in it again, so closing the upstream connection must be shielded to happen.
            with anyio.CancelScope(shield=True):
                await response.aclose()
            facts["tokens"] = None if pipe.usage is None else f"{pipe.usage.input_tokens}/{pipe.usage.output_tokens}"
            self._log(facts, [*warnings, *pipe.warnings], started, 502 if pipe.failed else 200)
            if call is not None:
                pipe.traced(call, warnings)

    # --- helpers ----------------------------------------------------------------------------

    def _client(self, route: Route, at: int = 0) -> AsyncClient:
        """The client of the route's upstream ``at`` (its only one, for a route of one)."""
        client = self._clients.get((id(route), at))
        if client is None:
            upstream = route.hops()[at]
            key = upstream.api_key()
            if key is None:  # the codec's usual variables, or no key (a local server takes none)
                usual = get_codec(upstream.codec).api_key_env_for(upstream.settings) or ()
                key = next((os.environ[name] for name in usual if os.environ.get(name)), "")
            if key:
                self._secrets.append(key)
            client = AsyncClient(
                upstream.codec,
                api_key=key,
                base_url=upstream.base_url,
                http_client=self._shared_http(),
                max_retries=upstream.max_retries,
                timeout=upstream.timeout,
                settings=upstream.settings,
            )
            self._clients[(id(route), at)] = client
        return client

    def _shared_http(self) -> httpx2.AsyncClient:
        if self._http is None:
            import httpx2

            limits = httpx2.Limits(max_connections=None, max_keepalive_connections=1000)
            self._http = httpx2.AsyncClient(timeout=httpx2.Timeout(600.0, connect=10.0), limits=limits)
        return self._http

    def _hide(self, text: str) -> str:
        """``text`` with every upstream key taken out (an upstream may echo a key in an error)."""
        for secret in self._secrets:
            text = text.replace(secret, "<hidden>")
        return text

    def _refuse(self, wire: ServedWire, refused: _Refused, facts: dict[str, Any], started: float) -> HttpOut:
        from starlette.responses import JSONResponse

        self._log(facts, [], started, refused.status, refused.message)
        body = wire.serving.error(refused.status, refused.message, None)
        tries: Attempts | None = facts.get("tries")
        headers = {**tries.headers(), **refused.headers} if tries is not None else refused.headers
        return JSONResponse(body, status_code=refused.status, headers=headers)

    def _log(
        self, facts: dict[str, Any], warnings: list[AnyWarning], started: float, status: int, error: str = ""
    ) -> None:
        """The access line: one per request, every field from a caller escaped (:func:`_field`);
        the upstream that served, and (a route of several) every upstream tried; the host the last
        upstream request went through, where its codec names one (``Codec.host_for``)."""
        paths = ",".join(w.path for w in warnings[:_SHOWN_PATHS])
        tries: Attempts | None = facts.get("tries")
        upstream = tries.upstream() if tries is not None else None
        hops = tries.headers().get(HOPS_HEADER) if tries is not None else None
        log.info(
            "%s %s model=%s upstream=%s status=%d latency_ms=%.1f tokens=%s warnings=%d%s%s%s%s",
            "POST",
            _field(facts["route"]),
            _field(facts["model"]),
            upstream,
            status,
            (time.perf_counter() - started) * 1000,
            facts["tokens"],
            len(warnings),
            f" paths={_field(paths)}" if paths else "",
            f" hops={json.dumps(hops)}" if hops else "",
            f" error={json.dumps(error)}" if error else "",
            f" host={facts['host']}" if facts.get("host") else "",
        )


class _Unfit(EncodeError):
    """A request an upstream's wire cannot carry at all (a 400 when no other upstream serves)."""


class _Opened:
    """An upstream stream open, its pipe, and (read ahead) the first bytes for the caller."""

    def __init__(
        self, response: httpx2.Response, pipe: Pipe, chunks: AsyncIterator[bytes], deadline: float, call: Any = None
    ) -> None:
        self.response, self.pipe, self.chunks, self.deadline = response, pipe, chunks, deadline
        self.call = call
        """The upstream call's span (telemetry on), ended when the relay ends."""
        self.first = b""

    async def read_ahead(self, codec: str) -> bytes:
        """The caller's bytes up to the answer's first part (its opening events held back until
        then); the vendor's error event when it comes first (an overload a vendor reports after
        its 200); a TransportError (a TimeoutError when ``deadline`` passes between two events)
        when the stream breaks, ends or stalls before it."""
        made: list[bytes] = []
        try:
            loop = asyncio.get_running_loop()
            async with asyncio.timeout(self.deadline) as bound:
                async for chunk in self.chunks:
                    if piece := self.pipe.feed(chunk):
                        made.append(piece)
                        bound.reschedule(loop.time() + self.deadline)
                    if self.pipe.early_error is not None:
                        break
                    if self.pipe.content or self.pipe.ended:
                        return b"".join(made)
        except builtins.TimeoutError:
            raise TimeoutError(f"{codec}: no stream event within {self.deadline:g} s") from None
        except Exception as exc:
            raise TransportError(f"{codec}: the stream broke before its first event ({type(exc).__name__})") from None
        if self.pipe.early_error is not None:
            raise self.pipe.early_error
        raise TransportError(f"{codec}: the stream ended before its first part")


async def _disconnected(http: HttpIn) -> None:
    """Returns when the caller goes away (the body is read, so the next message is the disconnect)."""
    while (await http.receive())["type"] != "http.disconnect":
        pass


_PLAIN = re.compile(r"[\w.,:/@+*<>%=&?-]*", re.ASCII)
_SECRET_PARAMS = frozenset({"key", "api_key", "api-key", "access_token"})


def _field(value: object) -> str:
    """A log field as it is when plain, else JSON-quoted: control characters (CR/LF), spaces,
    quotes and non-ASCII escaped, so a caller's model name cannot forge a line or a field."""
    text = str(value)
    return text if _PLAIN.fullmatch(text) else json.dumps(text)


def _logged_path(http: HttpIn) -> str:
    """The request's path and query, a key in the query (``?key=``, as some vendors' clients send
    one) written ``<redacted>``."""
    query = http.url.query
    if not query:
        return http.url.path
    pairs = parse_qsl(query, keep_blank_values=True)
    shown = [(name, "<redacted>" if name.lower() in _SECRET_PARAMS else value) for name, value in pairs]
    return f"{http.url.path}?{urlencode(shown, safe='<>')}"


def json_object(raw: bytes) -> dict[str, Any]:
    """A caller's request body, which every served endpoint takes as one JSON object: anything
    else is the caller's 400."""
    try:
        body = strict_json(raw)
    except ValueError as exc:
        raise _Refused(400, f"the request body is not JSON ({exc})") from None
    if not isinstance(body, dict):
        raise _Refused(400, "the request body must be a JSON object")
    return body


def strict_json(raw: bytes) -> Any:
    """A request body as JSON, refusing what JSON has no token for: ``NaN``, ``Infinity``, and a
    number too large for a float (``1e999``), which the parser would read as infinity."""
    from pydantic_core import from_json

    body = from_json(raw, allow_inf_nan=False)
    if _HUGE_NUMBER.search(raw) and _has_infinity(body):
        raise ValueError("a number too large for a double")
    return body


_HUGE_NUMBER = re.compile(rb"[eE]\+?\d{3}|\d{300}")
"""Text that may hold a number past a double's range (1.8e308): only then is the body walked."""


def _has_infinity(value: Any) -> bool:
    if isinstance(value, float):
        return math.isinf(value)
    if isinstance(value, dict):
        return any(_has_infinity(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_infinity(item) for item in value)
    return False


def _accepts(codec: Codec) -> Callable[[str], bool] | None:
    ids = codec.rules.tool_ids
    return None if ids is None else ids.accepts


def _tokens(response: Response) -> str | None:
    usage = response.usage
    return None if usage is None else f"{usage.input_tokens}/{usage.output_tokens}"


def _warning_headers(warnings: list[AnyWarning]) -> dict[str, str]:
    if not warnings:
        return {}
    paths = ", ".join(w.path for w in warnings[:_SHOWN_PATHS])
    return {WARNINGS_HEADER: f"{len(warnings)}; {paths}"}


def create_app(config: GatewayConfig, *, http_client: httpx2.AsyncClient | None = None) -> Starlette:
    """The ASGI app for ``config`` (``uvicorn.run(create_app(config))``)."""
    return Gateway(config, http_client=http_client).app()
