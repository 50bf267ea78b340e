"""What the two OpenAI wire formats truly share: the error body (read and served), the Bearer header, and the
provider key, whose ``provider_options`` each wire must sort into its own fields and the other's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interlingua import ProviderError, ThinkingLevel
from interlingua.kit import WarningSink, cache_ttl, error_body, known_model, nearest_level, retry_after

if TYPE_CHECKING:
    from interlingua import Request
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


# --- explicit cache breakpoints (both wires) ------------------------------------------------------

BREAKPOINT = "prompt_cache_breakpoint"
BREAKPOINT_TTLS = ("30m", "12h")
"""A breakpoint's lifetimes (openai ``PromptCacheBreakpoint.ttl``: ``Literal["30m", "12h"]``);
without one it inherits the request's ``prompt_cache_options.ttl`` (30m by default)."""
CACHE_BREAKPOINTS = "cache_breakpoints"
"""The catalog feature (``[model.features]``) of a model that takes explicit breakpoints: "Supported
for gpt-5.6 and later models" (openai ``PromptCacheOptions``, both wires' create params)."""


def breakpoint_ttl(ttl: str | None) -> str | None:
    """A breakpoint's ``ttl`` as the IR holds it: 30m and 12h are ``CacheControl`` lifetimes, an
    unknown one is left to the echo (None)."""
    return ttl if ttl in BREAKPOINT_TTLS else None


def takes_breakpoints(model: str | None) -> bool:
    """Whether the catalog says ``model`` takes explicit breakpoints (an unknown model: no)."""
    spec = known_model(PROVIDER, CATALOG_PACKAGE, model)
    return spec is not None and spec.features.get(CACHE_BREAKPOINTS) is True


Respell = Callable[[Any, dict[str, Any] | None], Any]
"""A wire's way to put a breakpoint spelling into a part's own echo (None: take it out)."""


def mark_breakpoints(
    request: Request,
    kinds: tuple[type, ...],
    echoed: Callable[[Any], dict[str, Any] | None],
    respell: Respell,
    out: WarningSink,
    wire: str,
) -> Request:
    """``request`` with each cache mark the target model can take spelled as a breakpoint in the
    part's own echo, so the part encoder writes it as it writes a decoded one: a mark from another
    wire (``cache_control``) becomes ``{"mode": "explicit"}``, its lifetime mapped to the nearest
    breakpoint lifetime (``cache_ttl``: 5m -> 30m, 1h -> 12h, each a LossyEncode, converted). In
    the default (implicit) mode OpenAI writes only the latest three explicit breakpoints (four with
    ``prompt_cache_options.mode`` explicit): earlier marks from another wire are dropped with a
    LossyEncode rather than sent to be ignored. A model without the catalog feature is left as it
    is: its encoder reports each mark lost."""
    if not takes_breakpoints(request.model):
        return request
    found: list[tuple[int, int, Any, dict[str, Any] | None]] = []
    for i, message in enumerate(request.messages):
        if message.role in ("system", "developer", "user"):
            found += [(i, j, p, echoed(p)) for j, p in enumerate(message.parts) if isinstance(p, kinds) and _marked(p)]
    if not found:
        return request
    options = request.options(PROVIDER).get("prompt_cache_options")
    limit = 4 if isinstance(options, Mapping) and options.get("mode") == "explicit" else 3
    extra = max(0, len(found) - limit)  # the earliest marks from another wire past the limit
    messages = [message.model_copy(update={"parts": list(message.parts)}) for message in request.messages]
    for i, j, part, spelled in found:
        at = f"messages[{i}].parts[{j}]"
        if spelled is None and extra:
            extra -= 1
            why = f"{wire} writes only the latest {limit} explicit cache breakpoints (openai PromptCacheOptions)"
            out.lossy(f"{at}.cache_control", "cache_control", why)
            messages[i].parts[j] = part.model_copy(update={"cache_control": None})
            continue
        mark = {**(spelled or {}), "mode": "explicit"}
        ttl = cache_ttl(part.cache_control.ttl, BREAKPOINT_TTLS, out, f"{at}.cache_control", wire)
        if ttl != part.cache_control.ttl:  # the lifetime sent, so the mark and its spelling agree
            part = part.model_copy(update={"cache_control": part.cache_control.model_copy(update={"ttl": ttl})})
            messages[i].parts[j] = part
        if ttl is not None:
            mark["ttl"] = ttl
        elif breakpoint_ttl(mark.get("ttl")) is not None:
            del mark["ttl"]  # the mark's lifetime was taken off in the IR
        if mark != spelled:
            messages[i].parts[j] = respell(part, mark)
    return request.model_copy(update={"messages": messages})


def _marked(part: Any) -> bool:
    return part.cache_control is not None  # a part of one of the kinds that take a mark
