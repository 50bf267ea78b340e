"""``interlingua inspect``: a transcript or wire body, decoded to the IR, drawn as a tree.

The tree shows what a codec made of the body, not the body itself: roles, parts, tool calls,
reasoning (marked ``[reasoning]``), cache breakpoints (``[cache 1h]``), the vendor data riding
on each part (``echo acme: signature``), and for answers the stop reason and usage. A wire
request's settings are held to its model's catalog entry (``model rules``): what the model would
refuse, judged by the same core rules the encoders follow.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, assert_never

from .. import (
    AnyTool,
    Audio,
    AudioOutput,
    Base64Source,
    ContentPart,
    Document,
    FileSource,
    Image,
    ImageOutput,
    Message,
    Native,
    NativeTool,
    RedactedThinking,
    Request,
    Response,
    Source,
    Text,
    TextSource,
    Thinking,
    ToolResult,
    ToolUse,
    Transcript,
    UrlSource,
    Usage,
    Video,
    accumulate,
)
from .._batch import BatchFailure, ResultFormat
from .._read import decode_with
from .._warnings import article
from . import results
from .conversion import Converter, codec_for, settings_set, unwrap
from .convert import check_wires, one_line_errors, parse_single, read_input
from .detect import TRANSCRIPT, Detected, DetectError
from .exits import OK, USAGE, CliError
from .render import warnings_table

Tree = tuple[str, list["Tree"]]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="a transcript, a wire request or response, or a recorded stream; '-' reads stdin")
    parser.add_argument("--from", dest="source", metavar="WIRE", help="the input's wire; detected when omitted")
    parser.add_argument("--full", action="store_true", help="show whole texts (by default cut at 100 characters)")
    parser.add_argument("--line", type=int, metavar="N", help="a JSONL dataset's line N (1-based), the one to show")


def run(args: argparse.Namespace) -> int:
    check_wires(args.source)
    data = read_input(args.input)
    if args.line is not None:
        data = _line(data, args.line, args.input)
    body = _load(data, args.source)
    width = 0 if args.full else 100
    sys.stdout.write("\n".join(_draw(tree) for tree in body.trees(width)) + "\n")
    return OK


class _Loaded:
    def __init__(self, detected: Detected, value: Request | Response, custom_id: Any = None) -> None:
        self.detected, self.value, self.custom_id = detected, value, custom_id
        self.metadata: Mapping[str, Any] = {}

    def trees(self, width: int) -> Iterator[Tree]:
        title = f"{self.detected.wire} {self.detected.kind} ({self.detected.reason})"
        if self.custom_id is not None:
            title += f", batch id {self.custom_id!r}"
        if isinstance(self.value, Request):
            lines = list(_request_lines(self.value, width))
            if self.metadata:
                lines.insert(0, (f"metadata: {json.dumps(self.metadata, ensure_ascii=False)}", []))
            rules = _model_rules(self.value, self.detected.wire)
            if rules is not None:
                lines.insert(1 if self.value.model is not None else 0, rules)
            yield title, lines
        else:
            yield title, list(_response_lines(self.value, width))
            if self.value.warnings:
                yield "decode warnings", [(line, []) for line in warnings_table(self.value.warnings).splitlines()]


def _line(data: bytes, number: int, name: str) -> bytes:
    lines = data.splitlines()
    if not 1 <= number <= len(lines) or not lines[number - 1].strip():
        shown = "stdin" if name == "-" else name
        raise CliError(f"--line {number}: {shown} has no such line (it has {len(lines)}, blank ones included)", USAGE)
    return lines[number - 1]


def _load(data: bytes, source: str | None) -> _Loaded | _Failed:
    with one_line_errors():
        body = parse_single(data, several="a dataset? show one of its lines with --line N")
        converter = Converter(target=TRANSCRIPT, source=source)
        if converter.reads_log(body):  # a log's messages
            detected = converter.detect(body, None)
            request = converter.decode_request(body, detected)
            return _Loaded(detected, request)
        if body is None or isinstance(body, list):
            detected, events = converter.stream_events(data)
            return _Loaded(detected, accumulate(events))
        if not isinstance(body, Mapping):
            raise DetectError(f"expected a JSON object, got {type(body).__name__}")
        found = results.find(body)
        if found is not None:
            return _result(body, found, source)
        envelope, inner = unwrap(body)
        detected = converter.detect(inner, envelope)
        if detected.kind == "response":
            return _Loaded(detected, codec_for(detected.wire).decode_response(inner))
        request = converter.decode_request(inner, detected, envelope)
        loaded = _Loaded(detected, request, envelope.id if envelope and envelope.batch else None)
        if detected.wire == TRANSCRIPT:  # the host's metadata is the transcript's, not the request's
            loaded.metadata = Transcript.from_json_dict(inner).metadata
        return loaded


def _result(line: Mapping[str, Any], found: tuple[str, ResultFormat, str], source: str | None) -> _Loaded | _Failed:
    """A batch result line: its answer drawn as a response under its id, or its failure."""
    name, form, reason = found
    read = decode_with(name, form.read, line)
    if read.failure is not None:
        return _Failed(f"batch id {read.id!r} ({reason})", read.failure)
    wire = source or results.body_wire(read.response, name)
    detected = Detected(wire, "response", f"in {article(reason)}")
    return _Loaded(detected, codec_for(wire).decode_response(read.response or {}), read.id)


class _Failed:
    """A result line whose request came to no answer."""

    def __init__(self, title: str, failure: BatchFailure) -> None:
        self.title, self.failure = title, failure

    def trees(self, width: int) -> Iterator[Tree]:
        facts = [("status", self.failure.status), ("code", self.failure.code), ("message", self.failure.message)]
        yield self.title, [(f"{self.failure.kind}", [(f"{k}: {v}", []) for k, v in facts if v not in (None, "")])]


# -- drawing ------------------------------------------------------------------------------------


def _draw(tree: Tree) -> str:
    title, children = tree
    return "\n".join([title, *_draw_children(children, "")])


def _draw_children(children: Sequence[Tree], indent: str) -> Iterator[str]:
    for i, (title, grandchildren) in enumerate(children):
        last = i == len(children) - 1
        yield f"{indent}{'└── ' if last else '├── '}{title}"
        yield from _draw_children(grandchildren, indent + ("    " if last else "│   "))


def _request_lines(request: Request, width: int) -> Iterator[Tree]:
    if request.model is not None:
        yield f"model: {request.model}", []
    settings = _settings(request)
    if settings:
        yield "settings", [(f"{name}: {value}", []) for name, value in settings]
    if request.tools:
        yield f"tools ({len(request.tools)})", [_tool(tool) for tool in request.tools]
    yield f"messages ({len(request.messages)})", [_message(i, m, width) for i, m in enumerate(request.messages)]
    for provider, options in request.provider_options.items():
        yield f"provider_options[{provider}]: {', '.join(options)}", []


def _model_rules(request: Request, wire: str) -> Tree | None:
    """What the request's model would refuse, by its provider's catalog; None where there is no
    catalog to ask (a transcript names no wire, a codec may ship none)."""
    if request.model is None or wire == TRANSCRIPT:
        return None
    from .. import models
    from .._model_check import refusals, view_of

    provider = codec_for(wire).provider
    spec = models.find(provider, request.model)
    if spec is None:
        if not models.all_models(provider):
            return None
        return f"model rules: {request.model!r} is not in the {provider} catalog, nothing checked", []
    problems = refusals(spec, view_of(request), wire.partition(":")[0])
    if not problems:
        return f"model rules ({spec.id}): nothing refused", []
    return f"model rules ({spec.id}): the API would refuse", [(problem, []) for problem in problems]


def _settings(request: Request) -> list[tuple[str, str]]:
    skip = {"model", "messages", "tools", "provider_options"}
    shown = []
    for name in settings_set(request):
        value = getattr(request, name)
        if name in skip:
            continue
        if hasattr(value, "to_json_dict"):
            value = json.dumps(value.to_json_dict(), ensure_ascii=False)
        shown.append((name, str(value)))
    return shown


def _tool(tool: AnyTool) -> Tree:
    if isinstance(tool, NativeTool):
        return f"native tool ({tool.provider}): {tool.data.get('type', tool.data.get('name', '?'))}", []
    params = ", ".join(tool.input_schema.get("properties", {}))
    return f"{tool.name}({params}){_cache(tool)}", []


def _response_lines(response: Response, width: int) -> Iterator[Tree]:
    for label, value in (("id", response.id), ("model", response.model)):
        if value is not None:
            yield f"{label}: {value}", []
    if response.stop_reason is not None:
        yield f"stop: {response.stop_reason} (raw {response.raw_stop_reason!r})", []
    yield f"usage: {_usage(response.usage)}", []
    yield _message(None, response.message, width)
    if response.provider_echoes:
        yield "response echoes", [_echo(e) for e in response.provider_echoes]


def _usage(usage: Usage) -> str:
    shown = [
        f"{label} {value:,}"
        for label, value in (
            ("input", usage.input_tokens),
            ("output", usage.output_tokens),
            ("cache read", usage.cache_read_tokens),
            ("cache write", usage.cache_write_tokens),
            ("reasoning", usage.reasoning_tokens),
        )
        if value is not None
    ]
    shown += [f"{key} {value:,}" for key, value in usage.extra.items()]
    return ", ".join(shown) or "not reported"


def _message(index: int | None, message: Message, width: int) -> Tree:
    title = message.role if index is None else f"[{index}] {message.role}"
    if message.name:
        title += f" name={message.name!r}"
    if message.id:
        title += f" id={message.id}"
    children = [_part(part, width) for part in message.parts]
    children += [_echo(e) for e in message.provider_echoes]
    return title, children


def _part(part: ContentPart, width: int) -> Tree:
    title = _part_title(part, width)
    children = [_echo(e) for e in part.provider_echoes]
    if isinstance(part, ToolResult) and isinstance(part.content, list):
        children = [_part(inner, width) for inner in part.content] + children
    if isinstance(part, Text) and part.citations:
        children.insert(0, (f"citations ({len(part.citations)})", []))
    return title + _cache(part), children


def _part_title(part: ContentPart, width: int) -> str:
    match part:
        case Text():
            return f"text {_quote(part.text, width)}"
        case Thinking():
            return f"thinking [reasoning] {_quote(part.text, width)}"
        case RedactedThinking():
            return "redacted_thinking [reasoning] (opaque)"
        case Image() | Audio() | Video() | ImageOutput():
            return f"{part.type} {_source(part.source)}"
        case AudioOutput():
            return f"audio_output {_source(part.source)}" + (
                f" {_quote(part.transcript, width)}" if part.transcript else ""
            )
        case Document():
            return f"document {_source(part.source)}" + (f" name={part.name!r}" if part.name else "")
        case ToolUse():
            arguments = _quote(json.dumps(part.input, ensure_ascii=False), width, plain=True)
            return f"tool_use {part.name} id={part.id} input={arguments}"
        case ToolResult():
            error = " [error]" if part.is_error else ""
            content = "" if isinstance(part.content, list) else " " + _result_text(part.content, width)
            return f"tool_result {part.name} for={part.tool_use_id}{error}{content}"
        case Native():
            return f"native ({part.provider}) {part.data.get('type', '')}".rstrip()
        case _:
            assert_never(part)


def _result_text(content: str | Mapping[str, Any], width: int) -> str:
    if isinstance(content, str):
        return _quote(content, width)
    return _quote(json.dumps(content, ensure_ascii=False), width, plain=True)


def _source(source: Source) -> str:
    match source:
        case Base64Source():
            return f"base64 {source.media_type}, {len(source.data) * 3 // 4:,} bytes"
        case UrlSource():
            return f"url {source.url}"
        case FileSource():
            return f"file {source.file_id}" + (f" ({source.provider})" if source.provider else "")
        case TextSource():
            return f"text {source.media_type}, {len(source.text):,} chars"
        case _:
            return source.type


def _echo(echo: Any) -> Tree:
    model = f" (model {echo.model})" if echo.model else ""
    return f"echo {echo.provider}: {', '.join(echo.data) or '(empty)'}{model}", []


def _cache(part: Any) -> str:
    cache = getattr(part, "cache_control", None)
    if cache is None:
        return ""
    return f" [cache {cache.ttl}]" if cache.ttl else " [cache]"


def _quote(text: str, width: int, *, plain: bool = False) -> str:
    text = text.replace("\n", "\\n")
    if width and len(text) > width:
        text = text[: width - 3] + "..."
    return text if plain else json.dumps(text, ensure_ascii=False)
