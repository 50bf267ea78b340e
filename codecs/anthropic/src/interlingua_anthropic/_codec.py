"""The anthropic-messages codec: a table of contents wiring the modules of this package."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from interlingua import (
    Capabilities,
    DecodedStream,
    Encoded,
    EncodedStream,
    Endpoint,
    HttpRequest,
    ProviderError,
    RedactedThinking,
    Request,
    Resolver,
    Response,
    SSEEvent,
    StreamEvent,
    Thinking,
    ThinkingBudgets,
    WarningSink,
)
from interlingua.kit import BatchLine, ReasoningPolicy, Serving, ToolIds, TurnRules, decoding, encode_with_rules

from . import _doors, _errors, _request, _response, _sniff, _stream
from ._capabilities import CAPABILITIES
from ._parts import PROVIDER
from ._sdk import plain

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"


class AnthropicMessagesCodec:
    """The Anthropic Messages API (``POST /v1/messages``), both directions.

    ``default_max_tokens`` is sent when a request has no ``max_tokens`` (the wire requires one).
    ``budgets`` replaces the level -> ``budget_tokens`` table (``BUDGETS``: minimal 1024, low
    2048, medium 8192, high 16384, xhigh 32768); a level it lacks is sent as its nearest level,
    with a warning. Every budget must be at least Anthropic's minimum, 1024.
    """

    name: ClassVar[str] = "anthropic-messages"
    provider: ClassVar[str] = PROVIDER
    api_key_env: ClassVar[tuple[str, ...]] = ("ANTHROPIC_API_KEY",)
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    oracle: ClassVar[str] = "interlingua_anthropic._oracle:ORACLE"  # the test kit's SDK oracle and rules
    # A Message Batches request is {custom_id, params}: https://docs.anthropic.com/en/api/creating-message-batches
    serving: ClassVar[Serving] = Serving("/v1/messages", _errors.served_error, batch=BatchLine("custom_id", "params"))

    def __init__(self, *, default_max_tokens: int = 4096, budgets: ThinkingBudgets | None = None) -> None:
        self.default_max_tokens = default_max_tokens
        self.budgets = _request.BUDGETS if budgets is None else _checked(budgets)
        # The API's id rule; foreign ids are rewritten the same way for a call and its result.
        self.rules = TurnRules(
            accepts_thinking=_signed,
            tool_ids=ToolIds(r"[a-zA-Z0-9_-]+", length=30, prefix="toolu_"),
            drop_empty_text=True,  # "text content blocks must be non-empty"
            # https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use
            tool_names=r"[a-zA-Z0-9_-]{1,64}",
            # ToolResultBlockParam has no name (toolset_name is the family of a toolset call).
            result_names=False,
            # "Consecutive user or assistant turns in your request will be combined into a single
            # turn" (https://docs.claude.com/en/api/messages): results after two assistant
            # messages answer the calls of both.
            joins_turns=True,
        )

    def __repr__(self) -> str:
        budgets = "" if self.budgets == _request.BUDGETS else f", budgets={self.budgets!r}"
        return f"AnthropicMessagesCodec(default_max_tokens={self.default_max_tokens}{budgets})"

    def encode_request(
        self,
        request: Request,
        *,
        strict: bool = False,
        reasoning: ReasoningPolicy = "drop",
        resolve: Resolver | None = None,
    ) -> Encoded:
        """The body for ``POST /v1/messages``. The transcript is first made to keep the API's
        rules (see ``interlingua.kit.TurnRules``); ``reasoning`` says what happens to thinking
        Claude did not sign: dropped (default) or sent as text, reported either way."""
        return encode_with_rules(
            request,
            self.rules,
            lambda ready, strict: _request.encode_request(
                ready, self.name, self.default_max_tokens, strict=strict, budgets=self.budgets
            ),
            codec=self.name,
            strict=strict,
            reasoning=reasoning,
            resolve=resolve,
        )

    def decode_request(self, body: Mapping[str, Any]) -> Request:
        with decoding(self.name, body):
            return _request.decode_request(plain(body), self.rules.tool_ids)

    def decode_response(self, body: Mapping[str, Any]) -> Response:
        with decoding(self.name, body):
            return _response.decode_response(plain(body))

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        return _response.encode_response(response, self.name, strict=strict)

    def decode_stream(self, events: Iterable[SSEEvent]) -> DecodedStream:
        return DecodedStream(_stream.decode_stream(events), WarningSink(self.name))

    def encode_stream(self, events: Iterable[StreamEvent], *, strict: bool = False) -> EncodedStream:
        out = WarningSink(self.name)
        return EncodedStream(_stream.encode_stream(events, out), out, strict=strict)

    # Wire detection (the CLI asks every installed codec): _sniff.py holds the signs.
    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)

    def decode_error(self, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
        return _errors.decode_error(status, body, headers)

    def api_key_env_for(self, settings: Mapping[str, str]) -> tuple[str, ...] | None:
        """Where the key comes from for the door ``settings`` name (``_doors``): Anthropic's own API
        takes ``ANTHROPIC_API_KEY``; Bedrock and Vertex AI authenticate with their clouds' credentials."""
        return _doors.key_env(settings)

    def http_request(self, request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        """``anthropic-beta`` comes from ``provider_options["anthropic"]["betas"]`` (a list, not
        sent in the body) or from the endpoint's headers. ``endpoint.settings["door"]`` sends the
        same body to Claude on Amazon Bedrock or Google Vertex AI instead (see ``_doors``)."""
        body = dict(self.encode_request(request).body)
        betas = body.pop("betas", None)
        body["stream"] = stream
        headers = {"content-type": "application/json", "anthropic-version": API_VERSION}
        if isinstance(betas, list) and betas:
            headers["anthropic-beta"] = ",".join(str(b) for b in betas)
        if _doors.door(endpoint.settings) is not None:
            del headers["anthropic-version"]  # the body's anthropic_version says it on a door
            merged = Endpoint(endpoint.base_url, endpoint.api_key, {**headers, **endpoint.headers}, endpoint.settings)
            return _doors.http_request(body, request.model or "", stream=stream, endpoint=merged)
        if endpoint.api_key:
            headers["x-api-key"] = endpoint.api_key
        headers.update(endpoint.headers)
        base = (endpoint.base_url or DEFAULT_BASE_URL).rstrip("/")
        return HttpRequest(method="POST", url=f"{base}/v1/messages", headers=headers, json=body, stream=stream)


def _checked(budgets: ThinkingBudgets) -> ThinkingBudgets:
    """A table the API would refuse fails here, once, not as a warning on every request."""
    for level, tokens in budgets.items():
        if tokens < _request.MIN_BUDGET:
            raise ValueError(
                f"level {level!r}: {tokens} tokens is below Anthropic's minimum budget {_request.MIN_BUDGET}"
            )
    return budgets


def _signed(part: Thinking | RedactedThinking) -> bool:
    """Only blocks Claude signed go back: the API checks the signature (or redacted ``data``)."""
    echo = part.echo(PROVIDER)
    key = "signature" if isinstance(part, Thinking) else "data"
    return echo is not None and isinstance(echo.data.get(key), str)
