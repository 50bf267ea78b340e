"""The openai-chat codec: a table of contents wiring the modules of this package."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from interlingua import (
    Capabilities,
    Encoded,
    Endpoint,
    HttpRequest,
    ProviderError,
    Request,
    Response,
    SSEEvent,
    StreamEvent,
    ThinkingBudgets,
    WarningSink,
)
from interlingua.kit import Batching, BatchLine, CodecBase, Serving

from .. import _azure, _batch, _batch_api, _listing
from .._media_types import CHAT_MEDIA_TYPES
from .._shared import bearer_headers, served_error
from . import _request, _response, _rules, _sniff, _tuning
from ._capabilities import capabilities_for
from ._dialect import Dialect, dialect_named, tool_ids
from ._echo import WRITES_UNMAPPED, Ctx
from ._errors import decode_error
from ._sdk import wire_dict
from ._stream import StreamDecoder, StreamEncoder


class OpenAIChatCodec(CodecBase):
    """OpenAI Chat Completions (``POST /chat/completions``), and the servers that speak it.

    ``dialect`` picks a server's small differences (``dialects.toml``, loaded by ``_dialect.py``):
    ``openai`` (default), ``deepseek``, ``groq``, ``ollama``, ... or one a user registered
    (``register_dialect``), or a ``Dialect`` itself. The provider key (for
    provider_options and provider_echoes) is ``openai`` for OpenAI and the dialect's name for the
    others, so one server's options and signed reasoning never reach another.

    ``budgets`` replaces the table that turns a token budget (which the wire cannot carry) into
    the nearest effort (``_request.BUDGETS``: low 1024, medium 4096, high 16384, xhigh 65536).
    """

    name = "openai-chat"
    writes_unmapped = WRITES_UNMAPPED  # the provider is Responses' too
    media_types = CHAT_MEDIA_TYPES
    oracle = "interlingua_openai.chat._oracle:ORACLE"  # the test kit's SDK oracle and rules
    conformance = "interlingua_openai.chat._conformance:CONFORMANCE"  # the conformance suite's data
    serving = Serving(
        "/v1/chat/completions",
        served_error,
        stream_keys=("stream", "stream_options"),
        # a batch input line: {custom_id, method, url, body}: https://platform.openai.com/docs/guides/batch
        batch=BatchLine("custom_id", "body", "/v1/chat/completions"),
        models=_listing.MODELS,  # GET /v1/models: one list for both OpenAI wires
    )
    batching = Batching(results=(_batch.results("openai-chat"),), api=_batch_api.api("openai-chat"))

    def __init__(self, *, dialect: str | Dialect = "openai", budgets: ThinkingBudgets | None = None) -> None:
        self.dialect = dialect if isinstance(dialect, Dialect) else dialect_named(dialect)
        self.budgets = _request.BUDGETS if budgets is None else budgets
        self.provider = self.dialect.provider
        self.api_key_env = self.dialect.api_key_env
        self.capabilities: Capabilities = capabilities_for(self.dialect)
        self._ids = tool_ids(self.dialect)
        self.rules = _rules.turn_rules(self.dialect, self._ids)  # the host's rows of _rules.py
        self.tuning = _tuning.tuning_file(self)  # OpenAI's fine-tuning lines: _tuning.py

    def __repr__(self) -> str:
        budgets = "" if self.budgets == _request.BUDGETS else f", budgets={self.budgets!r}"
        return f"OpenAIChatCodec(dialect={self.dialect.name!r}{budgets})"

    def _ctx(self, out: WarningSink | None = None) -> Ctx:
        return Ctx(self.dialect, self.provider, self._ids, out or WarningSink(self.name))

    # The hooks CodecBase wires into the protocol. encode_request first makes the transcript keep
    # the server's rules (tool messages straight after their calls, the dialect's id rule); thinking
    # the server cannot take back (another vendor's; any, for OpenAI itself) follows ``reasoning``.
    def write_request(self, ready: Request, strict: bool, host: str | None = None) -> Encoded:
        """The ``POST /chat/completions`` body."""
        ctx = self._ctx()
        return ctx.out.finish(_request.encode_request(ready, ctx, self.budgets), strict=strict)

    def read_request(self, body: Mapping[str, Any], model: str | None) -> Request:
        return _request.decode_request(wire_dict(body), self._ctx())

    response_depth_check = False  # the decoder's own: only what it keeps unread can nest

    def read_response(self, body: Mapping[str, Any]) -> Response:
        return _response.decode_response(wire_dict(body), self._ctx())

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        ctx = self._ctx()
        encoded = ctx.out.finish(_response.encode_response(response, ctx), strict=strict)
        return self.noting_unmapped(encoded, response, strict=strict)

    def read_stream(self, events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
        return StreamDecoder(self._ctx(out), self.name).run(events)

    def write_stream(self, events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
        return StreamEncoder(self._ctx(out)).run(events)

    # Wire detection (the CLI asks every installed codec): _sniff.py holds the signs.
    sniff = staticmethod(_sniff.sniff)
    sniff_stream = staticmethod(_sniff.sniff_stream)

    def decode_error(self, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
        return decode_error(self.name, status, body, headers)

    def api_key_env_for(self, settings: Mapping[str, str]) -> tuple[str, ...] | None:
        """The dialect's key variables; on Azure OpenAI (``settings["door"] = "azure"``) Azure's."""
        return _azure.API_KEY_ENV if _azure.on_azure(settings, self.name) else tuple(self.api_key_env)

    def wire_request(self, body: dict[str, Any], request: Request, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
        """``POST {base}/chat/completions`` with Bearer auth; streaming asks for the usage chunk
        where the server accepts ``stream_options``."""
        body["stream"] = stream
        if stream and self.dialect.stream_usage_option:
            body["stream_options"] = {**body.get("stream_options", {}), "include_usage": True}
        elif not stream:
            body.pop("stream_options", None)
        if _azure.on_azure(endpoint.settings, self.name):
            return _azure.http_request(body, wire="chat", stream=stream, endpoint=endpoint, codec=self.name)
        url = f"{self.dialect.url_for(endpoint.base_url)}/chat/completions"
        if self.dialect.auth == "api-key":  # Azure AI Foundry's key header (``dialects.toml``: its source)
            headers = {"content-type": "application/json"} | ({"api-key": endpoint.api_key} if endpoint.api_key else {})
            return HttpRequest("POST", url, headers | dict(endpoint.headers), body, stream)
        return HttpRequest("POST", url, bearer_headers(endpoint.api_key, endpoint.headers), body, stream)

    def models_request(self, *, endpoint: Endpoint, page: str | None = None) -> HttpRequest | None:
        """``GET {base}/models`` of the dialect's host (Azure's deployments go unasked)."""
        if _azure.on_azure(endpoint.settings, self.name):
            return None
        base = self.base_url(endpoint, self.dialect.base_url)
        return _listing.models_request(base, bearer_headers(endpoint.api_key, endpoint.headers))
