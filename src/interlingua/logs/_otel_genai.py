"""The OpenTelemetry GenAI message attributes, both directions: IR -> attributes (what a span
records, :mod:`interlingua._otel` writes with it) and attributes -> IR (a recorded span becomes a
request that replays on any wire, and its answer a Response).

The shapes are the conventions' (open-telemetry/semantic-conventions-genai,
``gen-ai-input-messages.json``, ``gen-ai-output-messages.json``, ``gen-ai-system-instructions.json``;
the attribute names from opentelemetry-semantic-conventions 0.66b2,
``opentelemetry/semconv/_incubating/attributes/gen_ai_attributes.py``): a message is
``{role, parts, name?}``, an output message adds ``finish_reason``; parts are ``text``
(``content``), ``reasoning`` (``content``), ``tool_call`` (``id``, ``name``, ``arguments``),
``tool_call_response`` (``id``, ``response``), ``blob`` / ``uri`` / ``file`` (``modality``,
``mime_type`` and ``content`` / ``uri`` / ``file_id``), ``server_tool_call`` and
``server_tool_call_response``; any other type is a generic part. Attribute values are JSON text
(as spans carry them) or the parsed value.

What the attributes cannot hold is a warning on the way out (citations, cache marks, a document's
name, an image's detail, request settings with no ``gen_ai.request.*`` attribute); vendor replay
tokens (``provider_echoes``: signatures, encrypted reasoning) are bound to their vendor and are not
written. On the way in, a tool result names its call by id only: its tool name is the name of the
call with that id earlier in the span (a LossyDecode warning when there is none).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from .._errors import DecodeError
from .._message import ROLES, Message, Role
from .._parts import (
    Audio,
    AudioOutput,
    Base64Source,
    Document,
    FileSource,
    Image,
    ImageOutput,
    Native,
    RedactedThinking,
    Text,
    TextSource,
    Thinking,
    ToolResult,
    ToolUse,
    UrlSource,
    Video,
)
from .._read import expect, join, optional, require
from .._request import NativeTool, Request, ResponseFormat, Tool
from .._response import STOP_REASONS, Response, StopReason, Usage
from .._sniff import DISTINCTIVE, Sniffed, quoted
from .._warnings import Encoded, WarningSink
from .._wire import loads, tool_arguments
from ._format import Imported, LogFormat

NAME = "otel-genai"
INPUT = "gen_ai.input.messages"
OUTPUT = "gen_ai.output.messages"
SYSTEM = "gen_ai.system_instructions"
TOOLS = "gen_ai.tool.definitions"

_SETTINGS = (
    ("max_tokens", "gen_ai.request.max_tokens"),
    ("temperature", "gen_ai.request.temperature"),
    ("top_p", "gen_ai.request.top_p"),
    ("top_k", "gen_ai.request.top_k"),
    ("seed", "gen_ai.request.seed"),
    ("presence_penalty", "gen_ai.request.presence_penalty"),
    ("frequency_penalty", "gen_ai.request.frequency_penalty"),
)
_NO_ATTRIBUTE = ("tool_choice", "parallel_tool_calls", "thinking", "provider_options")
"""Request fields with no attribute in the conventions: reported, never written."""

FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_call"}
"""IR stop reasons in the output message schema's FinishReason words (stop, length,
content_filter, tool_call, error); the others keep the IR's word."""
_FINISH_IN: dict[str, StopReason] = {"stop": "end_turn", "length": "max_tokens", "tool_call": "tool_use"}

_MODALITY = {"image": "image", "image_output": "image", "audio": "audio", "audio_output": "audio", "video": "video"}


# -- IR -> attributes ---------------------------------------------------------------------------


