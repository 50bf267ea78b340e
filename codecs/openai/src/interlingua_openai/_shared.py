"""What the two OpenAI wire formats truly share: the error body (read and served), the Bearer header, and the
provider key, whose ``provider_options`` each wire must sort into its own fields and the other's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from interlingua import ProviderError, ThinkingLevel
from interlingua.kit import WarningSink, error_body, nearest_level, retry_after

if TYPE_CHECKING:
    from interlingua.kit import ModelSpec

TOOL_NAMES = r"[a-zA-Z0-9_-]{1,64}"
"""OpenAI's function names (openai ``FunctionDefinition.name``: "Must be a-z, A-Z, 0-9, or contain
underscores and dashes, with a maximum length of 64"), Chat Completions and Responses alike."""

PROVIDER = "openai"
CATALOG_PACKAGE = "interlingua_openai"  # where models.toml (both wires' models) lives

# Reasoning effort <-> ThinkingConfig.level, one table for both wires: ``none`` is ``off``, the
# rest by name. Which efforts a model takes is in models.toml (the encoders map to the nearest).
EFFORTS: dict[str, ThinkingLevel] = {
    "none": "off",
    "minimal": "minimal",
    "low": "low",
    "medium": "medium",
    "high": "high",
    "xhigh": "xhigh",
}
LEVELS: dict[ThinkingLevel, str] = {level: effort for effort, level in EFFORTS.items()}


def effort_for(level: str, spec: ModelSpec | None, out: WarningSink) -> str:
    """The effort to send for ``level``: the nearest one the target model takes, when the catalog
    knows the model (a level beyond the IR's, such as ``max``, is spelled as it is)."""
    if spec is not None:
        level = nearest_level(spec, level, out)
    return _EFFORT_OF.get(level, level)


_EFFORT_OF: dict[str, str] = {level: effort for level, effort in LEVELS.items()}
API_KEY_ENV = ("OPENAI_API_KEY",)
DEFAULT_BASE_URL = "https://api.openai.com/v1"

# Both wires keep their unmapped fields under provider_options["openai"], so a request decoded
# from one and encoded for the other carries the first one's fields. These are the request
# fields only one of the two APIs takes (the openai SDK's params types; a test keeps them current).
CHAT_ONLY_FIELDS = frozenset(
    {"audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs", "max_completion_tokens",
     "max_tokens", "messages", "modalities", "n", "prediction", "presence_penalty", "reasoning_effort",
     "response_format", "seed", "stop", "verbosity", "web_search_options"}
)  # fmt: skip
RESPONSES_ONLY_FIELDS = frozenset(
    {"access_programs", "background", "background_options", "context_management", "conversation", "image",
     "include", "input", "instructions", "max_output_tokens", "max_tool_calls", "previous_response_id", "prompt",
     "reasoning", "text", "truncation"}
)  # fmt: skip


CHAT_ONLY_STREAM_OPTIONS = frozenset({"include_usage"})  # Responses' stream_options: include_obfuscation

WIRE = "_wire"
"""The options key recording how a decoded body spelled what the IR does not keep (a single stop
string, an integer temperature), so re-encoding is exact; read by the wire that wrote it, never
sent, and (by the core's convention for ``_`` keys) not reported by another vendor's encoder."""


def own_options(
    options: Mapping[str, Any], foreign: frozenset[str], out: WarningSink, api: str, stream_foreign: frozenset[str]
) -> dict[str, Any]:
    """``options`` without the other API's fields (``stream_foreign`` inside ``stream_options``),
    each reported once."""
    if not options:
        return {}  # most requests: nothing to sort
    if WIRE in options:
        options = {k: v for k, v in options.items() if k != WIRE}
    stream = options.get("stream_options")
    stray = isinstance(stream, Mapping) and bool(stream_foreign.intersection(stream))
    if not foreign.intersection(options) and not stray:
        return dict(options)
    kept = {k: v for k, v in options.items() if k not in foreign}
    for key in sorted(foreign.intersection(options)):
        out.unsupported(f"provider_options.{PROVIDER}.{key}", "provider_options", f"{key} is not a field of {api}")
    if stray and isinstance(stream, Mapping):
        for key in sorted(stream_foreign.intersection(stream)):
            where = f"provider_options.{PROVIDER}.stream_options.{key}"
            out.unsupported(where, "provider_options", f"stream_options.{key} is not a field of {api}")
        kept["stream_options"] = {k: v for k, v in stream.items() if k not in stream_foreign}
        if not kept["stream_options"]:
            del kept["stream_options"]
    return kept


def decode_openai_error(codec: str, status: int | None, body: bytes | str, headers: Mapping[str, str]) -> ProviderError:
    """``{"error": {"message", "type", "param", "code"}}`` -> the ProviderError subclass for the
    status. OpenAI-compatible servers sometimes send a bare string or a list; those are kept in
    ``raw`` and their text becomes the message."""
    raw = error_body(body)
    detail: Any = raw.get("error", raw) if isinstance(raw, dict) else raw
    if isinstance(detail, list) and detail and isinstance(detail[0], dict):
        detail = detail[0].get("error", detail[0])
    if isinstance(detail, dict):
        message = detail.get("message")
        kind = detail.get("type") or detail.get("code")
    else:
        message, kind = detail, None
    lowered = {k.lower(): v for k, v in headers.items()}
    return ProviderError.for_status(
        status,
        str(message) if message is not None else f"HTTP {status}",
        type=str(kind) if kind is not None else None,
        codec=codec,
        retry_after=retry_after(headers),
        request_id=lowered.get("x-request-id"),
        raw=raw,
    )


def bearer_headers(api_key: str | None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Content type, Bearer auth (when a key is given; local servers take none) and caller headers."""
    headers = {"content-type": "application/json"}
    if api_key:
        headers["authorization"] = f"Bearer {api_key}"
    headers.update(extra or {})
    return headers


def served_error(status: int, message: str, kind: str | None) -> dict[str, Any]:
    """Both wires' error body, ``{"error": {"message", "type", "param", "code"}}``, as a gateway
    serving them answers. https://platform.openai.com/docs/guides/error-codes"""
    default_type, code = _SERVED_TYPES.get(status, ("server_error" if status >= 500 else "invalid_request_error", None))
    return {"error": {"message": message, "type": kind or default_type, "param": None, "code": code}}


_SERVED_TYPES: dict[int, tuple[str, str | None]] = {  # the error-codes guide's type and code per status
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", "unsupported_country_region_territory"),
    404: ("invalid_request_error", "model_not_found"),
    413: ("invalid_request_error", "request_too_large"),
    429: ("requests", "rate_limit_exceeded"),
}
