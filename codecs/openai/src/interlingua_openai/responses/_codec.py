"""The openai-responses codec: a table of contents wiring the modules of this package."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from interlingua import (
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
    TurnRules,
)

from .. import _azure, _batch, _batch_api, _listing
from .._media_types import RESPONSES_MEDIA_TYPES
from .._shared import API_KEY_ENV, DEFAULT_BASE_URL, PROVIDER, bearer_headers, served_error
from . import _echo, _errors, _request, _response, _rules, _sniff, _stream
from ._capabilities import CAPABILITIES
from ._sdk import plain

NAME = "openai-responses"


_STORED = ("previous_response_id", "conversation")
"""The request fields that name stored state: https://platform.openai.com/docs/api-reference/responses/create"""


class OpenAIResponsesCodec(CodecBase):
    """OpenAI Responses (``POST {base}/responses``): items, encrypted reasoning, typed events.

    One IR assistant message spans the output items of a turn (reasoning, message, function and
    built-in tool calls); each part's echo remembers its item, so the items come back exactly.
    ``budgets`` replaces the table that turns a token budget (which the wire cannot carry) into
    the nearest effort (``_request.BUDGETS``: low 2048, medium 8192, high 32768).
    """

    name = NAME
    provider = PROVIDER
    writes_unmapped = _echo.UNMAPPED  # the provider is Chat Completions' too
    api_key_env = API_KEY_ENV
    capabilities = CAPABILITIES
    media_types = RESPONSES_MEDIA_TYPES
    oracle = "interlingua_openai.responses._oracle:ORACLE"  # the test kit's SDK oracle and rules
    conformance = "interlingua_openai.responses._conformance:CONFORMANCE"  # the conformance suite's data
    # a batch input line: {custom_id, method, url, body}: https://platform.openai.com/docs/guides/batch
    serving = Serving(
        "/v1/responses",
        served_error,
        batch=BatchLine("custom_id", "body", "/v1/responses"),
        counting=_listing.COUNTING,
    )
    batching = Batching(results=(_batch.results("openai-responses"),), api=_batch_api.api("openai-responses"))

    def __init__(self, *, budgets: ThinkingBudgets | None = None) -> None:
        self.budgets = _request.BUDGETS if budgets is None else budgets
        self.rules = _rules.turn_rules()
        # A request naming a stored response or conversation continues it: an output that leads
        # the input answers a call the server holds (recorded: pydantic-ai corpus,
        # test_openai_conversation_id_tool_call_continuation__2, answered 200).
        self.stored_rules = self.rules.with_stored_turns()

    # The hooks CodecBase wires into the protocol. encode_request first makes the transcript keep
    # the API's rules (every call answered by its output right after); another vendor's thinking
    # follows ``reasoning``.
    def rules_for(self, request: Request) -> TurnRules:
        """A request naming stored state (``previous_response_id``, ``conversation``) continues a
        conversation the server holds: outputs leading its input answer calls made there."""
        options = request.provider_options.get(PROVIDER)
        stored = options is not None and any(options.get(key) is not None for key in _STORED)
        return self.stored_rules if stored else self.rules

    def write_request(self, ready: Request, strict: bool, host: str | None = None) -> Encoded:
        """The ``POST /v1/responses`` body; ``host``: the one it goes through (``host_for``)."""
        return _request.encode_request(ready, strict=strict, budgets=self.budgets, host=host)

    def read_request(self, body: Mapping[str, Any], model: str | None) -> Request:
        """Call ids this codec rewrote when encoding come back as they were."""
        request = _request.decode_request(plain(body))
        tool_ids = self.rules.tool_ids
        return request if tool_ids is None else tool_ids.restore(request)

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        encoded = _response.encode_response(response, strict=strict)
        return self.noting_unmapped(encoded, response, strict=strict)

    def read_response(self, body: Mapping[str, Any]) -> Response:
        return _response.decode_response(plain(body))

    def read_stream(self, events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
        return _stream.decode_stream(events)

    def write_stream(self, events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
        return _stream.encode_stream(events, out)

    # Wire detection (the CLI asks every installed codec): _sniff.py holds the signs.
    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)
    decode_error = staticmethod(_errors.decode_error)

    def api_key_env_for(self, settings: Mapping[str, str]) -> tuple[str, ...] | None:
        """``OPENAI_API_KEY``; on Azure OpenAI (``settings["door"] = "azure"``) Azure's."""
        return _azure.API_KEY_ENV if _azure.on_azure(settings, self.name) else API_KEY_ENV

    def host_for(self, settings: Mapping[str, str]) -> str | None:
        """``"openai"`` (OpenAI's API, or a server at its base URL) or ``"azure"`` (Azure OpenAI)."""
        return "azure" if _azure.on_azure(settings, self.name) else "openai"

    def wire_request(self, body: dict[str, Any], request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        """``POST {base}/responses`` with Bearer auth, or Azure OpenAI's (``_azure``)."""
        if stream:
            body["stream"] = True
        elif body.get("stream") is True:
            del body["stream"]
        if _azure.on_azure(endpoint.settings, self.name):
            return _azure.http_request(body, wire="responses", stream=stream, endpoint=endpoint, codec=self.name)
        url = f"{self.base_url(endpoint, DEFAULT_BASE_URL)}/responses"
        return HttpRequest("POST", url, bearer_headers(endpoint.api_key, endpoint.headers), body, stream=stream)

    def count_request(self, request: Request, *, endpoint: Endpoint) -> HttpRequest | None:
        """``POST {base}/responses/input_tokens`` (OpenAI's own API; Azure's goes unasked)."""
        if _azure.on_azure(endpoint.settings, self.name):
            return None
        return _listing.count_request(self.http_request(request, stream=False, endpoint=endpoint))

    def models_request(self, *, endpoint: Endpoint, page: str | None = None) -> HttpRequest | None:
        """``GET {base}/models`` (OpenAI's own API; Azure's deployments go unasked)."""
        if _azure.on_azure(endpoint.settings, self.name):
            return None
        base = self.base_url(endpoint, DEFAULT_BASE_URL)
        return _listing.models_request(base, bearer_headers(endpoint.api_key, endpoint.headers))

    def __repr__(self) -> str:
        budgets = "" if self.budgets == _request.BUDGETS else f"budgets={self.budgets!r}"
        return f"OpenAIResponsesCodec({budgets})"
