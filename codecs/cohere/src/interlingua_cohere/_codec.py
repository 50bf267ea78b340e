"""The cohere-chat codec: a table of contents wiring the modules of this package."""

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
    WarningSink,
)
from interlingua.kit import ReasoningPolicy, as_object, decoding, encode_with_rules

from . import _errors, _request, _response, _rules, _sniff, _stream
from ._capabilities import CAPABILITIES
from ._messages import NAME, PROVIDER

DEFAULT_BASE_URL = "https://api.cohere.com"


class CohereChatCodec:
    """Cohere's v2 Chat API (``POST /v2/chat``), both directions; the key from ``CO_API_KEY``."""

    name = NAME
    provider = PROVIDER
    api_key_env = ("CO_API_KEY", "COHERE_API_KEY")
    capabilities: Capabilities = CAPABILITIES
    oracle = "interlingua_cohere._oracle:ORACLE"  # the test kit's oracle: the cohere SDK's types

    def __init__(self) -> None:
        # Cohere's own thinking always carries a cohere echo; a tool message names its call's id only.
        self.rules = _rules.turn_rules()  # the rows of _rules.py, each with its source

    def encode_request(
        self,
        request: Request,
        *,
        strict: bool = False,
        reasoning: ReasoningPolicy = "drop",
        resolve: Resolver | None = None,
    ) -> Encoded:
        def write(ready: Request, strict: bool) -> Encoded:
            out = WarningSink(NAME)
            return out.finish(_request.encode_request(ready, out), strict=strict)

        return encode_with_rules(
            request, self.rules, write, codec=NAME, strict=strict, reasoning=reasoning, resolve=resolve
        )

    def decode_request(self, body: Mapping[str, Any]) -> Request:
        with decoding(NAME, body):
            return _request.decode_request(as_object(body, ""))

    def decode_response(self, body: Mapping[str, Any]) -> Response:
        with decoding(NAME, body):
            return _response.decode_response(as_object(body, ""))

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        out = WarningSink(NAME)
        return out.finish(_response.encode_response(response, out), strict=strict)

    def decode_stream(self, events: Iterable[SSEEvent]) -> DecodedStream:
        out = WarningSink(NAME)
        return DecodedStream(_decoded(events, out), out)

    def encode_stream(self, events: Iterable[StreamEvent], *, strict: bool = False) -> EncodedStream:
        out = WarningSink(NAME)
        return EncodedStream(_stream.encode_stream(events, out), out, strict=strict)

    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)

    def decode_error(self, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
        return _errors.decode_error(status, body, headers)

    def http_request(self, request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        """``POST {base}/v2/chat`` with a Bearer key; ``stream`` in the body."""
        body = dict(self.encode_request(request).body)
        body["stream"] = stream
        headers = {"content-type": "application/json", "accept": "text/event-stream" if stream else "application/json"}
        if endpoint.api_key:
            headers["authorization"] = f"Bearer {endpoint.api_key}"
        headers.update(endpoint.headers)
        base = (endpoint.base_url or DEFAULT_BASE_URL).rstrip("/")
        return HttpRequest("POST", f"{base}/v2/chat", headers, body, stream=stream)

    def __repr__(self) -> str:
        return "CohereChatCodec()"


def _decoded(events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
    with decoding(NAME):
        yield from _stream.decode_stream(events, out)
