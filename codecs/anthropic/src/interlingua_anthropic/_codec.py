"""The anthropic-messages codec: a table of contents wiring the modules of this package."""

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
    versioned_base,
)

from . import _batch, _batch_api, _count, _doors, _errors, _request, _response, _rules, _sniff, _stream
from ._capabilities import CAPABILITIES
from ._media_types import MEDIA_TYPES
from ._parts import PROVIDER
from ._sdk import plain

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"


class AnthropicMessagesCodec(CodecBase):
    """The Anthropic Messages API (``POST /v1/messages``), both directions.

    ``default_max_tokens`` is sent when a request has no ``max_tokens`` (the wire requires one).
    ``budgets`` replaces the level -> ``budget_tokens`` table (``BUDGETS``: minimal 1024, low
    2048, medium 8192, high 16384, xhigh 32768); a level it lacks is sent as its nearest level,
    with a warning. Every budget must be at least Anthropic's minimum, 1024.
    """

    name = "anthropic-messages"
    provider = PROVIDER
    api_key_env = ("ANTHROPIC_API_KEY",)
    capabilities = CAPABILITIES
    media_types = MEDIA_TYPES
    oracle = "interlingua_anthropic._oracle:ORACLE"  # the test kit's SDK oracle and rules
    conformance = "interlingua_anthropic._conformance:CONFORMANCE"  # the conformance suite's data
    # A Message Batches request is {custom_id, params}: https://docs.anthropic.com/en/api/creating-message-batches
    serving = Serving(
        "/v1/messages",
        _errors.served_error,
        batch=BatchLine("custom_id", "params"),
        counting=_count.COUNTING,
        models=_count.MODELS,
    )
    batching = Batching(results=(_batch.RESULTS,), api=_batch_api.API)

    def __init__(self, *, default_max_tokens: int = 4096, budgets: ThinkingBudgets | None = None) -> None:
        self.default_max_tokens = default_max_tokens
        self.budgets = _request.BUDGETS if budgets is None else _checked(budgets)
        self.rules = _rules.turn_rules()  # the rows of _rules.py, each with its source

    def __repr__(self) -> str:
        budgets = "" if self.budgets == _request.BUDGETS else f", budgets={self.budgets!r}"
        return f"AnthropicMessagesCodec(default_max_tokens={self.default_max_tokens}{budgets})"

    # The hooks CodecBase wires into the protocol (encode_request normalizes to ``rules`` first;
    # unsigned thinking is dropped or sent as text, per ``reasoning``).
    def write_request(self, ready: Request, strict: bool, host: str | None = None) -> Encoded:
        """The body for ``POST /v1/messages``; ``host``: the door it goes through (``host_for``)."""
        return _request.encode_request(
            ready, self.name, self.default_max_tokens, strict=strict, budgets=self.budgets, host=host
        )

    def read_request(self, body: Mapping[str, Any], model: str | None) -> Request:
        return _request.decode_request(plain(body), self.rules.tool_ids)

    def read_response(self, body: Mapping[str, Any]) -> Response:
        return _response.decode_response(plain(body))

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        encoded = _response.encode_response(response, self.name, strict=strict)
        return self.noting_unmapped(encoded, response, strict=strict)

    def read_stream(self, events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
        return _stream.decode_stream(events)

    def write_stream(self, events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
        return _stream.encode_stream(events, out)

    # Wire detection (the CLI asks every installed codec): _sniff.py holds the signs.
    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)
    decode_error = staticmethod(_errors.decode_error)

    def api_key_env_for(self, settings: Mapping[str, str]) -> tuple[str, ...] | None:
        """Where the key comes from for the door ``settings`` name (``_doors``): Anthropic's own API
        takes ``ANTHROPIC_API_KEY``; Bedrock and Vertex AI authenticate with their clouds' credentials."""
        return _doors.key_env(settings)

    def host_for(self, settings: Mapping[str, str]) -> str | None:
        """``"anthropic"`` (the Claude API), ``"bedrock"`` or ``"vertex"``: the door ``settings`` name."""
        return _doors.host(settings)

    def wire_request(self, body: dict[str, Any], request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        """``anthropic-beta`` comes from ``provider_options["anthropic"]["betas"]`` (a list, not
        sent in the body) or from the endpoint's headers. ``endpoint.settings["door"]`` sends the
        same body to Claude on Amazon Bedrock or Google Vertex AI instead (see ``_doors``)."""
        betas = body.pop("betas", None)
        body["stream"] = stream
        fixed = {"anthropic-version": API_VERSION}
        if isinstance(betas, list) and betas:
            fixed["anthropic-beta"] = ",".join(str(b) for b in betas)
        if _doors.door(endpoint.settings) is not None:
            del fixed["anthropic-version"]  # the body's anthropic_version says it on a door
            headers = self.json_headers(endpoint, fixed=fixed)
            merged = Endpoint(endpoint.base_url, endpoint.api_key, headers, endpoint.settings)
            return _doors.http_request(body, request.model or "", stream=stream, endpoint=merged)
        headers = self.json_headers(endpoint, "x-api-key", fixed=fixed)
        # The SDK's base URL has no /v1 (its path adds it); one given with it is taken too
        base, version = versioned_base(endpoint.base_url, DEFAULT_BASE_URL, codec=self.name, version="v1")
        url = f"{base}/{version}/messages"
        return HttpRequest(method="POST", url=url, headers=headers, json=body, stream=stream)

    def count_request(self, request: Request, *, endpoint: Endpoint) -> HttpRequest | None:
        """``POST /v1/messages/count_tokens`` (Anthropic's own API; a door's count goes unasked)."""
        if _doors.door(endpoint.settings) is not None:
            return None
        return _count.count_request(self.http_request(request, stream=False, endpoint=endpoint))

    def models_request(self, *, endpoint: Endpoint, page: str | None = None) -> HttpRequest | None:
        """``GET /v1/models`` (Anthropic's own API; a door's list goes unasked)."""
        if _doors.door(endpoint.settings) is not None:
            return None
        headers = self.json_headers(endpoint, "x-api-key", fixed={"anthropic-version": API_VERSION})
        base, version = versioned_base(endpoint.base_url, DEFAULT_BASE_URL, codec=self.name, version="v1")
        return _count.models_request(f"{base}/{version}", headers, page)

    def read_models(self, body: Mapping[str, Any]) -> tuple[list[str], str | None]:
        return _count.read_models(body)


def _checked(budgets: ThinkingBudgets) -> ThinkingBudgets:
    """A table the API would refuse fails here, once, not as a warning on every request."""
    for level, tokens in budgets.items():
        if tokens < _request.MIN_BUDGET:
            raise ValueError(
                f"level {level!r}: {tokens} tokens is below Anthropic's minimum budget {_request.MIN_BUDGET}"
            )
    return budgets


