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
written from the IR in the conventions' part types (gen-ai-input-messages.json in
open-telemetry/semantic-conventions-genai): reasoning stays ``reasoning``, calls ``tool_call``,
results ``tool_call_response``, a vendor's server tool ``server_tool_call``.

interlingua's own: the counter ``interlingua.warnings`` (by ``interlingua.warning.kind``,
``interlingua.warning.path`` with its indices as ``[*]``, ``interlingua.wire`` and
``interlingua.warning.side``), each warning as a span event, and the wire as ``interlingua.wire``.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ._message import Message
from ._parts import (
    Audio,
    AudioOutput,
    Base64Source,
    Document,
    FileSource,
    Image,
    ImageOutput,
    Native,
    RedactedThinking,
    Text,
    TextSource,
    Thinking,
    ToolResult,
    ToolUse,
    UrlSource,
    Video,
)
from ._request import Request
from ._response import Response
from ._warnings import AnyWarning

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
                attributes.update(_content(request))
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
        span.set_attributes(_response_attributes(response))
        if telemetry.content:
            span.set_attribute("gen_ai.output.messages", _dumps([_output_message(response)]))
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
    found: dict[str, Any] = {}
    for name, value in (
        ("gen_ai.request.max_tokens", request.max_tokens),
        ("gen_ai.request.temperature", request.temperature),
        ("gen_ai.request.top_p", request.top_p),
        ("gen_ai.request.top_k", request.top_k),
        ("gen_ai.request.seed", request.seed),
        ("gen_ai.request.presence_penalty", request.presence_penalty),
        ("gen_ai.request.frequency_penalty", request.frequency_penalty),
    ):
        if value is not None:
            found[name] = value
    if request.stop:
        found["gen_ai.request.stop_sequences"] = list(request.stop)
    if request.response_format is not None:
        found["gen_ai.output.type"] = "text" if request.response_format.type == "text" else "json"
    return found


def _response_attributes(response: Response) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if response.id:
        found["gen_ai.response.id"] = response.id
    if response.model:
        found["gen_ai.response.model"] = response.model
    reason = response.raw_stop_reason or response.stop_reason
    if reason:
        found["gen_ai.response.finish_reasons"] = [reason]
    usage = response.usage
    found["gen_ai.usage.input_tokens"] = usage.input_tokens
    found["gen_ai.usage.output_tokens"] = usage.output_tokens
    for name, value in (
        ("gen_ai.usage.cache_read.input_tokens", usage.cache_read_tokens),
        ("gen_ai.usage.cache_creation.input_tokens", usage.cache_write_tokens),
        ("gen_ai.usage.reasoning.output_tokens", usage.reasoning_tokens),
    ):
        if value is not None:
            found[name] = value
    return found


# --- content, from the IR -------------------------------------------------------------------------

_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_call"}
"""IR stop reasons in the output message schema's FinishReason words (stop, length,
content_filter, tool_call, error); the others keep the IR's word."""


def _content(request: Request) -> dict[str, str]:
    """The request's content attributes: leading system and developer messages are the
    instructions, the rest the input messages; tools as their definitions."""
    messages = list(request.messages)
    lead = 0
    while lead < len(messages) and messages[lead].role in ("system", "developer"):
        lead += 1
    found = {"gen_ai.input.messages": _dumps([_message(m) for m in messages[lead:]])}
    if lead:
        found["gen_ai.system_instructions"] = _dumps([p for m in messages[:lead] for p in _parts(m)])
    if request.tools:
        found["gen_ai.tool.definitions"] = _dumps([_tool(tool) for tool in request.tools])
    return found


def _tool(tool: Any) -> dict[str, Any]:
    if tool.type == "function":
        found = {"type": "function", "name": tool.name, "parameters": tool.input_schema}
        if tool.description:
            found["description"] = tool.description
        return found
    return {"type": tool.data.get("type", "native"), "provider": tool.provider, **tool.data}


def _message(message: Message) -> dict[str, Any]:
    role = message.role
    if role == "user" and message.parts and all(isinstance(p, ToolResult) for p in message.parts):
        role = "tool"
    found: dict[str, Any] = {"role": role, "parts": _parts(message)}
    if message.name:
        found["name"] = message.name
    return found


def _output_message(response: Response) -> dict[str, Any]:
    reason = response.stop_reason or "stop"
    return {"role": "assistant", "parts": _parts(response.message), "finish_reason": _FINISH.get(reason, reason)}


def _parts(message: Message) -> list[dict[str, Any]]:
    return [_part(part) for part in message.parts]


def _part(part: Any) -> dict[str, Any]:
    if isinstance(part, Text):
        return {"type": "text", "content": part.text}
    if isinstance(part, Thinking):
        return {"type": "reasoning", "content": part.text}
    if isinstance(part, RedactedThinking):
        return {"type": "reasoning", "content": ""}
    if isinstance(part, ToolUse):
        arguments: Any = part.raw_input if part.raw_input is not None else part.input
        return {"type": "tool_call", "id": part.id, "name": part.name, "arguments": arguments}
    if isinstance(part, ToolResult):
        content = part.content
        response = content if isinstance(content, str | dict) else [_part(p) for p in content]
        return {"type": "tool_call_response", "id": part.tool_use_id, "response": response}
    if isinstance(part, Image | Audio | Video | Document | ImageOutput | AudioOutput):
        return _media(part)
    if isinstance(part, Native):
        return _native(part)
    return {"type": getattr(part, "type", "unknown")}


_MODALITY = {"image": "image", "image_output": "image", "audio": "audio", "audio_output": "audio", "video": "video"}


def _media(part: Any) -> dict[str, Any]:
    modality = _MODALITY.get(part.type, "document")
    source = part.source
    mime = getattr(source, "media_type", None)
    found: dict[str, Any]
    if isinstance(source, Base64Source):
        found = {"type": "blob", "modality": modality, "mime_type": mime, "content": source.data}
    elif isinstance(source, UrlSource):
        found = {"type": "uri", "modality": modality, "mime_type": mime, "uri": source.url}
    elif isinstance(source, FileSource):
        found = {"type": "file", "modality": modality, "mime_type": mime, "file_id": source.file_id}
    elif isinstance(source, TextSource):
        found = {"type": "text", "content": source.text}
    else:  # a handle in the host's store: named, never read
        found = {"type": "file", "modality": modality, "mime_type": mime, "file_id": getattr(source, "id", "")}
    if isinstance(part, AudioOutput) and part.transcript:
        found["transcript"] = part.transcript
    return found


def _native(part: Native) -> dict[str, Any]:
    """A vendor block: a server tool's call or result keeps that type (by the vendor's own block
    type: ``*_tool_use`` / ``*_call`` a call, ``*_result`` a result); anything else as it came."""
    kind = str(part.data.get("type", ""))
    if kind.endswith(("_result", "_response")):
        return {
            "type": "server_tool_call_response",
            "id": part.data.get("tool_use_id") or part.data.get("id"),
            "server_tool_call_response": {**part.data, "type": kind},
        }
    if kind.endswith(("tool_use", "_call")):
        return {
            "type": "server_tool_call",
            "id": part.data.get("id"),
            "name": part.data.get("name") or kind,
            "server_tool_call": {**part.data, "type": kind},
        }
    return {"type": kind or "native", "provider": part.provider, "data": dict(part.data)}


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)
