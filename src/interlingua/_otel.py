"""OpenTelemetry on the GenAI semantic conventions: a span per model call and the GenAI client
metrics, from ``Client``, ``AsyncClient`` and the gateway.

Off until :func:`instrument` is called (``pip install interlingua[otel]`` brings
``opentelemetry-api``; the application owns the SDK and its exporters). While off, a call costs
one test of a module global (:data:`ACTIVE`) and ``opentelemetry`` is never imported.

The names are the conventions' (opentelemetry-semantic-conventions 0.66b2,
``opentelemetry/semconv/_incubating/attributes/gen_ai_attributes.py`` and ``.../metrics/
gen_ai_metrics.py``; https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/): the span
``{gen_ai.operation.name} {gen_ai.request.model}``, kind CLIENT; ``gen_ai.provider.name`` (the
codec's ``genai_provider``, else its ``provider``), the request's model and sampling settings,
the response's id, model and finish reasons, ``gen_ai.usage.*`` with cache reads, cache writes and
reasoning tokens, ``server.address`` / ``server.port``, ``error.type`` on failure. Metrics:
``gen_ai.client.token.usage`` (by ``gen_ai.token.type``) and ``gen_ai.client.operation.duration``,
with the conventions' advisory buckets. Message content (``gen_ai.system_instructions``,
``gen_ai.input.messages``, ``gen_ai.output.messages``, ``gen_ai.tool.definitions``) only when
asked for (``content=True``, or ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` set to
``true``, ``SPAN_ONLY`` or ``SPAN_AND_EVENT``, as the contrib GenAI instrumentations read it),
written from the IR in the conventions' part types by :mod:`interlingua.logs._otel_genai` (which
reads them back too): reasoning stays ``reasoning``, calls ``tool_call``, results
``tool_call_response``, a vendor's server tool ``server_tool_call``.

interlingua's own: the counter ``interlingua.warnings`` (by ``interlingua.warning.kind``,
``interlingua.warning.path`` with its indices as ``[*]``, ``interlingua.wire`` and
``interlingua.warning.side``), each warning as a span event, and the wire as ``interlingua.wire``.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ._request import Request
from ._response import Response
from ._warnings import AnyWarning
from .logs._otel_genai import OUTPUT, content, dumps, output_message, response_attributes, settings

if TYPE_CHECKING:
    from ._codec import Codec

CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
_CONTENT_ON = frozenset({"true", "span_only", "span_and_event"})
TOKEN_BUCKETS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864)
"""gen_ai.client.token.usage's advisory bucket boundaries (the conventions' metrics page)."""
DURATION_BUCKETS = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92)
"""gen_ai.client.operation.duration's advisory bucket boundaries, in seconds."""
_SHOWN_WARNINGS = 32
"""Span events per call at most (the counter counts them all)."""

ACTIVE: Telemetry | None = None
"""The telemetry in force; None while off (the clients and the gateway test this, nothing else)."""


def instrument(*, tracer_provider: Any = None, meter_provider: Any = None, content: bool | None = None) -> Telemetry:
    """Turn the spans and metrics on, with the given providers (default: the global ones).
    ``content``: record message content too (default: ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT``).
    Needs ``opentelemetry-api`` (``pip install interlingua[otel]``)."""
    global ACTIVE
    try:
        import opentelemetry.metrics
        import opentelemetry.trace  # noqa: F401
    except ImportError:
        raise ImportError("interlingua's telemetry needs opentelemetry-api: pip install interlingua[otel]") from None
    if content is None:
        content = os.environ.get(CONTENT_ENV, "").strip().lower() in _CONTENT_ON
    ACTIVE = Telemetry(tracer_provider, meter_provider, content=content)
    return ACTIVE


def uninstrument() -> None:
    """Turn them off again: calls made from now on cost nothing."""
    global ACTIVE
    ACTIVE = None


