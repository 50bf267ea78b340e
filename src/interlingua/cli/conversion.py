"""One body in, one body out: the pure conversion the convert command and dataset runs share.

A :class:`Converter` is a small frozen value (wire names and options, no codec objects), so it
pickles into worker processes and cluster tasks; each process resolves its codecs once, on
first use. It decodes with the source codec and encodes with the target codec, and hands back
every warning of both steps; it never prints and never applies ``--strict`` (callers decide).

What comes out, by what goes in (docs/guide/cli.md, "Convert a dataset", says the same):

- a wire request body -> the target's request body;
- a wire response body -> the target's response body;
- an interlingua transcript -> the target's request body (``model`` from ``--model``; the
  transcript's metadata is the host's own and is not sent);
- a fine-tuning line of any tuning format installed (``Codec.tuning``, and ``hf-messages``:
  cli/tuning.py) -> the target's tuning line, or where the target has none its request body;
- a batch line (each codec declares its own, ``Codec.serving.batch``: ``{custom_id, params}``,
  ``{custom_id, method, url, body}``, ``{key, request}``) -> the target's batch line with the
  same id;
- a batch result line (``Codec.batching``: ``{custom_id, result}``, ``{custom_id, response,
  error}``, ``{key, response | error}``, ``{recordId, modelInput, modelOutput | error}``,
  ``{request, response | status}``) -> the target's result line with the same id (cli/results.py);
- a recorded stream -> the target's stream (or, accumulated, its response body);
- a framework's or tracer's log (``interlingua.logs``: a GenAI span, pydantic-ai, LangChain or AI
  SDK messages, and what the installed codecs add) -> the target's request body for the
  conversation it holds (a span: its input side); its reader's warnings come first.
  ``target="otel-genai"`` writes GenAI span attributes (a response: its output side).

``target="transcript"`` writes interlingua transcripts; request settings a transcript has no
place for (tools, sampling, ...) are reported as UnsupportedSetting warnings, never dropped
silently. Responses and streams have no transcript form.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from .. import (
    AnyWarning,
    Codec,
    DecodedStream,
    DecodeError,
    Encoded,
    Request,
    Response,
    StreamEvent,
    Transcript,
    UnsupportedSetting,
    accumulate,
    codecs,
    get_codec,
    parse_sse,
    render_sse,
)
from .._batch import ResultFormat
from .._codec import BatchLine
from .._registry import ServedWire, served
from .._tuning import TuningExample
from .._wire import loads
from . import results
from .detect import TRANSCRIPT, Detected, DetectError, Kind, detect_body, detect_stream, is_log
from .tuning import HF, as_request, detect_tuning, read_example, write_example

Reasoning = Literal["drop", "as_text"]
OTEL_GENAI = "otel-genai"
"""The one log format written too (``--to otel-genai``): GenAI span attributes."""


class ConversionError(Exception):
    """The input cannot be converted as asked (a usage problem, not a malformed body)."""


class NotAStream(ValueError):
    """Input that is neither JSON nor SSE (YAML, plain text): there is no stream to detect."""


class MisreadError(DetectError):
    """A body whose wire was guessed from signs several wires share does not decode as that wire:
    either it is malformed, or it is of a wire whose codec is not installed. The message says both,
    so that the codec it was read with (which may be the target's) is not taken for the culprit."""

    def __init__(self, detected: Detected, error: DecodeError) -> None:
        installed = ", ".join(codecs()) or "none"
        super().__init__(
            f"cannot decode the input as {detected.wire}, the installed wire its shape fits best ({detected.reason}):"
            f" {error.path}: {error.reason}; if it is of another wire, that wire's codec is not installed"
            f" (installed: {installed}): install it, or pass --from"
        )


@dataclass(frozen=True, slots=True)
class Converted:
    """The target body (a JSON value, or SSE bytes for a stream), every warning, and how the
    source was decided (``detected.reason``)."""

    output: Any
    warnings: list[AnyWarning]
    detected: Detected
    envelope: str | None = None
    result: bool = False
    """A batch result line (``envelope`` names its format)."""

    @property
    def label(self) -> str:
        """What the input was read as, for a dataset's report."""
        if self.envelope is None:
            return f"{self.detected.wire} {self.detected.kind}"
        return self.envelope if self.result else f"{self.envelope} batch line"


# -- batch envelopes ----------------------------------------------------------------------------
# The codecs declare their batch lines and routes (``Codec.serving``); this module names no vendor.


@cache
def _served() -> tuple[ServedWire, ...]:
    """The installed codecs' declarations, gathered once per process (each line asks)."""
    return served()


@cache
def _batch_lines() -> tuple[tuple[ServedWire, BatchLine], ...]:
    """The codecs that declare a batch line, with it, once per process."""
    return tuple((wire, wire.serving.batch) for wire in _served() if wire.serving.batch is not None)


@dataclass(frozen=True, slots=True)
class Envelope:
    """What a line or file wraps its body in: a vendor batch line (``style`` is that vendor's
    provider key; ``id`` is kept for the output), or a recorded HTTP exchange (``style`` "http":
    the body alone comes out). ``wire`` and ``model`` are what the wrapper implies, when it does
    (a batch URL, a model in the path)."""

    style: str
    id: Any = None
    wire: str | None = None
    model: str | None = None

    @property
    def batch(self) -> bool:
        return self.style != "http"


def unwrap(line: Mapping[str, Any]) -> tuple[Envelope | None, Any]:
    """The envelope of a dataset line or file (if any) and the body inside it: the first batch
    line shape it has (by codec name; a line naming its URL goes to the codec of that URL), else
    a recorded HTTP exchange (a body beside a status or path)."""
    shaped = [(w, b) for w, b in _batch_lines() if b.id in line and isinstance(line.get(b.body), Mapping)]
    if shaped:
        url = line.get("url")
        wire, batch = next(((w, b) for w, b in shaped if b.url is not None and b.url == url), shaped[0])
        named = wire.codec if batch.url is None or batch.url == url else _wire_of_path(str(url or ""))[0]
        return Envelope(wire.provider, line[batch.id], named), line[batch.body]
    if isinstance(line.get("body"), Mapping) and ("status" in line or "path" in line):
        wire_name, model = _wire_of_path(str(line.get("path", "")))
        return Envelope("http", wire=wire_name, model=model), line["body"]
    return None, line


def _wire_of_path(path: str) -> tuple[str | None, str | None]:
    """The wire (and the model, where the path holds it) an HTTP path or batch URL names."""
    for wire in _served():
        matches, model = wire.serving.names(path)
        if matches:
            return wire.codec, model
    return None, None


def wrap(envelope: Envelope, target: str, body: Any) -> dict[str, Any]:
    """The target vendor's batch line for ``body``, keeping the source line's id."""
    name = target.partition(":")[0]
    for wire, batch in _batch_lines():
        if wire.codec == name:
            return batch.wrap(envelope.id, body)
    return {"custom_id": envelope.id, "body": body}  # a codec with no batch line: the id and the body


# -- codecs -------------------------------------------------------------------------------------

_CODECS: dict[str, Codec] = {}


def codec_for(spec: str) -> Codec:
    """The codec named ``spec``: ``NAME`` or ``NAME:DIALECT`` (``acme-chat:beta``), once per
    process. Raises UnknownCodecError (listing the installed ones) for an unknown name."""
    codec = _CODECS.get(spec)
    if codec is None:
        name, _, dialect = spec.partition(":")
        try:
            codec = get_codec(name, dialect=dialect) if dialect else get_codec(name)
        except TypeError:
            raise ConversionError(f"codec {name!r} has no dialects (got {spec!r})") from None
        except ValueError as err:  # a dialect the codec does not know: its message lists the known ones
            raise ConversionError(str(err)) from None
        _CODECS[spec] = codec
    return codec


# -- the converter ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Converter:
    """Convert bodies to ``target``; ``source=None`` detects each body's wire.

    ``reasoning`` is passed to ``encode_request`` only when set, so codecs that predate the
    keyword still work for everything else. ``model`` replaces the request's model.
    """

    target: str
    source: str | None = None
    reasoning: Reasoning | None = None
    model: str | None = None

    def convert(self, body: Any, kind: Kind | None = None) -> Converted:
        """Convert one parsed JSON value (request, response, transcript, batch line or log)."""
        if self.reads_log(body):
            return self._log(body, self.detect(body, None, kind))
        if not isinstance(body, Mapping):
            raise DetectError(f"expected a JSON object, got {type(body).__name__}")
        result = results.find(body) if kind is None else None
        if result is not None:
            return self._result(body, result)
        tuned = detect_tuning(body, self.source) if kind is None and body.get("format") is None else None
        if tuned is not None and not self._logged(body):
            return self._tuning(body, tuned)
        envelope, inner = unwrap(body)
        detected = self.detect(inner, envelope, kind)
        guessed = self.source is None and (envelope is None or envelope.wire is None) and not detected.certain
        try:
            if detected.kind == "response":
                if envelope is not None and envelope.batch:
                    raise ConversionError("a batch line holds a request, not a response")
                return self._response(inner, detected)
            output, warnings = self._request(inner, detected, envelope)
        except DecodeError as err:
            if not guessed:
                raise
            raise MisreadError(detected, err) from None
        if envelope is not None and envelope.batch and self.target != TRANSCRIPT:
            output = wrap(envelope, self.target, output)
        return Converted(output, warnings, detected, envelope.style if envelope and envelope.batch else None)

    def reads_log(self, body: Any) -> bool:
        """Whether ``body`` is read as a log: a JSON array that ``--from`` names a log format for,
        or, with no ``--from``, that a log format claims (else an array is a stream of chunks)."""
        if not isinstance(body, list):
            return False
        return is_log(self.source) or (self.source is None and bool(_log_claims(body)))

    def _logged(self, body: Mapping[str, Any]) -> bool:
        """Whether a line a tuning format claims is a log instead: a log format claims it on its own
        signs (the AI SDK's ``tool-call`` parts, which a chat-template sniffer takes for a dataset
        line) and no ``--from`` named the tuning format. Asked only of claimed lines, so the log
        sniffers do not run on every line of a dataset."""
        return self.source is None and bool(_log_claims(body))

    def convert_stream(self, data: bytes, *, accumulated: bool = False) -> Converted:
        """Convert a recorded stream (SSE, or a JSON array of chunks) to the target's SSE bytes, or
        with ``accumulated`` to the target's response body. A stream that ends early raises
        StreamError. Warnings are the source decode's and then the target's own: its
        encode_stream's (paths name the decoded event, ``events[12].part``), or with
        ``accumulated`` its encode_response's."""
        if self.target in (TRANSCRIPT, OTEL_GENAI):
            raise ConversionError(f"a stream has no {self.target} form; convert the request or accumulate it first")
        detected, decoded = self.decoded_stream(data)
        events = list(decoded)
        response = accumulate(events)
        target = codec_for(self.target)
        if accumulated:
            encoded = target.encode_response(response)
            found: list[AnyWarning] = [*getattr(decoded, "warnings", ()), *response.warnings, *encoded.warnings]
            return Converted(encoded.body, found, detected)
        stream = target.encode_stream(events)
        output = b"".join(render_sse(stream))
        # A codec written before streams carried warnings returns a plain iterator: none to add.
        found = [*getattr(decoded, "warnings", ()), *getattr(stream, "warnings", ())]
        return Converted(output, found, detected)

    # -- steps --------------------------------------------------------------------------------

    def _result(self, line: Mapping[str, Any], found: tuple[str, ResultFormat, str]) -> Converted:
        if self.target == TRANSCRIPT:
            raise ConversionError("a batch result line has no transcript form; convert its request file instead")
        done = results.convert(line, found, _ResultSteps(self))
        return Converted(done.line, done.warnings, done.detected, done.format, result=True)

    def detect(
        self, body: Mapping[str, Any] | list[Any], envelope: Envelope | None, kind: Kind | None = None
    ) -> Detected:
        """The source wire and kind: ``--from``, else what the envelope names, else the body's shape."""
        if self.source is not None:
            return Detected(self.source, kind or _kind_of(body), "given by --from")
        if envelope is not None and envelope.wire is not None:
            return Detected(envelope.wire, kind or _kind_of(body), _envelope_reason(envelope))
        detected = detect_body(body)
        if kind is not None and kind != detected.kind:
            return Detected(detected.wire, kind, f"{detected.reason}; kind given by --kind")
        return detected

    def decode_request(self, body: Mapping[str, Any], detected: Detected, envelope: Envelope | None = None) -> Request:
        if is_log(detected.wire):
            return self._read_log(body, detected)[0]
        if detected.wire == TRANSCRIPT:
            request = Transcript.from_json_dict(body).request()
        else:
            request = codec_for(detected.wire).decode_request(body)
        model = self.model or (envelope.model if envelope is not None and request.model is None else None)
        if model is not None:
            request = request.model_copy(update={"model": model})
        return request

    def _request(
        self, body: Mapping[str, Any], detected: Detected, envelope: Envelope | None
    ) -> tuple[Any, list[AnyWarning]]:
        read: list[AnyWarning] = []
        if is_log(detected.wire):
            request, read = self._read_log(body, detected)
        else:
            request = self.decode_request(body, detected, envelope)
        if self.target == TRANSCRIPT:
            output, warnings = _as_transcript(request, envelope)
            return output, [*read, *warnings]
        if self.target == HF:  # a request as a conversational dataset line
            written = write_example(TuningExample(request.model_copy(update={"model": None})), HF)
            assert written is not None, "hf-messages is always installed"
            return written[0], [*read, *written[1]]
        encoded = self._encode(request)
        return encoded.body, [*read, *encoded.warnings]

    def _read_log(self, body: Any, detected: Detected) -> tuple[Request, list[AnyWarning]]:
        from ..logs import read

        imported = read(detected.wire, body)
        request = imported.request
        if self.model is not None:
            request = request.model_copy(update={"model": self.model})
        return request, list(imported.warnings)

    def _log(self, body: list[Any], detected: Detected) -> Converted:
        """A log that is a JSON array of messages (no batch line or HTTP exchange wraps one)."""
        if detected.kind == "response":
            raise ConversionError(f"a {detected.wire} log holds a conversation, not a response")
        output, warnings = self._request(body, detected, None)  # type: ignore[arg-type]  # a log reader takes its array
        return Converted(output, warnings, detected)

    def _encode(self, request: Request) -> Encoded:
        if self.target == OTEL_GENAI:
            from ..logs import encode_otel_genai

            return encode_otel_genai(request)
        codec = codec_for(self.target)
        if self.reasoning is None:
            return codec.encode_request(request)
        try:
            return codec.encode_request(request, reasoning=self.reasoning)
        except TypeError as err:
            if "reasoning" not in str(err):
                raise
            raise ConversionError(
                f"codec {self.target!r} does not take --reasoning (its encode_request has no 'reasoning' keyword)"
            ) from None

    def _tuning(self, line: Mapping[str, Any], detected: Detected) -> Converted:
        """A fine-tuning line -> the target's tuning line (cli/tuning.py)."""
        example = read_example(line, detected)
        written = write_example(example, self.target) if self.target != TRANSCRIPT else None
        if written is not None:
            return Converted(*written, detected)
        request, warnings = as_request(example, self.target)
        if self.target == TRANSCRIPT:
            output, more = _as_transcript(request, None)
            return Converted(output, [*warnings, *more], detected)
        encoded = self._encode(request.model_copy(update={"model": self.model}))
        return Converted(encoded.body, [*warnings, *encoded.warnings], detected)

    def _response(self, body: Mapping[str, Any], detected: Detected) -> Converted:
        if self.target in (TRANSCRIPT, HF) or detected.wire == TRANSCRIPT:
            shown = HF if self.target == HF else TRANSCRIPT
            raise ConversionError(f"a response has no {shown} form; convert the request instead")
        if is_log(detected.wire):
            raise ConversionError(f"a {detected.wire} log is read as the request it replays, not as a response")
        response: Response = codec_for(detected.wire).decode_response(body)
        if self.target == OTEL_GENAI:
            from ..logs import encode_otel_genai_response

            encoded = encode_otel_genai_response(response)
        else:
            encoded = codec_for(self.target).encode_response(response)
        return Converted(encoded.body, [*response.warnings, *encoded.warnings], detected)

    def stream_events(self, data: bytes) -> tuple[Detected, list[StreamEvent]]:
        """Decode a recorded stream with the source codec (detected from its first events)."""
        detected, decoded = self.decoded_stream(data)
        return detected, list(decoded)

    def decoded_stream(self, data: bytes) -> tuple[Detected, DecodedStream]:
        """The source codec's decode of a recorded stream, not yet read: its ``warnings`` are
        complete once it has been."""
        if data.lstrip()[:1] == b"[":  # a stream sent as one JSON array of chunks (not SSE)
            detected = self._array_stream(data)
            decoded = codec_for(detected.wire).decode_json_array_stream([data])
            if decoded is None:
                raise ConversionError(f"codec {detected.wire!r} has no JSON-array streams")
            return detected, decoded
        sse = list(parse_sse([data]))
        if not sse:
            if data.lstrip()[:1] == b"{":
                raise NotAStream("read as a stream, it holds no SSE event (no 'data:' line)")
            raise NotAStream(
                "it is neither JSON nor an SSE stream (no 'data:' line): expected a JSON body, an SSE stream or a"
                " transcript"
            )
        if self.source is not None:
            detected = Detected(self.source, "stream", "given by --from")
        else:
            detected = detect_stream([(e.event, _json_or_none(e.data)) for e in sse[:4]])
        return detected, codec_for(detected.wire).decode_stream(sse)

    def _array_stream(self, data: bytes) -> Detected:
        """The wire of a JSON array of chunks, asked of the codecs as unnamed events."""
        if self.source is not None:
            return Detected(self.source, "stream", "a JSON array of chunks; wire given by --from")
        chunks = loads(data)
        first = [("message", chunk) for chunk in chunks[:4]] if isinstance(chunks, list) else []
        found = detect_stream(first)
        return Detected(found.wire, "stream", f"a JSON array of chunks: {found.reason}")


@dataclass(frozen=True, slots=True)
class _ResultSteps:
    """The converter's steps a result line's conversion takes (cli/results.py)."""

    converter: Converter

    @property
    def target(self) -> str:
        return self.converter.target

    @property
    def source(self) -> str | None:
        return self.converter.source

    def codec(self, spec: str) -> Codec:
        return codec_for(spec)

    def request(self, body: Mapping[str, Any], detected: Detected) -> Encoded:
        return self.converter._encode(self.converter.decode_request(body, detected))


def _log_claims(body: Any) -> list[Any]:
    """Every log format's claim on ``body`` (an array no format claims is no body at all)."""
    from ..logs import sniff

    return sniff(body)


def _envelope_reason(envelope: Envelope) -> str:
    return "a recorded HTTP exchange's path" if envelope.style == "http" else f"{envelope.style} batch line"


def _kind_of(body: Mapping[str, Any] | list[Any]) -> Kind:
    try:
        return detect_body(body).kind
    except DetectError:
        return "request"


def _json_or_none(data: str) -> Any:
    try:
        return loads(data)
    except ValueError:
        return None


_REQUEST_DEFAULTS = Request()


def _as_transcript(request: Request, envelope: Envelope | None) -> tuple[Any, list[AnyWarning]]:
    """A transcript of the request's messages; every setting it cannot hold is a warning. The
    source's model and batch id are kept in the metadata (``interlingua.model``,
    ``interlingua.custom_id``), next to the request's own host metadata."""
    metadata: dict[str, Any] = dict(getattr(request, "metadata", {}))
    if request.model is not None:
        metadata["interlingua.model"] = request.model
    if envelope is not None and envelope.batch:
        metadata["interlingua.custom_id"] = envelope.id
    warnings: list[AnyWarning] = [
        UnsupportedSetting(codec=TRANSCRIPT, path=name, setting=name, message="a transcript keeps messages only")
        for name in settings_set(request)
    ]
    return loads(Transcript.of(request, **metadata).dumps()), warnings


def settings_set(request: Request) -> Iterator[str]:
    """The request fields that differ from their defaults, besides model, messages and the
    host's metadata (never sent to a vendor)."""
    for name in Request.model_fields:
        if name not in ("model", "messages", "metadata") and getattr(request, name) != getattr(_REQUEST_DEFAULTS, name):
            yield name