def encode_request(request: Request, *, strict: bool = False) -> Encoded:
    """The request's span attributes: ``gen_ai.request.*`` settings, leading system and developer
    messages as ``gen_ai.system_instructions``, the rest as ``gen_ai.input.messages``, tools as
    ``gen_ai.tool.definitions`` (JSON text, as a span holds them)."""
    out = WarningSink(NAME)
    body = settings(request)
    for field in _NO_ATTRIBUTE:
        if getattr(request, field):
            out.unsupported(field, field, "no GenAI span attribute holds it")
    if request.response_format is not None and request.response_format.type == "json_schema":
        out.unsupported("response_format", "response_format", "the span records the output type, not its schema")
    body.update(content(request, out))
    return out.finish(body, strict=strict)


def encode_response(response: Response, *, strict: bool = False) -> Encoded:
    """The answer's span attributes: id, model, finish reason, usage and ``gen_ai.output.messages``."""
    out = WarningSink(NAME)
    body: dict[str, Any] = response_attributes(response)
    body[OUTPUT] = dumps([output_message(response, out)])
    return out.finish(body, strict=strict)


def settings(request: Request) -> dict[str, Any]:
    """The request's ``gen_ai.request.*`` attributes (and ``gen_ai.output.type``)."""
    found: dict[str, Any] = {}
    if request.model:
        found["gen_ai.request.model"] = request.model
    for field, name in _SETTINGS:
        value = getattr(request, field)
        if value is not None:
            found[name] = value
    if request.stop:
        found["gen_ai.request.stop_sequences"] = list(request.stop)
    if request.response_format is not None:
        found["gen_ai.output.type"] = "text" if request.response_format.type == "text" else "json"
    return found


def response_attributes(response: Response) -> dict[str, Any]:
    """The answer's ``gen_ai.response.*`` and ``gen_ai.usage.*`` attributes."""
    found: dict[str, Any] = {}
    if response.id:
        found["gen_ai.response.id"] = response.id
    if response.model:
        found["gen_ai.response.model"] = response.model
    reason = response.raw_stop_reason or response.stop_reason
    if reason:
        found["gen_ai.response.finish_reasons"] = [reason]
    usage = response.usage
    found["gen_ai.usage.input_tokens"] = usage.input_tokens
    found["gen_ai.usage.output_tokens"] = usage.output_tokens
    for name, value in _usage_subsets(usage):
        if value is not None:
            found[name] = value
    return found


def _usage_subsets(usage: Usage) -> tuple[tuple[str, int | None], ...]:
    return (
        ("gen_ai.usage.cache_read.input_tokens", usage.cache_read_tokens),
        ("gen_ai.usage.cache_creation.input_tokens", usage.cache_write_tokens),
        ("gen_ai.usage.reasoning.output_tokens", usage.reasoning_tokens),
    )


def content(request: Request, out: WarningSink | None = None) -> dict[str, str]:
    """The request's content attributes: leading system and developer messages are the
    instructions, the rest the input messages; tools as their definitions."""
    sink = out if out is not None else WarningSink(NAME)
    messages = list(request.messages)
    lead = 0
    while lead < len(messages) and messages[lead].role in ("system", "developer"):
        lead += 1
    inputs = [_message(m, f"messages[{i}]", sink) for i, m in enumerate(messages) if i >= lead]
    found = {INPUT: dumps(inputs)}
    if lead:
        instructions = [p for i, m in enumerate(messages[:lead]) for p in _parts(m, f"messages[{i}]", sink)]
        found[SYSTEM] = dumps(instructions)
        for i, message in enumerate(messages[:lead]):
            if i or message.role != "system":
                why = "the instructions are one list of parts: read back as part of one system message"
                sink.lossy(f"messages[{i}]", message.role, why, action="converted")
    if request.tools:
        found[TOOLS] = dumps([_tool(tool, f"tools[{i}]", sink) for i, tool in enumerate(request.tools)])
    return found


