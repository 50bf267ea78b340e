"""interlingua: one conversation transcript, every LLM vendor.

A provider-neutral IR (messages of content parts), and a codec per vendor wire format that
encodes and decodes it, reporting every loss as a typed warning. Codecs are separate
distributions found through entry points: ``get_codec("acme-chat")``.
"""

from typing import TYPE_CHECKING

# Imported with the package: the codec protocol, the errors and the registry, none of which builds
# a pydantic model. Everything else (the IR, warnings, streams, the transport) loads on first use:
# a pydantic model with a field costs about 100M instructions of pydantic's own imports, and each
# IR class about 2M more through pydantic's metaclass, which ``defer_build`` does not skip
# (docs/performance.md, "Issue 46"). ``from interlingua import Text`` loads ``_parts`` then.
from ._codec import DETAILS, SETTINGS, Capabilities, Codec, Endpoint, HttpRequest, Support
from ._errors import (
    AuthenticationError,
    BadRequestError,
    DecodeError,
    EncodeError,
    InterlinguaError,
    MissingAPIKeyError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
    TimeoutError,
    TransportError,
)
from ._lazy import lazy_names
from ._registry import UnknownCodecError, codecs, get_codec
from ._stream_errors import StreamDecodeError, StreamError, StreamTimeoutError

__version__ = "0.1.0"

_LAZY_MODULES: dict[str, tuple[str, ...]] = {
    "._parts": (
        "Audio", "AudioOutput", "Base64Source", "CacheControl", "Citation", "CitationSource", "ContentPart", "Document",
        "FileSource", "HandleSource", "Image", "ImageOutput", "MediaSource", "Native", "PART_TYPES", "ProviderEcho",
        "RedactedThinking", "Source", "Text", "TextSource", "Thinking", "ToolResult", "ToolUse", "UrlSource", "Video",
    ),
    "._message": ("Message", "ROLES", "Role"),
    "._request": (
        "AnyTool", "NativeTool", "Request", "ResponseFormat", "ThinkingConfig", "ThinkingLevel", "Tool", "ToolChoice",
        "ToolChoiceMode",
    ),
    "._response": ("Response", "STOP_REASONS", "StopReason", "Usage"),
    "._cost": ("Cost",),
    "._warnings": (
        "AnyWarning", "Encoded", "ForeignOption", "LossyDecode", "LossyEncode", "LossyEncodeError", "ModelWarning",
        "UnknownModel", "UnsupportedSetting", "WarningSink",
    ),
    "._handles": ("AsyncResolver", "Resolved", "Resolver", "aresolve_handles", "resolve_handles"),
    "._sse": (
        "DONE", "MAX_EVENT_SIZE", "SSEEvent", "ServerSentEvent", "aparse_sse", "parse_sse", "render_event",
        "render_sse",
    ),
    "._stream": (
        "Echo", "ErrorEvent", "MessageEnd", "MessageStart", "PartEnd", "PartStart", "StreamAccumulator", "StreamEvent",
        "TextDelta", "ThinkingDelta", "ToolInputDelta", "UsageUpdate", "aaccumulate", "accumulate",
    ),
    "._warned_stream": ("DecodedStream", "EncodedStream"),
    "._client": ("AsyncClient", "AsyncEventStream", "Client", "EventStream", "RetryPolicy"),
    "._transcript": ("HostEntry", "Transcript"),
    "._budgets": ("ThinkingBudgets",),
    "._count": ("TokenCount", "estimate_tokens"),
    "._batch": ("BatchFailure", "BatchJob"),
    "._batching": ("BatchOutcome", "BatchUnsupportedError"),
    "._otel": ("instrument", "uninstrument"),
    "._binding": ("prefix_digest",),
}
"""The names each module gives, loaded with the first of them that is asked for."""



_SUBMODULES = frozenset({"kit", "models", "pricing", "testing"})
"""Reachable as ``interlingua.kit`` (and so on) after a plain ``import interlingua``, imported on
first use so the import itself stays as cheap as before."""


__getattr__, __dir__ = lazy_names(__name__, _LAZY_MODULES, globals(), _SUBMODULES)


