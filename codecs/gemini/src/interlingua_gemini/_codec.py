"""The gemini codec: a table of contents wiring the modules that do the work."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from interlingua import (
    DecodedStream,
    Encoded,
    Endpoint,
    HttpRequest,
    Request,
    Response,
    SSEEvent,
    StreamEvent,
    ThinkingBudgets,
    WarningSink,
)
from interlingua.kit import (
    Batching,
    BatchLine,
    CodecBase,
    Serving,
)

from . import _batch, _batch_api, _count, _errors, _http, _request, _response, _rules, _sniff, _stream, _tuning
from ._capabilities import CAPABILITIES
from ._media_types import MEDIA_TYPES
from ._parts import NAME, PROVIDER


class GeminiCodec(CodecBase):
    """Gemini API ``generateContent`` / ``streamGenerateContent`` (the same body serves Vertex AI).

    The wire is the REST API's camelCase JSON; snake_case keys are read too and written back as
    they came. The model lives in the URL, not the body: pass ``model=`` to ``decode_request``
    when you know it (it also binds the thought signatures of the transcript to that model).

    Gemini names thinking levels itself (``thinkingLevel``), so by default a level goes by name
    and ``budgets`` is None. ``budgets`` sends each level as ``thinkingBudget`` from that table
    instead (Gemini 2.5 models take only a budget); a level it lacks goes to its nearest level,
    with a warning.
    """

    name = NAME
    provider = PROVIDER
    api_key_env = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    capabilities = CAPABILITIES
    media_types = MEDIA_TYPES
    oracle = "interlingua_gemini._oracle:ORACLE"  # the test kit's SDK oracle and rules
    conformance = "interlingua_gemini._conformance:CONFORMANCE"  # the conformance suite's data
    # Served as the REST API is: the model and the method in the path (``models/M:generateContent``,
    # ``models/M:streamGenerateContent?alt=sse``), no stream key in the body.
    serving = Serving(
        "/v1beta/models/{target}",
        _errors.served_error,
        stream_keys=(),
        methods=("generateContent", "streamGenerateContent"),
        stream_method="streamGenerateContent",
        batch=BatchLine("key", "request"),  # a batch file's line: https://ai.google.dev/gemini-api/docs/batch-mode
        # google-genai calls /v1 by default (3.6.1: GOOGLE_AI_API_DEFAULT_VERSION = "v1" in _api_client.py)
        also=("/v1/models/{target}",),
        counting=_count.COUNTING,
        models=_count.MODELS,
    )
    batching = Batching(results=(_batch.RESULTS, _batch.PREDICTIONS), api=_batch_api.API)
    genai_provider = "gcp.gemini"  # gen_ai.provider.name (opentelemetry-semantic-conventions: GenAiProviderNameValues)
    rules = _rules.turn_rules()  # the rows of _rules.py, each with its source

    def __init__(self, *, budgets: ThinkingBudgets | None = None) -> None:
        self.budgets = budgets
        self.tuning = _tuning.tuning_file(self)  # the vendor's fine-tuning lines: _tuning.py

    # The hooks CodecBase wires into the protocol. encode_request first makes the transcript keep
    # the API's rules (every call answered in the next turn); another vendor's thinking follows
    # ``reasoning``. ``decode_request(body, model=...)`` binds thought signatures to the model.
    def write_request(self, ready: Request, strict: bool, host: str | None = None) -> Encoded:
        """The generateContent body; ``host``: the one it goes through (``host_for``)."""
        return _request.encode_request(ready, strict=strict, budgets=self.budgets, host=host)

    def read_request(self, body: Mapping[str, Any], model: str | None) -> Request:
        return _request.decode_request(body, model)

    def read_response(self, body: Mapping[str, Any]) -> Response:
        return _response.decode_response(body)

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        encoded = _response.encode_response(response, strict=strict)
        return self.noting_unmapped(encoded, response, strict=strict)

    def read_stream(self, events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
        return _stream.decode_stream(events, out)

    def decode_json_array_stream(self, chunks: Iterable[bytes]) -> DecodedStream:
        """The stream of ``:streamGenerateContent`` without ``alt=sse`` (one JSON array)."""
        return self.decode_stream(_stream.json_array_events(chunks))

    def write_stream(self, events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
        return _stream.encode_stream(events, out)

    # Wire detection (the CLI asks every installed codec): _sniff.py holds the signs.
    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)
    decode_error = staticmethod(_errors.decode_error)

    def api_key_env_for(self, settings: Mapping[str, str]) -> tuple[str, ...] | None:
        """The Gemini API's key variables; on Vertex AI none (Google credentials, see ``_http``)."""
        return _http.key_env(settings)

    def host_for(self, settings: Mapping[str, str]) -> str | None:
        """``"gemini-api"`` (the Gemini Developer API) or ``"vertex"`` (Vertex AI), by ``settings``."""
        return _http.host(settings)

    def wire_request(self, body: dict[str, Any], request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        return _http.http_request(Encoded(body), request.model, stream=stream, endpoint=endpoint)

    def count_request(self, request: Request, *, endpoint: Endpoint) -> HttpRequest | None:
        """``models/{model}:countTokens`` with the whole generateContent body (the Gemini API's;
        Vertex AI's takes another body and goes unasked)."""
        if _http.on_vertex(endpoint.settings):
            return None
        sent = self.http_request(request, stream=False, endpoint=endpoint)
        return _count.count_request(sent, request.model or "")

    def read_count(self, body: Mapping[str, Any]) -> int:
        return _count.read_count(body)

    def models_request(self, *, endpoint: Endpoint, page: str | None = None) -> HttpRequest | None:
        """``GET /v1beta/models`` (the Gemini API's; Vertex AI's publisher list goes unasked)."""
        return None if _http.on_vertex(endpoint.settings) else _http.models_request(endpoint, page)

    def read_models(self, body: Mapping[str, Any]) -> tuple[list[str], str | None]:
        return _count.read_models(body)

    def __repr__(self) -> str:
        return "GeminiCodec()" if self.budgets is None else f"GeminiCodec(budgets={self.budgets!r})"