def _tool(tool: Tool | NativeTool, at: str, out: WarningSink) -> dict[str, Any]:
    if isinstance(tool, NativeTool):
        return {"type": tool.data.get("type", "native"), "provider": tool.provider, **tool.data}
    if tool.strict is not None or tool.cache_control is not None:
        out.unsupported(at, "strict" if tool.strict is not None else "cache_control", "a tool definition has no place")
    found: dict[str, Any] = {"type": "function", "name": tool.name, "parameters": tool.input_schema}
    if tool.description:
        found["description"] = tool.description
    return found


def _message(message: Message, at: str, out: WarningSink) -> dict[str, Any]:
    role = message.role
    if role == "user" and message.parts and all(isinstance(p, ToolResult) for p in message.parts):
        role = "tool"
    found: dict[str, Any] = {"role": role, "parts": _parts(message, at, out)}
    if message.name:
        found["name"] = message.name
    return found


def output_message(response: Response, out: WarningSink | None = None) -> dict[str, Any]:
    """The answer's message in the output message schema (with its ``finish_reason``)."""
    reason = response.stop_reason or "stop"
    parts = _parts(response.message, "message", out if out is not None else WarningSink(NAME))
    return {"role": "assistant", "parts": parts, "finish_reason": FINISH.get(reason, reason)}


def _parts(message: Message, at: str, out: WarningSink) -> list[dict[str, Any]]:
    return [_part(part, f"{at}.parts[{i}]", out) for i, part in enumerate(message.parts)]


def _part(part: Any, at: str, out: WarningSink) -> dict[str, Any]:
    if getattr(part, "cache_control", None) is not None:
        out.lossy(at, part.type, "a span part has no cache mark", action="converted")
    if isinstance(part, Text):
        if part.citations:
            out.lossy(at, "text", "a span part has no citations", action="converted")
        return {"type": "text", "content": part.text}
    if isinstance(part, Thinking):
        return {"type": "reasoning", "content": part.text}
    if isinstance(part, RedactedThinking):
        out.lossy(at, "redacted_thinking", "written as empty reasoning", action="converted")
        return {"type": "reasoning", "content": ""}
    if isinstance(part, ToolUse):
        arguments: Any = part.raw_input if part.raw_input is not None else part.input
        return {"type": "tool_call", "id": part.id, "name": part.name, "arguments": arguments}
    if isinstance(part, ToolResult):
        return _tool_result(part, at, out)
    if isinstance(part, Image | Audio | Video | Document | ImageOutput | AudioOutput):
        return _media(part, at, out)
    if isinstance(part, Native):
        return _native(part)
    return {"type": getattr(part, "type", "unknown")}


def _tool_result(part: ToolResult, at: str, out: WarningSink) -> dict[str, Any]:
    if part.is_error:
        out.lossy(at, "tool_result", "a tool call response has no error flag", action="converted")
    body = part.content
    if isinstance(body, str | dict):
        return {"type": "tool_call_response", "id": part.tool_use_id, "response": body}
    response = [_part(p, f"{at}.content[{i}]", out) for i, p in enumerate(body)]
    return {"type": "tool_call_response", "id": part.tool_use_id, "response": response}


def _media(part: Any, at: str, out: WarningSink) -> dict[str, Any]:
    modality = _MODALITY.get(part.type, "document")
    source = part.source
    mime = getattr(source, "media_type", None)
    if getattr(part, "detail", None) is not None or getattr(part, "name", None) or getattr(part, "context", None):
        out.lossy(at, part.type, "a span part has no detail, name or context", action="converted")
    found: dict[str, Any]
    if isinstance(source, Base64Source):
        found = {"type": "blob", "modality": modality, "mime_type": mime, "content": source.data}
    elif isinstance(source, UrlSource):
        found = {"type": "uri", "modality": modality, "mime_type": mime, "uri": source.url}
    elif isinstance(source, FileSource):
        found = {"type": "file", "modality": modality, "mime_type": mime, "file_id": source.file_id}
    elif isinstance(source, TextSource):
        out.lossy(at, part.type, "a text document is written as a text part", action="converted")
        found = {"type": "text", "content": source.text}
    else:  # a handle in the host's store: named, never read
        found = {"type": "file", "modality": modality, "mime_type": mime, "file_id": getattr(source, "id", "")}
    if isinstance(part, AudioOutput) and part.transcript:
        found["transcript"] = part.transcript
    return found


