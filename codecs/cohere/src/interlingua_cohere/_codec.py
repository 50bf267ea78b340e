"""The cohere-chat codec: a table of contents wiring the modules of this package."""

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
    WarningSink,
)
from interlingua.kit import CodecBase, as_object, versioned_base

from . import _errors, _request, _response, _rules, _sniff, _stream
from ._capabilities import CAPABILITIES
from ._media_types import MEDIA_TYPES
from ._parts import NAME, PROVIDER

DEFAULT_BASE_URL = "https://api.cohere.com"


class CohereChatCodec(CodecBase):
    """Cohere's v2 Chat API (``POST /v2/chat``), both directions; the key from ``CO_API_KEY``."""

    name = NAME
    provider = PROVIDER
    api_key_env = ("CO_API_KEY", "COHERE_API_KEY")
    capabilities = CAPABILITIES
    media_types = MEDIA_TYPES
    oracle = "interlingua_cohere._oracle:ORACLE"  # the test kit's oracle: the cohere SDK's types
    conformance = "interlingua_cohere._conformance:CONFORMANCE"  # the conformance suite's data

    def __init__(self) -> None:
        # Cohere's own thinking always carries a cohere echo; a tool message names its call's id only.
        self.rules = _rules.turn_rules()  # the rows of _rules.py, each with its source

    # The hooks CodecBase wires into the protocol.
    def write_request(self, ready: Request, strict: bool, host: str | None = None) -> Encoded:
        out = WarningSink(NAME)
        return out.finish(_request.encode_request(ready, out), strict=strict)

    def read_request(self, body: Mapping[str, Any], model: str | None) -> Request:
        return _request.decode_request(as_object(body, ""))

    def read_response(self, body: Mapping[str, Any]) -> Response:
        return _response.decode_response(as_object(body, ""))

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        out = WarningSink(NAME)
        encoded = out.finish(_response.encode_response(response, out), strict=strict)
        return self.noting_unmapped(encoded, response, strict=strict)

    def read_stream(self, events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
        return _stream.decode_stream(events, out)

    def write_stream(self, events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
        return _stream.encode_stream(events, out)

    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)
    decode_error = staticmethod(_errors.decode_error)

    def wire_request(self, body: dict[str, Any], request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        """``POST {base}/v2/chat`` with a Bearer key; ``stream`` in the body."""
        body["stream"] = stream
        accept = {"accept": "text/event-stream" if stream else "application/json"}
        headers = self.json_headers(endpoint, "authorization", bearer=True, fixed=accept)
        # Cohere's v1 chat is another API: a base URL ending in /v1 is refused, /v2 taken
        base, version = versioned_base(endpoint.base_url, DEFAULT_BASE_URL, codec=NAME, version="v2")
        return HttpRequest("POST", f"{base}/{version}/chat", headers, body, stream=stream)

    def __repr__(self) -> str:
        return "CohereChatCodec()"