def _version() -> str:
    """The installed distribution's version (from its metadata: importing the package's own
    ``__version__`` would make this module, which the package's client imports, import it back)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("interlingua")
    except PackageNotFoundError:
        return "0"


class Telemetry:
    """The tracer, the instruments and the content switch; :meth:`call` starts one call's span."""

    def __init__(self, tracer_provider: Any, meter_provider: Any, *, content: bool) -> None:
        from opentelemetry import metrics, trace

        __version__ = _version()
        self.content = content
        self.tracer = trace.get_tracer("interlingua", __version__, tracer_provider=tracer_provider)
        meter = metrics.get_meter("interlingua", __version__, meter_provider=meter_provider)
        self.tokens = meter.create_histogram(
            "gen_ai.client.token.usage",
            unit="{token}",
            description="Number of input and output tokens used.",
            explicit_bucket_boundaries_advisory=list(TOKEN_BUCKETS),
        )
        self.duration = meter.create_histogram(
            "gen_ai.client.operation.duration",
            unit="s",
            description="GenAI operation duration.",
            explicit_bucket_boundaries_advisory=list(DURATION_BUCKETS),
        )
        self.warnings = meter.create_counter(
            "interlingua.warnings", unit="{warning}", description="What a conversion could not carry, by kind and path."
        )

    def call(self, codec: Codec, request: Request | None, url: str, *, stream: bool, model: str | None = None) -> Call:
        """A call's span, started now (a child of the current span)."""
        from opentelemetry.trace import SpanKind

        model = request.model if request is not None else model
        base: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": codec.genai_provider or codec.provider,
        }
        if model:
            base["gen_ai.request.model"] = model
        where = urlsplit(url)
        if where.hostname:
            base["server.address"] = where.hostname
            if where.port is not None:
                base["server.port"] = where.port
        attributes = {**base, "interlingua.wire": codec.name, "gen_ai.request.stream": stream}
        if request is not None:
            attributes.update(_request_attributes(request))
            if self.content:
                attributes.update(content(request))
        span = self.tracer.start_span(f"chat {model}" if model else "chat", kind=SpanKind.CLIENT, attributes=attributes)
        return Call(self, codec.name, span, base)


class Call:
    """One call in flight: :meth:`ok` with its answer, or :meth:`failed`, ends it (once)."""

    def __init__(self, telemetry: Telemetry, wire: str, span: Any, base: dict[str, Any]) -> None:
        self.telemetry, self.wire, self.span, self.base = telemetry, wire, span, base
        self.started = time.perf_counter()
        self.over = False

    def ok(self, response: Response) -> None:
        if self.over:
            return
        self.over = True
        span, telemetry = self.span, self.telemetry
        metric = dict(self.base)
        if response.model:
            metric["gen_ai.response.model"] = response.model
        span.set_attributes(response_attributes(response))
        if telemetry.content:
            span.set_attribute(OUTPUT, dumps([output_message(response)]))
        self._warnings(response.warnings)
        telemetry.duration.record(time.perf_counter() - self.started, metric)
        usage = response.usage
        telemetry.tokens.record(usage.input_tokens, {**metric, "gen_ai.token.type": "input"})
        telemetry.tokens.record(usage.output_tokens, {**metric, "gen_ai.token.type": "output"})
        span.end()

    def failed(self, error: BaseException, warnings: Iterable[AnyWarning] = ()) -> None:
        if self.over:
            return
        self.over = True
        from opentelemetry.trace import Status, StatusCode

        kind = type(error).__qualname__
        status = getattr(error, "status", None)
        self.span.set_attribute("error.type", str(status) if isinstance(status, int) else kind)
        self.span.set_status(Status(StatusCode.ERROR, str(error)[:500]))
        self._warnings(warnings)
        error_type = str(status) if isinstance(status, int) else kind
        self.telemetry.duration.record(time.perf_counter() - self.started, {**self.base, "error.type": error_type})
        self.span.end()

    def _warnings(self, warnings: Iterable[AnyWarning]) -> None:
        counted = 0
        for warning in warnings:
            path = _INDEX.sub("[*]", warning.path)
            attributes = {
                "interlingua.warning.kind": warning.kind,
                "interlingua.warning.path": path,
                "interlingua.warning.side": warning.side or "",
                "interlingua.wire": self.wire,
            }
            self.telemetry.warnings.add(1, attributes)
            if counted < _SHOWN_WARNINGS:
                event = {**attributes, "interlingua.warning.path": warning.path, "message": warning.message}
                self.span.add_event("interlingua.warning", event)
            counted += 1
        self.span.set_attribute("interlingua.warnings", counted)


_INDEX = re.compile(r"\[\d+\]")


def _request_attributes(request: Request) -> dict[str, Any]:
    """The request's settings, less its model (the span's base attributes hold it already)."""
    found = settings(request)
    found.pop("gen_ai.request.model", None)
    return found