def _native(part: Native) -> dict[str, Any]:
    """A vendor block: a server tool's call or result keeps that type (by the vendor's own block
    type: ``*_tool_use`` / ``*_call`` a call, ``*_result`` a result); anything else as it came."""
    kind = str(part.data.get("type", ""))
    if kind.endswith(("_result", "_response")):
        return {
            "type": "server_tool_call_response",
            "id": part.data.get("tool_use_id") or part.data.get("id"),
            "server_tool_call_response": {**part.data, "type": kind},
            "provider": part.provider,
        }
    if kind.endswith(("tool_use", "_call")):
        return {
            "type": "server_tool_call",
            "id": part.data.get("id"),
            "name": part.data.get("name") or kind,
            "server_tool_call": {**part.data, "type": kind},
            "provider": part.provider,
        }
    return {"type": kind or "native", "provider": part.provider, "data": dict(part.data)}


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


# -- attributes -> IR ---------------------------------------------------------------------------


def attributes_of(span: Mapping[str, Any]) -> dict[str, Any]:
    """A span's attributes, from the span as exporters write it (``attributes`` as an object, as
    the SDK's ``ReadableSpan.to_json`` does, or OTLP/JSON's list of ``{key, value}``), or the
    attributes object itself."""
    found = span.get("attributes", span)
    if isinstance(found, list):
        items = [expect(item, dict, f"attributes[{i}]") for i, item in enumerate(found)]
        return {str(item.get("key")): _otlp(item.get("value")) for item in items}
    attributes = expect(found, dict, "attributes")
    return {key: list(value) if isinstance(value, tuple) else value for key, value in attributes.items()}  # SDK tuples


def _otlp(value: Any) -> Any:
    """An OTLP/JSON ``AnyValue`` (``{"stringValue": ...}``, ``{"arrayValue": {"values": [...]}}``)."""
    if not isinstance(value, Mapping) or len(value) != 1:
        return value
    (kind, inner), = value.items()
    if kind == "arrayValue":
        return [_otlp(v) for v in (inner or {}).get("values", [])]
    if kind == "intValue":
        return int(inner)
    return inner


def has_messages(attributes: Mapping[str, Any]) -> bool:
    return INPUT in attributes or OUTPUT in attributes or SYSTEM in attributes


def _json(attributes: Mapping[str, Any], name: str) -> list[Any]:
    value = attributes.get(name)
    if value is None:
        return []
    if isinstance(value, str):
        try:
            value = loads(value)
        except ValueError as err:
            raise DecodeError(NAME, name, f"not JSON ({err})") from None
    return expect(value, list, name)


def decode_request(span: Mapping[str, Any], out: WarningSink) -> Request:
    """The request a span records: its instructions and input messages, tools and settings."""
    attributes = attributes_of(span)
    calls: dict[str, str] = {}
    messages: list[Message] = []
    instructions = _json(attributes, SYSTEM)
    if instructions:
        parts = [_decode_part(p, f"{SYSTEM}[{i}]", "system", calls, out) for i, p in enumerate(instructions)]
        messages.append(Message(role="system", parts=parts))
    for i, item in enumerate(_json(attributes, INPUT)):
        messages.append(_decode_message(item, f"{INPUT}[{i}]", calls, out))
    tools = [_decode_tool(item, f"{TOOLS}[{i}]") for i, item in enumerate(_json(attributes, TOOLS))]
    fields: dict[str, Any] = {field: attributes[name] for field, name in _SETTINGS if name in attributes}
    if "gen_ai.request.stop_sequences" in attributes:
        fields["stop"] = list(require(attributes, "gen_ai.request.stop_sequences", list, ""))
    if attributes.get("gen_ai.output.type") == "json":
        fields["response_format"] = ResponseFormat(type="json_object")
    model = optional(attributes, "gen_ai.request.model", str, "")
    return Request(model=model, messages=messages, tools=tools, **fields)


