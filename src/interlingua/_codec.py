"""The codec protocol: what a wire format must implement, and what it declares it can carry."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, TypeAlias, runtime_checkable

if TYPE_CHECKING:  # the protocol's annotations only: the turn rules load with the codecs that use them
    from ._batch import Batching
    from ._errors import ProviderError
    from ._handles import Resolver
    from ._normalize import ReasoningPolicy, TurnRules
    from ._request import Request
    from ._response import Response
    from ._sniff import Sniffed
    from ._sse import SSEEvent
    from ._stream import StreamEvent
    from ._tuning import TuningFile
    from ._warned_stream import DecodedStream, EncodedStream
    from ._warnings import Encoded

Support: TypeAlias = Literal["native", "lossy"]

SETTINGS: tuple[str, ...] = (
    "system",
    "developer",
    "mid_conversation_system",
    "tools",
    "tool_strict",
    "native_tools",
    "tool_choice",
    "parallel_tool_calls",
    "max_tokens",
    "temperature",
    "top_p",
    "top_k",
    "stop",
    "seed",
    "presence_penalty",
    "frequency_penalty",
    "thinking",
    "response_format",
    "cache_control",
    "citations",
    "message_name",
    "message_id",
)
"""Every request setting and cross-cutting feature a codec declares support for. ``message_name``
and ``message_id`` are a Message's ``name`` (a participant name) and ``id``: wires without a
place for them warn at ``messages[i].name`` / ``messages[i].id``."""

DETAILS: dict[str, str] = {
    "tool_result.json": "a tool result whose content is a JSON object",
    "tool_result.error": "a tool result marked as an error",
    "tool_result.media": "a tool result holding images, documents or other media",
    "tool_result.name": "a tool result whose name is not the name of the call it answers",
    "cache_control.tool_result": "a cache mark on a part inside a tool result",
    "document.text": "a document given as plain text",
    "document.url": "a document given by URL",
    "thinking.summary": "the thinking setting's request for a reasoning summary",
    "response_format.name": "a JSON schema response format's name",
    "response_format.description": "a JSON schema response format's description",
    "response_format.strict": "a JSON schema response format asked not to be enforced (strict false)",
}
"""Finer rows under a part type or setting, where a codec carries the row but not every form of
it (a tool result, but not its error flag). Undeclared, a detail inherits its row."""

SETTING_DETAILS = frozenset(
    {
        "thinking.summary",
        "response_format.name",
        "response_format.description",
        "response_format.strict",
        "cache_control.tool_result",
    }
)
"""Details of a setting (``thinking`` names both a part type and a setting)."""


@dataclass(frozen=True)
class Capabilities:
    """A codec's declaration: for every part type and setting, ``native`` or ``lossy``.

    ``lossy`` means encoding it yields a warning; a core test walks every row of every codec and
    checks the declaration against behaviour. ``notes`` says why, per key, for the docs.
    ``details`` declares the finer rows of :data:`DETAILS` where they differ from their row.
    """

    parts: Mapping[str, Support]
    settings: Mapping[str, Support]
    notes: Mapping[str, str] = field(default_factory=dict)
    details: Mapping[str, Support] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from ._parts import PART_TYPES  # the IR loads with the first codec, not with ``import interlingua``

        missing = [k for k in PART_TYPES if k not in self.parts] + [k for k in SETTINGS if k not in self.settings]
        if missing:
            raise ValueError(f"capabilities must declare every part type and setting; missing {missing}")
        unknown = [k for k in self.details if k not in DETAILS]
        if unknown:
            raise ValueError(f"unknown capability details {unknown}; known: {sorted(DETAILS)}")

    def support(self, key: str) -> Support:
        """A part type, a setting (``thinking`` names both: the part wins), or a detail."""
        if key in self.parts:
            return self.parts[key]
        if key in self.settings:
            return self.settings[key]
        if key in DETAILS:
            return self.detail(key)
        raise KeyError(key)

    def detail(self, key: str, *, setting: bool | None = None) -> Support:
        """A detail's support; undeclared, its row's (a part type's, or a setting's for the
        details of :data:`SETTING_DETAILS`)."""
        if key in self.details:
            return self.details[key]
        row = key.partition(".")[0]
        if setting is None:
            setting = key in SETTING_DETAILS
        return self.settings[row] if setting else self.parts[row]


@dataclass(frozen=True)
class Endpoint:
    """Where and as whom to send: a base URL (None: the codec's default), a key, and settings a
    codec reads (for example a cloud project and region). The key never shows in a repr."""

    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    headers: Mapping[str, str] = field(default_factory=dict)
    settings: Mapping[str, str] = field(default_factory=dict)


_SECRET_HEADERS = frozenset({"authorization", "x-api-key", "x-goog-api-key", "api-key"})


Signer: TypeAlias = Callable[[str, str, Mapping[str, str], bytes], Mapping[str, str]]
"""``(method, url, headers, body) -> headers to send``: a door that signs each request (a signature
covers the body's bytes and the time, so the transport calls it again on every attempt)."""

Framing: TypeAlias = "Callable[[Iterator[bytes]], Iterator[SSEEvent]]"
"""The answer's bytes -> the wire's events, for a door whose streams are not SSE."""


@dataclass(frozen=True)
class HttpRequest:
    """A request ready for the wire, built by a codec; its repr hides credential headers.

    ``encoded`` is the :class:`Encoded` the body was built from (``Codec.http_request`` encodes
    once, or takes the caller's): its ``warnings`` say what the body could not carry, so whoever
    sends it reports them without encoding again. A cloud door (the same wire served by another
    host) may add ``sign``, which the transport calls on each attempt with the final bytes, and
    ``events``, which reads a stream framed other than as SSE into the events the codec's
    ``decode_stream`` reads. ``source`` is the IR request it was prepared from (the Client's
    ``prepare`` sets it), so the call's telemetry span reads the request's own settings and model
    whoever sends it."""

    method: str
    url: str
    headers: Mapping[str, str]
    json: Mapping[str, Any]
    stream: bool = False
    sign: Signer | None = None
    events: Framing | None = None
    encoded: Encoded | None = None
    source: Request | None = None
    host: str | None = None

    def __repr__(self) -> str:
        shown = {k: ("<hidden>" if k.lower() in _SECRET_HEADERS else v) for k, v in self.headers.items()}
        return f"HttpRequest(method={self.method!r}, url={self.url!r}, headers={shown!r}, stream={self.stream})"


ErrorBody: TypeAlias = Callable[[int, str, "str | None"], dict[str, Any]]
"""``(status, message, kind) -> body``: a wire's error body as its clients' SDKs parse it; ``kind``
is the vendor's error type when one is known (an upstream error's), else None."""


class BatchLine(NamedTuple):
    """One line of a vendor's batch file: the key of its id and the key of the request body it
    wraps; a line that also names its endpoint (``method`` and ``url``) gives ``url``. (A
    NamedTuple, as ``Serving``: a frozen dataclass costs every import 5M instructions more.)"""

    id: str
    body: str
    url: str | None = None

    def wrap(self, line_id: Any, body: Any) -> dict[str, Any]:
        """The line for ``body``, with ``line_id`` kept."""
        if self.url is None:
            return {self.id: line_id, self.body: body}
        return {self.id: line_id, "method": "POST", "url": self.url, self.body: body}


class Counting(NamedTuple):
    """How a wire's token-count endpoint is served, for the gateway: ``answer(n)`` is the count
    answer's body. ``path``: its own route (``/v1/acme/count``); else ``method``, a method after
    the model's ``:`` where the model sits in the path (``models/{model}:countTokens``).
    ``request`` turns the count body into the body ``decode_request`` reads (None: it is one)."""

    answer: Callable[[int], dict[str, Any]]
    path: str | None = None
    method: str | None = None
    request: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None


class ListedModel(NamedTuple):
    """One model a gateway lists (``GET /v1/models``): its name, the provider serving it, and
    what the catalog says of it (None: not known)."""

    id: str
    owner: str
    display_name: str | None = None
    context_window: int | None = None
    max_output_tokens: int | None = None


class ModelList(NamedTuple):
    """How a wire's model list is served: ``GET path``, answered by ``page(models)``. Where two
    wires list at one path, ``header`` (a request header that wire's clients always send) says
    which asks; the wire without one answers the rest. ``also``: further paths (another API
    version)."""

    path: str
    page: Callable[[Sequence[ListedModel]], dict[str, Any]]
    header: str | None = None
    also: tuple[str, ...] = ()


class Serving(NamedTuple):
    """How a codec's API is *served*, for the gateway (``interlingua serve``): what the codec
    protocol's ``http_request`` says for sending, read the other way.

    ``path`` is the route (Starlette syntax; ``{target}`` takes the rest of the path where the
    model sits in it, as ``models/{model}:{method}``); ``error`` writes the wire's error body;
    ``stream_keys`` are body keys that only ask for a stream (removed before decoding, so they are
    not reported as lost); where the model is in the path, ``methods`` are the methods after its
    ``:`` that are served and ``stream_method`` the one that asks for a stream. ``batch`` is the
    vendor's batch-file line, which the CLI reads and writes (``interlingua convert`` keeps ids).
    ``also``: further paths served the same way (another API version the vendor's SDKs call).
    ``count``: the wire's token-count endpoint (:class:`Counting`); ``models``: its model list
    (:class:`ModelList`); None where the API has none.
    A recorded HTTP exchange names its wire by its path: the route after its version segment
    (``/chat/completions`` of ``/v1/chat/completions``), since proxies and cloud hosts put their
    own prefix ahead of it."""

    path: str
    error: ErrorBody
    stream_keys: tuple[str, ...] = ("stream",)
    methods: tuple[str, ...] = ()
    stream_method: str | None = None
    batch: BatchLine | None = None
    also: tuple[str, ...] = ()
    counting: Counting | None = None
    models: ModelList | None = None

    def names(self, path: str) -> tuple[bool, str | None]:
        """Whether an HTTP ``path`` is this route, and the model it names where the model sits
        in the path (``.../models/acme-large:generate``)."""
        if self.model_in_path:
            head, _, method = path.rpartition(":")
            prefix = self.path.partition("{")[0]  # "/v1beta/models/"
            marker = "/" + prefix.strip("/").rpartition("/")[2] + "/"  # "/models/"
            if method in self.methods and marker in head:
                return True, head.rpartition(marker)[2] or None
            return False, None
        tail = "/" + self.path.lstrip("/").partition("/")[2]
        return path.endswith(tail), None

    @property
    def model_in_path(self) -> bool:
        return bool(self.methods)


@runtime_checkable
class Codec(Protocol):
    """One wire format, both directions. Codecs work on plain JSON dicts; decode_* also accept
    SDK objects (anything with ``model_dump``). docs/guide/codecs.md lists the invariants they keep.

    Every member here is one the core reads; nothing else is looked up on a codec. The members
    marked *optional* have defaults in :class:`interlingua.kit.CodecBase`, which a codec
    subclasses (a codec may also write every member itself: the protocol is structural).
    ``tests/conformance/test_protocol.py`` holds every installed codec to this list."""

    name: str
    """The wire's registry name (``acme-chat``)."""
    provider: str
    """The key of its ``provider_options`` and ``provider_echoes`` entries."""
    api_key_env: tuple[str, ...]
    """Environment variables a key is read from, first set wins; optional, default ``()`` (a
    server that takes no key)."""
    capabilities: Capabilities
    rules: TurnRules
    """What the API demands of a transcript beyond its types (``encode_request`` normalizes to
    them; the gateway maps tool ids with ``rules.tool_ids``)."""
    oracle: str | None
    """Optional (default None): ``"module:NAME"`` of the wire's ``interlingua.testing.Oracle`` (its
    vendor SDK's types per kind, the vendor rules types miss, each with its source, and the reader
    of its model-ruled settings), kept in the codec's own package. Only
    ``interlingua.testing.validate_wire`` / ``check_rules`` import that module: it reads the vendor
    SDK, a test dependency. A codec without one works everywhere but there."""
    conformance: str | None
    """Optional (default None): ``"module:NAME"`` of the wire's ``interlingua.testing.Conformance``
    (its places in the conformance target list, coverage probes, recorded-corpus folder and the
    documented departures from its capabilities, each with its source), kept in the codec's own
    package like ``oracle``. Only ``interlingua.testing.conformance_for`` imports it; a codec that
    names one joins the conformance suite with no edit to the core or its tests."""
    serving: Serving | None
    """Optional (default None): how the wire's API is served, for the gateway and the CLI's batch
    lines; a codec without one is reached through the gateway as an upstream only."""
    batching: Batching | None
    """Optional (default None): the vendor's batch service: the result lines of its batch output
    files (``interlingua convert`` reads and writes them, keeping ids)."""
    genai_provider: str | None
    """Optional (default None: ``provider``): the vendor's name in OpenTelemetry's GenAI
    conventions (``gen_ai.provider.name``), where it differs from ``provider``."""
    tuning: TuningFile | None
    """Optional (default None: the vendor has no tuning file): how the wire's fine-tuning file holds
    one example (:class:`interlingua.kit.TuningFile`), which the CLI's ``convert`` reads and writes."""

    def encode_request(
        self,
        request: Request,
        *,
        strict: bool = False,
        reasoning: ReasoningPolicy = "drop",
        resolve: Resolver | None = None,
        host: str | None = None,
    ) -> Encoded:
        """``resolve`` turns artifact handles (``MediaSource.handle``) into media; without
        it, a request holding one raises ``EncodeError`` at the handle's path. ``host``: the host
        the body goes through (what :meth:`host_for` names for the endpoint; None: not known),
        for the rules that depend on it: a block signed through a host the target's host does
        not take signatures from is withheld, with a warning. A caller passes it only where
        ``host_for`` names one, so a codec that names none is never asked with it."""
        ...

    def decode_request(self, body: Mapping[str, Any]) -> Request: ...
    def decode_response(self, body: Mapping[str, Any]) -> Response: ...
    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded: ...
    def decode_stream(self, events: Iterable[SSEEvent]) -> DecodedStream:
        """The IR events; what the IR keeps only in part is on the result's ``warnings``."""
        ...

    def encode_stream(self, events: Iterable[StreamEvent], *, strict: bool = False) -> EncodedStream:
        """The wire's SSE events; what the wire cannot carry is on the result's ``warnings`` (its
        path names the IR event, ``events[12].part``); ``strict`` raises at that event."""
        ...

    def decode_json_array_stream(self, chunks: Iterable[bytes]) -> DecodedStream | None:
        """Optional (default None: the wire has no such stream): a stream sent as one JSON array
        of chunks rather than SSE, read from its bytes (the CLI's ``convert`` reads recorded ones)."""
        ...

    def decode_error(self, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
        """An error answer as the ProviderError subclass its status names, the vendor's message kept."""
        ...

    def http_request(
        self, request: Request, *, stream: bool, endpoint: Endpoint, encoded: Encoded | None = None
    ) -> HttpRequest:
        """The request ready to send. ``encoded`` is the caller's ``encode_request`` of
        ``request`` (with the ``strict``, ``reasoning`` and ``resolve`` it chose); without it the
        codec encodes with the defaults. Either way the encode happens once and the result rides
        on ``HttpRequest.encoded``, its warnings with it."""
        ...

    def count_request(self, request: Request, *, endpoint: Endpoint) -> HttpRequest | None:
        """Optional (default None: the API has no count endpoint, and callers estimate): the
        vendor's token-count call for ``request`` (its input tokens, nothing generated)."""
        ...

    def read_count(self, body: Mapping[str, Any]) -> int:
        """Optional (default: ``input_tokens``): the input tokens in the count endpoint's answer."""
        ...

    def models_request(self, *, endpoint: Endpoint, page: str | None = None) -> HttpRequest | None:
        """Optional (default None: the API lists no models, or not behind this door): the
        vendor's model-list call (``GET``), for ``page`` (the cursor :meth:`read_models` gave)."""
        ...

    def read_models(self, body: Mapping[str, Any]) -> tuple[list[str], str | None]:
        """Optional (default: ``data[].id``, one page): the model ids of one model-list answer,
        and the cursor of the next page (None: the last)."""
        ...

    def api_key_env_for(self, settings: Mapping[str, str]) -> tuple[str, ...] | None:
        """Optional (default ``api_key_env``): the key variables for the door ``settings`` name
        (a cloud host of the same wire), or None where that door authenticates otherwise
        (request signing, cloud credentials): a key is then not required."""
        ...

    def host_for(self, settings: Mapping[str, str]) -> str | None:
        """Optional (default None: not known): the host a request goes through for the door
        ``settings`` name (the vendor's own API or a cloud host of the same wire, ``"acme-cloud"``),
        since signatures made through one host are not always taken through another. The
        transport passes it to ``encode_request(host=)`` and records it on the answer's signed
        blocks (``ProviderEcho.host``)."""
        ...

    def sniff(self, body: Mapping[str, Any]) -> Sniffed | None:
        """Optional (default None: claims nothing): whether a JSON body is this wire's request or
        response, with a score (``interlingua.kit.Sniffed``); the CLI asks every installed codec."""
        ...

    def sniff_stream(self, first_events: Sequence[tuple[str, Any]]) -> Sniffed | None:
        """Optional (default None): the same for a stream, from its first ``(event name, parsed
        data)`` pairs."""
        ...


def encode_for_host(codec: Codec, request: Request, host: str | None, *, strict: bool = False) -> Encoded:
    """``request`` encoded for the host its door names (``Codec.host_for``). A codec that names no
    host is never asked with ``host=``: a codec written before the keyword need not take it."""
    if host is None:
        return codec.encode_request(request, strict=strict)
    return codec.encode_request(request, strict=strict, host=host)
