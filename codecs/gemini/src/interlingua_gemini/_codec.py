"""The gemini codec: a table of contents wiring the modules that do the work."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from interlingua import (
    Capabilities,
    DecodedStream,
    Encoded,
    EncodedStream,
    Endpoint,
    HttpRequest,
    ProviderError,
    Request,
    Resolver,
    Response,
    SSEEvent,
    StreamEvent,
    ThinkingBudgets,
    WarningSink,
)
from interlingua.kit import BatchLine, ReasoningPolicy, Serving, TurnRules, decoding, encode_with_rules, own_thinking

from . import _errors, _http, _request, _response, _sniff, _stream
from ._capabilities import CAPABILITIES
from ._parts import NAME, PROVIDER


class GeminiCodec:
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
    capabilities: Capabilities = CAPABILITIES
    oracle = "interlingua_gemini._oracle:ORACLE"  # the test kit's SDK oracle and rules
    # Served as the REST API is: the model and the method in the path (``models/M:generateContent``,
    # ``models/M:streamGenerateContent?alt=sse``), no stream key in the body.
    serving = Serving(
        "/v1beta/models/{target}",
        _errors.served_error,
        stream_keys=(),
        methods=("generateContent", "streamGenerateContent"),
        stream_method="streamGenerateContent",
        batch=BatchLine("key", "request"),  # a batch file's line: https://ai.google.dev/gemini-api/docs/batch-mode
    )
    # Gemini's own thoughts always carry a gemini echo (decoded ones too); it takes any call id;
    # it counts a turn's functionResponse parts against the functionCall parts before them.
    rules = TurnRules(
        accepts_thinking=own_thinking(PROVIDER),
        one_results_message=True,
        # google-genai FunctionDeclaration.name: "Must start with a letter or an underscore. Must be
        # a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 128."
        tool_names=r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}",
        result_names=True,  # functionResponse.name: every response names its function
        # Consecutive model contents are one turn: a recorded request with two model contents of
        # one functionCall each, then one user content of both functionResponses, was answered
        # 200 (pydantic-ai corpus, test_cross_provider_capability_replay_..._gemini-3-flash-preview__3).
        joins_turns=True,
    )

    def __init__(self, *, budgets: ThinkingBudgets | None = None) -> None:
        self.budgets = budgets

    def encode_request(
        self,
        request: Request,
        *,
        strict: bool = False,
        reasoning: ReasoningPolicy = "drop",
        resolve: Resolver | None = None,
    ) -> Encoded:
        """The generateContent body. The transcript is first made to keep the API's rules (every
        call answered in the next turn); ``reasoning`` says what happens to another vendor's
        thinking: dropped (default) or sent as text, reported either way."""
        return encode_with_rules(
            request,
            self.rules,
            lambda ready, strict: _request.encode_request(ready, strict=strict, budgets=self.budgets),
            codec=self.name,
            strict=strict,
            reasoning=reasoning,
            resolve=resolve,
        )

    def decode_request(self, body: Mapping[str, Any], *, model: str | None = None) -> Request:
        with decoding(NAME, body):
            return _request.decode_request(body, model)

    def decode_response(self, body: Mapping[str, Any]) -> Response:
        with decoding(NAME, body):
            return _response.decode_response(body)

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        return _response.encode_response(response, strict=strict)

    def decode_stream(self, events: Iterable[SSEEvent]) -> DecodedStream:
        out = WarningSink(NAME)
        return DecodedStream(_decoded(events, out), out)

    def decode_json_array_stream(self, chunks: Iterable[bytes]) -> DecodedStream:
        """The stream of ``:streamGenerateContent`` without ``alt=sse`` (one JSON array)."""
        return self.decode_stream(_stream.json_array_events(chunks))

    def encode_stream(self, events: Iterable[StreamEvent], *, strict: bool = False) -> EncodedStream:
        out = WarningSink(NAME)
        return EncodedStream(_stream.encode_stream(events, out), out, strict=strict)

    # Wire detection (the CLI asks every installed codec): _sniff.py holds the signs.
    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)

    def decode_error(self, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
        return _errors.decode_error(status, body, headers)

    def api_key_env_for(self, settings: Mapping[str, str]) -> tuple[str, ...] | None:
        """The Gemini API's key variables; on Vertex AI none (Google credentials, see ``_http``)."""
        return _http.key_env(settings)

    def http_request(self, request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        return _http.http_request(self.encode_request(request), request.model, stream=stream, endpoint=endpoint)

    def __repr__(self) -> str:
        return "GeminiCodec()" if self.budgets is None else f"GeminiCodec(budgets={self.budgets!r})"


def _decoded(events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
    with decoding(NAME):
        yield from _stream.decode_stream(events, out)