def decode_response(span: Mapping[str, Any], out: WarningSink) -> Response | None:
    """The answer a span records (its first output message), or None when it records none."""
    attributes = attributes_of(span)
    outputs = _json(attributes, OUTPUT)
    if not outputs:
        return None
    calls = _calls_of(decode_request(span, WarningSink(NAME)))
    message = _decode_message(outputs[0], f"{OUTPUT}[0]", calls, out)
    finish = optional(expect(outputs[0], dict, f"{OUTPUT}[0]"), "finish_reason", str, f"{OUTPUT}[0]")
    reasons = attributes.get("gen_ai.response.finish_reasons")
    raw = reasons[0] if isinstance(reasons, list) and reasons and isinstance(reasons[0], str) else finish
    stop = _FINISH_IN.get(finish or "", finish if finish in STOP_REASONS else "other")
    return Response(
        id=optional(attributes, "gen_ai.response.id", str, ""),
        model=optional(attributes, "gen_ai.response.model", str, ""),
        message=message.model_copy(update={"role": "assistant"}),
        stop_reason=stop if finish is not None else None,
        raw_stop_reason=raw,
        usage=_decode_usage(attributes),
    )


def _calls_of(request: Request) -> dict[str, str]:
    return {p.id: p.name for m in request.messages for p in m.parts if isinstance(p, ToolUse)}


def _decode_usage(attributes: Mapping[str, Any]) -> Usage:
    found: dict[str, int] = {}
    for field, name in (
        ("input_tokens", "gen_ai.usage.input_tokens"),
        ("output_tokens", "gen_ai.usage.output_tokens"),
        ("cache_read_tokens", "gen_ai.usage.cache_read.input_tokens"),
        ("cache_write_tokens", "gen_ai.usage.cache_creation.input_tokens"),
        ("reasoning_tokens", "gen_ai.usage.reasoning.output_tokens"),
    ):
        value = optional(attributes, name, int, "")
        if value is not None:
            found[field] = value
    return Usage(**found)


def _decode_message(item: Any, at: str, calls: dict[str, str], out: WarningSink) -> Message:
    item = expect(item, dict, at)
    role = require(item, "role", str, at)
    if role not in ROLES:
        raise DecodeError(NAME, join(at, "role"), f"unknown role {role!r}")
    parts = [_decode_part(p, f"{at}.parts[{i}]", role, calls, out) for i, p in enumerate(_items(item, "parts", at))]
    return Message(role=role, parts=parts, name=optional(item, "name", str, at))


def _items(item: Mapping[str, Any], key: str, at: str) -> Iterator[Any]:
    yield from expect(item.get(key) or [], list, join(at, key))


def _decode_part(block: Any, at: str, role: Role | str, calls: dict[str, str], out: WarningSink) -> Any:
    block = expect(block, dict, at)
    kind = require(block, "type", str, at)
    if kind == "text":
        return Text(text=require(block, "content", str, at))
    if kind == "reasoning":
        return Thinking(text=optional(block, "content", str, at, ""))
    if kind == "tool_call":
        return _decode_call(block, at, calls)
    if kind == "tool_call_response":
        return _decode_result(block, at, role, calls, out)
    if kind in ("blob", "uri", "file"):
        return _decode_media(block, kind, at, role)
    return _decode_native(block, kind)


def _decode_call(block: Mapping[str, Any], at: str, calls: dict[str, str]) -> ToolUse:
    call_id = optional(block, "id", str, at, "")
    name = require(block, "name", str, at)
    calls[call_id] = name
    arguments = block.get("arguments")
    if isinstance(arguments, str):  # arguments as the model wrote them: read as a wire's arguments text is
        value, raw = tool_arguments(arguments)
        return ToolUse(id=call_id, name=name, input=value, raw_input=raw)
    return ToolUse(id=call_id, name=name, input=expect(arguments or {}, dict, join(at, "arguments")))


