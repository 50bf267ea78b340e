"""What the two OpenAI wire formats truly share: the error body (read and served), the Bearer header, and the
provider key, whose ``provider_options`` each wire must sort into its own fields and the other's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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

# Both wires keep their unmapped fields under provider_options["openai"] (one provider, one key
# in echoes), yet they are two APIs: a key crosses from one to the other only where the target
# takes it. Each API's request fields are its SDK params type's keys (openai/types/chat/
# completion_create_params.py CompletionCreateParamsBase, openai/types/responses/
# response_create_params.py ResponseCreateParamsBase, plus ``stream`` of their streaming
# variants); test_shared keeps all four sets below current.
CHAT_FIELDS = frozenset(
    {"audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs", "max_completion_tokens",
     "max_tokens", "messages", "metadata", "modalities", "model", "moderation", "n", "parallel_tool_calls",
     "prediction", "presence_penalty", "prompt_cache_key", "prompt_cache_options", "prompt_cache_retention",
     "reasoning_effort", "response_format", "safety_identifier", "seed", "service_tier", "stop", "store", "stream",
     "stream_options", "temperature", "tool_choice", "tools", "top_logprobs", "top_p", "user", "verbosity",
     "web_search_options"}
)  # fmt: skip
RESPONSES_FIELDS = frozenset(
    {"access_programs", "background", "background_options", "context_management", "conversation", "image",
     "include", "input", "instructions", "max_output_tokens", "max_tool_calls", "metadata", "model", "moderation",
     "parallel_tool_calls", "previous_response_id", "prompt", "prompt_cache_key", "prompt_cache_options",
     "prompt_cache_retention", "reasoning", "safety_identifier", "service_tier", "store", "stream", "stream_options",
     "temperature", "text", "tool_choice", "tools", "top_logprobs", "top_p", "truncation", "user"}
)  # fmt: skip
SHARED_FIELDS = frozenset(
    {"metadata", "parallel_tool_calls", "prompt_cache_key", "prompt_cache_retention",
     "safety_identifier", "store", "stream", "temperature", "top_logprobs", "top_p", "user"}
)  # fmt: skip
"""The fields both APIs type alike: these cross from one wire's body to the other's as they are."""
SHARED_VALUES: dict[str, frozenset[str]] = {
    "service_tier": frozenset({"auto", "default", "flex", "scale", "priority", "fast"}),
}
"""Fields both APIs have with different value sets: the values both take cross, others are warned."""


@dataclass(frozen=True)
class Api:
    """One of the two OpenAI wires, as the option sorter sees it."""

    key: str  # its name in the ``_wire`` record of a request it decoded
    title: str  # for warnings
    fields: frozenset[str]
    stream_options: frozenset[str]  # the keys of its stream_options type


CHAT = Api("chat", "Chat Completions", CHAT_FIELDS, frozenset({"include_obfuscation", "include_usage"}))
RESPONSES = Api("responses", "the Responses API", RESPONSES_FIELDS, frozenset({"include_obfuscation"}))

WIRE = "_wire"
"""The options key recording how a decoded body spelled what the IR does not keep (a single stop
string, an integer temperature, which max-tokens field), and which of the two wires decoded it
(``api``), so re-encoding is exact; read by the wire that wrote it, never sent, and (by the core's
convention for ``_`` keys) not reported by another vendor's encoder."""
API = "api"


def decoded_by(options: dict[str, Any], api: Api) -> None:
    """Record in ``options`` (a decoded body's unmapped fields) which wire they came from."""
    if options:
        options[WIRE] = {**options.get(WIRE, {}), API: api.key}


def spelling(options: Mapping[str, Any], api: Api) -> Mapping[str, Any]:
    """The ``_wire`` record, when ``api`` wrote it (or no wire is named: a record set by hand)."""
    wire = options.get(WIRE)
    if not isinstance(wire, Mapping) or wire.get(API, api.key) != api.key:
        return {}
    return wire


def own_options(options: Mapping[str, Any], api: Api, other: Api, out: WarningSink) -> dict[str, Any]:
    """The options ``api`` sends, each other one reported once. Options its own decoder kept go back
    as they are, whatever their name (the server took them: Snowflake Cortex's Chat takes
    Responses' ``reasoning``, recorded in pydantic-ai's test_snowflake_thinking); options set by
    hand go as they are, less the fields only ``other`` has; options ``other``'s decoder
    kept go only where ``api`` takes the same thing (:data:`SHARED_FIELDS`, :data:`SHARED_VALUES`):
    a host's extension key, a tool_choice or tier of the other API's form, is reported. A null is
    absence, dropped without a word. ``stream_options`` of the other wire keeps the keys ``api``'s
    type has (set by hand: less the other API's own); the rest go without a word, as ``stream``
    framing the transport decides (both wires' coverage rows say ``transport``: Chat's
    ``include_usage`` asks for the usage a Responses stream always sends)."""
    if not options:
        return {}  # most requests: nothing to sort
    wire = options.get(WIRE)
    origin = wire.get(API) if isinstance(wire, Mapping) else None
    if origin == api.key:
        return {key: value for key, value in options.items() if key != WIRE}
    crossing = origin is not None
    kept: dict[str, Any] = {}
    for key, value in options.items():
        if key == WIRE:
            continue
        why = _refusal(key, value, api, other, crossing=crossing)
        if why is None:
            kept[key] = value
        elif value is not None:
            out.unsupported(f"provider_options.{PROVIDER}.{key}", "provider_options", why)
    stream = kept.get("stream_options")
    if isinstance(stream, Mapping):
        unknown = set(stream) - api.stream_options
        dropped = unknown if crossing else unknown & other.stream_options
        if dropped:
            kept["stream_options"] = {k: v for k, v in stream.items() if k not in dropped}
            if not kept["stream_options"]:
                del kept["stream_options"]
    return kept


def _refusal(key: str, value: Any, api: Api, other: Api, *, crossing: bool) -> str | None:
    """Why ``key`` is not sent on ``api``, or None when it is (see :func:`own_options`)."""
    if key == "stream_options" or (not crossing and (key in api.fields or key not in other.fields)):
        return None
    if crossing and (key in SHARED_FIELDS or (isinstance(value, str) and value in SHARED_VALUES.get(key, ()))):
        return None
    if key in api.fields and key not in other.fields:  # a host's extension that shares a name
        return f"{key} of a {other.title} body is a host's extension there; not sent as {api.title}'s own"
    if key in api.fields:
        shown = f"{key} {value!r}" if isinstance(value, str | int | float) else f"the {key} form"
        return f"{shown} (decoded from {other.title}) is not one {api.title} takes"
    return f"{key} is not a field of {api.title}"


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