if TYPE_CHECKING:
    from ._batch import BatchFailure, BatchJob
    from ._batching import BatchOutcome, BatchUnsupportedError
    from ._binding import prefix_digest
    from ._budgets import ThinkingBudgets
    from ._client import AsyncClient, AsyncEventStream, Client, EventStream, RetryPolicy
    from ._cost import Cost
    from ._count import TokenCount, estimate_tokens
    from ._handles import AsyncResolver, Resolved, Resolver, aresolve_handles, resolve_handles
    from ._message import ROLES, Message, Role
    from ._otel import instrument, uninstrument
    from ._parts import (
        PART_TYPES,
        Audio,
        AudioOutput,
        Base64Source,
        CacheControl,
        Citation,
        CitationSource,
        ContentPart,
        Document,
        FileSource,
        HandleSource,
        Image,
        ImageOutput,
        MediaSource,
        Native,
        ProviderEcho,
        RedactedThinking,
        Source,
        Text,
        TextSource,
        Thinking,
        ToolResult,
        ToolUse,
        UrlSource,
        Video,
    )
    from ._request import (
        AnyTool,
        NativeTool,
        Request,
        ResponseFormat,
        ThinkingConfig,
        ThinkingLevel,
        Tool,
        ToolChoice,
        ToolChoiceMode,
    )
    from ._response import STOP_REASONS, Response, StopReason, Usage
    from ._sse import (
        DONE,
        MAX_EVENT_SIZE,
        ServerSentEvent,
        SSEEvent,
        aparse_sse,
        parse_sse,
        render_event,
        render_sse,
    )
    from ._stream import (
        Echo,
        ErrorEvent,
        MessageEnd,
        MessageStart,
        PartEnd,
        PartStart,
        StreamAccumulator,
        StreamEvent,
        TextDelta,
        ThinkingDelta,
        ToolInputDelta,
        UsageUpdate,
        aaccumulate,
        accumulate,
    )
    from ._transcript import HostEntry, Transcript
    from ._warned_stream import DecodedStream, EncodedStream
    from ._warnings import (
        AnyWarning,
        Encoded,
        ForeignOption,
        LossyDecode,
        LossyEncode,
        LossyEncodeError,
        ModelWarning,
        UnknownModel,
        UnsupportedSetting,
        WarningSink,
    )

__all__ = [
    "AsyncClient",
    "AsyncEventStream",
    "Client",
    "EventStream",
    "MissingAPIKeyError",
    "RetryPolicy",
    "DETAILS",
    "DONE",
    "MAX_EVENT_SIZE",
    "PART_TYPES",
    "ROLES",
    "SETTINGS",
    "STOP_REASONS",
    "AnyTool",
    "AnyWarning",
    "AsyncResolver",
    "Audio",
    "AudioOutput",
    "AuthenticationError",
    "BadRequestError",
    "Base64Source",
    "CacheControl",
    "Capabilities",
    "Citation",
    "CitationSource",
    "Codec",
    "Cost",
    "ContentPart",
    "DecodeError",
    "Document",
    "Echo",
    "Encoded",
    "EncodedStream",
    "DecodedStream",
    "EncodeError",
    "Endpoint",
    "ErrorEvent",
    "FileSource",
    "ForeignOption",
    "HandleSource",
    "HostEntry",
    "HttpRequest",
    "Image",
    "ImageOutput",
    "InterlinguaError",
    "LossyDecode",
    "LossyEncode",
    "LossyEncodeError",
    "MediaSource",
    "Message",
    "MessageEnd",
    "MessageStart",
    "ModelWarning",
    "Native",
    "NativeTool",
    "NotFoundError",
    "OverloadedError",
    "PartEnd",
    "PartStart",
    "PermissionDeniedError",
    "ProviderEcho",
    "ProviderError",
    "RateLimitError",
    "RedactedThinking",
    "Request",
    "Response",
    "Resolved",
    "Resolver",
    "ResponseFormat",
    "Role",
    "SSEEvent",
    "ServerError",
    "ServerSentEvent",
    "Source",
    "StopReason",
    "StreamAccumulator",
    "StreamDecodeError",
    "StreamTimeoutError",
    "StreamError",
    "StreamEvent",
    "Support",
    "Text",
    "TextDelta",
    "TextSource",
    "Thinking",
    "ThinkingBudgets",
    "TokenCount",
    "BatchFailure",
    "BatchJob",
    "BatchOutcome",
    "BatchUnsupportedError",
    "ThinkingConfig",
    "ThinkingDelta",
    "ThinkingLevel",
    "TimeoutError",
    "Transcript",
    "Tool",
    "ToolChoice",
    "ToolChoiceMode",
    "ToolInputDelta",
    "ToolResult",
    "ToolUse",
    "TransportError",
    "UnknownCodecError",
    "UnknownModel",
    "UnsupportedSetting",
    "UrlSource",
    "Usage",
    "UsageUpdate",
    "Video",
    "WarningSink",
    "aaccumulate",
    "estimate_tokens",
    "accumulate",
    "aparse_sse",
    "aresolve_handles",
    "codecs",
    "get_codec",
    "instrument",
    "prefix_digest",
    "parse_sse",
    "render_event",
    "render_sse",
    "resolve_handles",
    "uninstrument",
]