def _decode_result(
    block: Mapping[str, Any], at: str, role: Role | str, calls: dict[str, str], out: WarningSink
) -> ToolResult:
    call_id = optional(block, "id", str, at, "")
    name = calls.get(call_id)
    if name is None:
        out.lossy_decode(at, "no tool call with this id earlier in the span: the result's tool name is unknown")
    response = block.get("response")
    if isinstance(response, list):
        response = [_decode_part(p, f"{at}.response[{i}]", role, calls, out) for i, p in enumerate(response)]
    elif response is None:
        response = ""
    elif not isinstance(response, str | dict):
        response = dumps(response)
    return ToolResult(tool_use_id=call_id, name=name or "", content=response)


def _decode_media(block: Mapping[str, Any], kind: str, at: str, role: Role | str) -> Any:
    modality = optional(block, "modality", str, at, "")
    mime = optional(block, "mime_type", str, at)
    source: Any
    if kind == "blob":
        source = Base64Source(media_type=mime or "application/octet-stream", data=require(block, "content", str, at))
    elif kind == "uri":
        source = UrlSource(url=require(block, "uri", str, at), media_type=mime)
    else:
        source = FileSource(file_id=require(block, "file_id", str, at), media_type=mime)
    if role == "assistant" and modality == "image":
        return ImageOutput(source=source)
    if role == "assistant" and modality == "audio":
        return AudioOutput(source=source, transcript=optional(block, "transcript", str, at))
    part = {"image": Image, "audio": Audio, "video": Video}.get(modality, Document)
    return part(source=source)


def _decode_native(block: Mapping[str, Any], kind: str) -> Native:
    """A server tool's call or result, or a generic part: kept whole, under the provider the part
    names (the writer records it), else under ``otel-genai``."""
    provider = block.get("provider") if isinstance(block.get("provider"), str) else NAME
    if kind in ("server_tool_call", "server_tool_call_response") and isinstance(block.get(kind), Mapping):
        return Native(provider=str(provider), data=dict(block[kind]))
    if isinstance(block.get("data"), Mapping) and "provider" in block:
        return Native(provider=str(provider), data=dict(block["data"]))
    return Native(provider=NAME, data=dict(block))


def _decode_tool(item: Any, at: str) -> Tool | NativeTool:
    item = expect(item, dict, at)
    kind = optional(item, "type", str, at, "function")
    if kind != "function":
        provider = optional(item, "provider", str, at, NAME)
        return NativeTool(provider=provider, data={k: v for k, v in item.items() if k != "provider"})
    schema = optional(item, "parameters", dict, at)
    tool = Tool(name=require(item, "name", str, at), description=optional(item, "description", str, at))
    return tool if schema is None else tool.model_copy(update={"input_schema": schema})


# -- the log format -----------------------------------------------------------------------------


def read(data: Any) -> Imported:
    """A recorded span (or its attributes): the request it records, and its answer."""
    out = WarningSink(NAME)
    span = expect(data, dict, "")
    request = decode_request(span, out)
    response = decode_response(span, out)
    return Imported(request, response, list(out.warnings))


def sniff(data: Any) -> Sniffed | None:
    if not isinstance(data, Mapping):
        return None
    attributes = data.get("attributes", data)
    if isinstance(attributes, list):
        keys = {str(item.get("key")) for item in attributes if isinstance(item, Mapping)}
    else:
        keys = {str(key) for key in attributes} if isinstance(attributes, Mapping) else set()
    found = sorted(keys & {INPUT, OUTPUT, SYSTEM})
    if not found:
        return None
    return Sniffed("request", DISTINCTIVE, f"a span with {quoted(found)}")


FORMAT = LogFormat(NAME, read, sniff, "OpenTelemetry GenAI span attributes (gen_ai.input.messages, ...)")
