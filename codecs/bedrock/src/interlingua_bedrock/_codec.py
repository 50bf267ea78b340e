"""The bedrock-converse codec: a table of contents wiring the modules of this package."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from typing import Any

from interlingua import (
    DecodedStream,
    DecodeError,
    Encoded,
    EncodeError,
    Endpoint,
    HttpRequest,
    Request,
    Response,
    SSEEvent,
    StreamEvent,
    WarningSink,
)
from interlingua.kit import (
    CodecBase,
    as_object,
    aws_auth,
    aws_region,
    event_frames,
    url_segment,
    versioned_base,
)

from . import _batch, _errors, _request, _response, _rules, _sniff, _stream, _tuning
from ._capabilities import CAPABILITIES
from ._media_types import MEDIA_TYPES
from ._parts import NAME, PROVIDER


class BedrockConverseCodec(CodecBase):
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
    genai_provider = "aws.bedrock"  # gen_ai.provider.name (opentelemetry-semantic-conventions: GenAiProviderNameValues)
    # api_key_env is () (CodecBase): a Bedrock API key is optional, else SigV4 (see wire_request)
    capabilities = CAPABILITIES
    media_types = MEDIA_TYPES
    oracle = "interlingua_bedrock._oracle:ORACLE"  # the test kit's oracle: botocore's service model
    conformance = "interlingua_bedrock._conformance:CONFORMANCE"  # the conformance suite's data
    batching = _batch.BATCHING

    def __init__(self) -> None:
        self.rules = _rules.turn_rules()  # the rows of _rules.py, each with its source
        self.tuning = _tuning.tuning_file(self)  # the vendor's fine-tuning lines: _tuning.py

    # The hooks CodecBase wires into the protocol.
    def write_request(self, ready: Request, strict: bool, host: str | None = None) -> Encoded:
        """The Converse body (without ``modelId``, which the URL carries)."""
        out = WarningSink(NAME)
        return out.finish(_request.encode_request(ready, out), strict=strict)

    def read_request(self, body: Mapping[str, Any], model: str | None) -> Request:
        """Call ids this codec rewrote when encoding come back as they were."""
        request = _request.decode_request(as_object(body, ""), model)
        tool_ids = self.rules.tool_ids
        return request if tool_ids is None else tool_ids.restore(request)

    def read_response(self, body: Mapping[str, Any]) -> Response:
        return _response.decode_response(as_object(body, ""))

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        out = WarningSink(NAME)
        encoded = out.finish(_response.encode_response(response, out), strict=strict)
        return self.noting_unmapped(encoded, response, strict=strict)

    def read_stream(self, events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
        """ConverseStream events (frames read by ``interlingua.kit.event_frames``) -> IR events."""
        return _stream.decode_stream(events, out)

    def decode_event_stream(self, chunks: Iterable[bytes]) -> DecodedStream:
        """The raw bytes of a ConverseStream answer (binary event-stream frames) -> IR events."""
        return self.decode_stream(event_frames(chunks, codec=NAME))

    def write_stream(self, events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
        """IR events -> ConverseStream events (``interlingua.kit.render_frames`` frames them)."""
        return _stream.encode_stream(events, out)

    # Wire detection (the CLI asks every installed codec): _sniff.py holds the signs.
    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)
    decode_error = staticmethod(_errors.decode_error)

    def host_for(self, settings: Mapping[str, str]) -> str | None:
        """``"bedrock"``: the host the anthropic-messages codec's Bedrock door names too, so a Claude
        block signed through either is recorded alike (``ProviderEcho.host``)."""
        return "bedrock"

    def wire_request(self, body: dict[str, Any], request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        if not request.model:
            raise EncodeError(NAME, "model", "the Converse URL names the model; Request.model is required")
        region = aws_region(endpoint.settings, who=NAME)
        # The Converse URL has no version segment: a base URL ending in one (/v1) is refused
        host = f"https://bedrock-runtime.{region}.amazonaws.com"
        base, _ = versioned_base(endpoint.base_url, host, codec=NAME, version=None)
        model = url_segment(request.model, codec=NAME, at="model")
        url = f"{base}/model/{model}/{'converse-stream' if stream else 'converse'}"
        headers = {"content-type": "application/json", **endpoint.headers}
        sign = aws_auth(
            headers, endpoint, service="bedrock", region=region, token_env="AWS_BEARER_TOKEN_BEDROCK", who=NAME
        )
        events = partial(event_frames, codec=NAME) if stream else None
        return HttpRequest("POST", url, headers, body, stream=stream, sign=sign, events=events)

    def count_request(self, request: Request, *, endpoint: Endpoint) -> HttpRequest | None:
        """``POST /model/{modelId}/count-tokens`` with ``{"input": {"converse": {...}}}``, signed as
        Converse is; answered ``{"inputTokens": n}`` (botocore's bedrock-runtime service model:
        CountTokens, ConverseTokensRequest: messages, system, toolConfig, additionalModelRequestFields)."""
        sent = self.http_request(request, stream=False, endpoint=endpoint)
        counted = ("messages", "system", "toolConfig", "additionalModelRequestFields")
        body = {"input": {"converse": {key: sent.json[key] for key in counted if key in sent.json}}}
        url = sent.url.removesuffix("/converse") + "/count-tokens"
        return HttpRequest("POST", url, sent.headers, body, sign=sent.sign)

    def read_count(self, body: Mapping[str, Any]) -> int:
        count = body.get("inputTokens")
        if not isinstance(count, int) or isinstance(count, bool):
            raise DecodeError(NAME, "inputTokens", f"the count answer has no token count: {dict(body)!r:.200}")
        return count

    def __repr__(self) -> str:
        return "BedrockConverseCodec()"
