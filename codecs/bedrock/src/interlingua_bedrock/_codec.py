"""The bedrock-converse codec: a table of contents wiring the modules of this package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import (
    Encoded,
    EncodeError,
    Endpoint,
    HttpRequest,
    ProviderError,
    Request,
    Resolver,
    Response,
    WarningSink,
)
from interlingua.kit import ReasoningPolicy, ToolIds, TurnRules, as_object, decoding, encode_with_rules, own_thinking

from . import _errors, _request, _response
from ._parts import NAME, PROVIDER


class BedrockConverseCodec:
    """Amazon Bedrock's Converse API (``POST /model/{modelId}/converse``), requests and responses
    both ways. Not yet registered as an installed codec: streams (``ConverseStream``) and the
    cross-wire conformance come next (issue 30); use it directly meanwhile."""

    name = NAME
    provider = PROVIDER
    api_key_env = ("AWS_BEARER_TOKEN_BEDROCK",)

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
        with decoding(NAME, body):
            return _request.decode_request(as_object(body, ""), model)

    def decode_response(self, body: Mapping[str, Any]) -> Response:
        with decoding(NAME, body):
            return _response.decode_response(as_object(body, ""))

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        out = WarningSink(NAME)
        return out.finish(_response.encode_response(response, out), strict=strict)

    def decode_error(self, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
        return _errors.decode_error(status, body, headers)

    def http_request(self, request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        raise EncodeError(NAME, "stream" if stream else "model", "the Converse transport comes with its streams")

    def __repr__(self) -> str:
        return "BedrockConverseCodec()"
