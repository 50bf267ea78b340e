"""The bedrock-converse codec: a table of contents wiring the modules of this package."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from typing import Any

from interlingua import (
    Capabilities,
    DecodedStream,
    Encoded,
    EncodedStream,
    EncodeError,
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
from interlingua.kit import (
    ReasoningPolicy,
    ToolIds,
    TurnRules,
    as_object,
    aws_auth,
    aws_region,
    decoding,
    encode_with_rules,
    event_frames,
    own_thinking,
    url_segment,
)

from . import _errors, _request, _response, _sniff, _stream
from ._capabilities import CAPABILITIES
from ._parts import NAME, PROVIDER


class BedrockConverseCodec:
    """Amazon Bedrock's Converse API (``POST /model/{modelId}/converse``, streaming
    ``/converse-stream``), both directions.

    The model is in the URL: ``decode_request(body, model=...)`` takes it. Sending: the region
    from ``Endpoint.settings["aws_region"]`` or ``AWS_REGION`` / ``AWS_DEFAULT_REGION``;
    authentication with a Bedrock API key (``api_key=`` or ``AWS_BEARER_TOKEN_BEDROCK``) as a
    Bearer token, else SigV4 with the AWS credential chain (``settings["aws_profile"]``).
    Streams arrive as binary event-stream frames (``decode_event_stream`` reads the bytes).
    """

    name = NAME
    provider = PROVIDER
    api_key_env: tuple[str, ...] = ()  # optional: a Bedrock API key, else SigV4 (see http_request)
    capabilities: Capabilities = CAPABILITIES
    oracle = "interlingua_bedrock._oracle:ORACLE"  # the test kit's oracle: botocore's service model

    def __init__(self) -> None:
        # Bedrock's own reasoning always carries a bedrock echo; ids and tool names per botocore's
        # ToolUseId ([a-zA-Z0-9_.:-]+, 1-64) and ToolName ([a-zA-Z0-9_-]+, 1-64) shapes; a
        # toolResult names its call's id only. ToolIds remembers the ids it rewrote: one per codec.
        self.rules = TurnRules(
            accepts_thinking=own_thinking(PROVIDER),
            tool_ids=ToolIds(r"[a-zA-Z0-9_.:-]+", length=64, prefix="tooluse_"),
            tool_names=r"[a-zA-Z0-9_-]{1,64}",
            result_names=False,
        )

    def encode_request(
        self,
        request: Request,
        *,
        strict: bool = False,
        reasoning: ReasoningPolicy = "drop",
        resolve: Resolver | None = None,
    ) -> Encoded:
        """The Converse body (without ``modelId``, which the URL carries)."""

        def write(ready: Request, strict: bool) -> Encoded:
            out = WarningSink(NAME)
            return out.finish(_request.encode_request(ready, out), strict=strict)

        return encode_with_rules(
            request, self.rules, write, codec=NAME, strict=strict, reasoning=reasoning, resolve=resolve
        )

    def decode_request(self, body: Mapping[str, Any], *, model: str | None = None) -> Request:
        """A body -> IR; call ids this codec rewrote when encoding come back as they were."""
        with decoding(NAME, body):
            request = _request.decode_request(as_object(body, ""), model)
        tool_ids = self.rules.tool_ids
        return request if tool_ids is None else tool_ids.restore(request)

    def decode_response(self, body: Mapping[str, Any]) -> Response:
        with decoding(NAME, body):
            return _response.decode_response(as_object(body, ""))

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        out = WarningSink(NAME)
        return out.finish(_response.encode_response(response, out), strict=strict)

    def decode_stream(self, events: Iterable[SSEEvent]) -> DecodedStream:
        """ConverseStream events (frames read by ``interlingua.kit.event_frames``) -> IR events."""
        out = WarningSink(NAME)
        return DecodedStream(_decoded(events, out), out)

    def decode_event_stream(self, chunks: Iterable[bytes]) -> DecodedStream:
        """The raw bytes of a ConverseStream answer (binary event-stream frames) -> IR events."""
        return self.decode_stream(event_frames(chunks, codec=NAME))

    def encode_stream(self, events: Iterable[StreamEvent], *, strict: bool = False) -> EncodedStream:
        """IR events -> ConverseStream events (``interlingua.kit.render_frames`` frames them)."""
        out = WarningSink(NAME)
        return EncodedStream(_stream.encode_stream(events, out), out, strict=strict)

    # Wire detection (the CLI asks every installed codec): _sniff.py holds the signs.
    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)

    def decode_error(self, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
        return _errors.decode_error(status, body, headers)

    def http_request(self, request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        if not request.model:
            raise EncodeError(NAME, "model", "the Converse URL names the model; Request.model is required")
        region = aws_region(endpoint.settings, who=NAME)
        base = (endpoint.base_url or f"https://bedrock-runtime.{region}.amazonaws.com").rstrip("/")
        model = url_segment(request.model, codec=NAME, at="model")
        url = f"{base}/model/{model}/{'converse-stream' if stream else 'converse'}"
        headers = {"content-type": "application/json", **endpoint.headers}
        sign = aws_auth(
            headers, endpoint, service="bedrock", region=region, token_env="AWS_BEARER_TOKEN_BEDROCK", who=NAME
        )
        events = partial(event_frames, codec=NAME) if stream else None
        body = self.encode_request(request).body
        return HttpRequest("POST", url, headers, body, stream=stream, sign=sign, events=events)

    def __repr__(self) -> str:
        return "BedrockConverseCodec()"


def _decoded(events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
    with decoding(NAME):
        yield from _stream.decode_stream(events, out)
