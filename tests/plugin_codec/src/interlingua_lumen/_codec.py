"""The lumen-chat codec: the class attributes, and each hook one call into ``_wire``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from interlingua import (
    PART_TYPES,
    SETTINGS,
    Capabilities,
    Encoded,
    Endpoint,
    HttpRequest,
    ProviderError,
    Request,
    Response,
    SSEEvent,
    StreamEvent,
    WarningSink,
)
from interlingua.kit import CodecBase, Rule, TurnRules, unsigned_or_own_thinking

from . import _wire
from ._wire import NAME, PROVIDER

RULES = (
    Rule(
        "own-thinking",
        "reasoning goes back as lumen wrote it, or unsigned; another vendor's signed reasoning is not sent as lumen's",
        # lumen is a made-up vendor: its docs sit under the reserved .invalid domain (RFC 2606);
        # the wire itself is described in tests/plugin_codec/README.md.
        "https://docs.lumen.invalid/chat#reasoning",
    ),
)


class LumenChatCodec(CodecBase):
    """lumen-chat (``POST /v1/lumen/chat``), both directions; the key from ``LUMEN_API_KEY``."""

    name = NAME
    provider = PROVIDER
    api_key_env = ("LUMEN_API_KEY",)
    capabilities = Capabilities(
        parts=dict.fromkeys(PART_TYPES, "native"),
        settings=dict.fromkeys(SETTINGS, "native"),
        notes={"native": "another vendor's native parts and tools are dropped with a warning"},
    )
    rules = TurnRules(accepts_thinking=unsigned_or_own_thinking(PROVIDER), table=RULES)
    oracle = "interlingua_lumen._oracle:ORACLE"
    conformance = "interlingua_lumen._conformance:CONFORMANCE"

    def write_request(self, ready: Request, strict: bool) -> Encoded:
        out = WarningSink(NAME)
        return out.finish(_wire.request_body(ready, out), strict=strict)

    def read_request(self, body: Mapping[str, Any], model: str | None) -> Request:
        return _wire.read(Request, body)

    def read_response(self, body: Mapping[str, Any]) -> Response:
        return _wire.read(Response, body)

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        out = WarningSink(NAME)
        return out.finish(_wire.response_body(response, out), strict=strict)

    def read_stream(self, events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
        return _wire.read_stream(events)

    def write_stream(self, events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
        return _wire.write_stream(events, out)

    def decode_error(self, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
        return _wire.decode_error(status, body, headers)

    def wire_request(
        self, body: dict[str, Any], request: Request, *, stream: bool, endpoint: Endpoint
    ) -> HttpRequest:
        path = "/v1/lumen/chat/stream" if stream else "/v1/lumen/chat"  # the body stays the IR's JSON
        url = f"{self.base_url(endpoint, 'https://api.lumen.invalid')}{path}"
        headers = self.json_headers(endpoint, "authorization", bearer=True)
        return HttpRequest("POST", url, headers, body, stream=stream)
