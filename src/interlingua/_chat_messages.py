"""The conversational dataset format of chat templates and TRL (``hf-messages``) <-> TuningExample.

A line is ``{"messages": [...], "tools": [...]}`` (language modeling), ``{"prompt": [...],
"completion": [...]}`` or ``{"prompt": [...], "chosen": [...], "rejected": [...]}`` (preference);
a message is ``{role, content}`` with, on assistant turns, ``tool_calls`` (``{"type": "function",
"function": {"name", "arguments"}}``, the arguments an object) and ``thinking``; a tool's answer
is ``{"role": "tool", "name", "content"}``. Source: TRL's docs/source/dataset_formats.md
("Conversational", "Tool Calling", "Harmony" for ``thinking``, "Preference"); images are
``{"type": "image", "url"}`` blocks (transformers' chat_templating_multimodal.md; a block of
another shape, ``path`` or ``base64``, is kept whole as this format's own); ``tools`` is a list
of JSON schemas as ``transformers.utils.get_json_schema`` writes them (a JSON string is read
too: Hub datasets often store the column so). Calls and answers may carry ids (``id``,
``tool_call_id``); where they carry none, an answer goes to the oldest unanswered call of its
name and the ids made up for it are not written back. Columns beyond these are kept in the
request's ``metadata`` (``hf-messages.<column>``) and written back.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ._errors import DecodeError
from ._message import Message
from ._parts import ContentPart, Image, Native, ProviderEcho, Text, Thinking, ToolResult, ToolUse, UrlSource
from ._read import expect, join, optional, require
from ._request import Request, Tool
from ._sniff import DISTINCTIVE, Sniffed
from ._tuning import TuningExample, TuningFile, unweighted
from ._warnings import WarningSink
from ._wire import dumps, loads

NAME = "hf-messages"
"""The format's name for ``--from`` / ``--to``, and the provider key of what only it writes back."""
_COLUMNS = ("messages", "prompt", "completion", "chosen", "rejected", "tools")
_ROLES = ("system", "developer", "user", "assistant", "tool")
_KNOWN = frozenset({"role", "content", "thinking", "tool_calls", "name", "tool_call_id"})
_MADE_UP = {"made_up_id": True}
_SETTING = "this conversational format holds messages and tools only"


def sniff(line: Mapping[str, Any]) -> Sniffed | None:
    """Preference and prompt-completion columns are this format's alone; ``messages`` fit it when
    a sign only it has shows (arguments as an object, a tool answer by name, ``thinking``)."""
    if isinstance(line.get("prompt"), list) and ("chosen" in line or "completion" in line):
        return Sniffed("request", DISTINCTIVE, "has 'prompt' with 'chosen' or 'completion' (a TRL conversational line)")
    messages = line.get("messages")
    if "model" in line or not isinstance(messages, list):
        return None
    signs = sorted({sign for message in messages[:32] if isinstance(message, Mapping) for sign in _signs(message)})
    if signs:
        return Sniffed("request", DISTINCTIVE, f"has {', '.join(signs)} (a chat-template conversation)")
    return Sniffed("request", 1.0, "has 'messages' and no 'model' (a chat-template conversation)")


def _signs(message: Mapping[str, Any]) -> Iterator[str]:
    if "thinking" in message:
        yield "'thinking'"
    if message.get("role") == "tool" and "tool_call_id" not in message:
        yield "a tool answer by name"
    content = message.get("content")
    blocks = content if isinstance(content, list) else ()
    if any(isinstance(block, Mapping) and block.get("type") == "image" for block in blocks):
        yield "'image' content blocks"
    calls = message.get("tool_calls")
    for call in calls if isinstance(calls, list) else ():
        function = call.get("function") if isinstance(call, Mapping) else None
        if isinstance(function, Mapping) and isinstance(function.get("arguments"), Mapping):
            yield "call arguments as an object"


# -- reading ------------------------------------------------------------------------------------


def decode(line: Mapping[str, Any]) -> TuningExample:
    tools = _tools(line.get("tools"))
    metadata = {f"{NAME}.{key}": value for key, value in line.items() if key not in _COLUMNS}
    if "messages" in line:
        request = Request(messages=_messages(line, "messages"), tools=tools, metadata=metadata)
        return TuningExample(request)
    prompt = _messages(line, "prompt")
    request = Request(messages=prompt, tools=tools, metadata=metadata)
    if "completion" in line:
        return TuningExample(request.model_copy(update={"messages": [*prompt, *_messages(line, "completion")]}))
    return TuningExample(request, chosen=tuple(_messages(line, "chosen")), rejected=tuple(_messages(line, "rejected")))


def _tools(value: Any) -> list[Tool]:
    if value is None:
        return []
    if isinstance(value, str):
        try:
            value = loads(value)
        except ValueError:
            raise DecodeError(NAME, "tools", "a string that is not JSON") from None
    tools = []
    for index, item in enumerate(expect(value, list, "tools")):
        at = f"tools[{index}]"
        function = require(expect(item, dict, at), "function", dict, at)
        schema = optional(function, "parameters", dict, f"{at}.function") or {"type": "object", "properties": {}}
        description = optional(function, "description", str, f"{at}.function")
        name = require(function, "name", str, f"{at}.function")
        tools.append(Tool(name=name, description=description, input_schema=schema))
    return tools


def _messages(line: Mapping[str, Any], column: str) -> list[Message]:
    calls: dict[str, list[str]] = {}  # a tool's name -> ids of its unanswered calls, oldest first
    messages = []
    for index, item in enumerate(require(line, column, list, "")):
        at = f"{column}[{index}]"
        message = expect(item, dict, at)
        role = require(message, "role", str, at)
        if role not in _ROLES:
            raise DecodeError(NAME, f"{at}.role", f"expected one of {', '.join(_ROLES)}, got {role!r}")
        parts = _answer(message, at, calls) if role == "tool" else _parts(message, at, calls)
        name = optional(message, "name", str, at) if role != "tool" else None
        extras = {key: value for key, value in message.items() if key not in _KNOWN}
        echoes = [ProviderEcho(provider=NAME, data={"wire": extras}, unmapped=[f"wire.{key}" for key in extras])]
        messages.append(Message(role=role, parts=parts, name=name, provider_echoes=echoes if extras else []))
    return messages


def _parts(message: Mapping[str, Any], at: str, calls: dict[str, list[str]]) -> list[ContentPart]:
    parts: list[ContentPart] = []
    if "thinking" in message:
        parts.append(Thinking(require(message, "thinking", str, at)))
    parts.extend(_content(message.get("content"), f"{at}.content"))
    for number, item in enumerate(message.get("tool_calls") or ()):
        where = f"{at}.tool_calls[{number}]"
        function = require(expect(item, dict, where), "function", dict, where)
        name = require(function, "name", str, f"{where}.function")
        arguments = function.get("arguments") or {}
        if isinstance(arguments, str):
            try:
                arguments = loads(arguments) if arguments.strip() else {}
            except ValueError:
                raise DecodeError(NAME, f"{where}.function.arguments", "a string that is not JSON") from None
        given = item.get("id")
        call_id = given if isinstance(given, str) else f"call_{at.replace('[', '_').replace(']', '')}_{number}"
        echoes = [] if isinstance(given, str) else [ProviderEcho(provider=NAME, data=_MADE_UP)]
        arguments = expect(arguments, dict, f"{where}.function.arguments")
        parts.append(ToolUse(id=call_id, name=name, input=arguments, provider_echoes=echoes))
        calls.setdefault(name, []).append(call_id)
    return parts


def _content(content: Any, at: str) -> list[ContentPart]:
    if content is None or content == "":
        return []
    if isinstance(content, str):
        return [Text(content)]
    parts: list[ContentPart] = []
    for index, item in enumerate(expect(content, list, at)):
        block = expect(item, dict, join(at, index))
        kind = block.get("type")
        if kind == "text":
            parts.append(Text(require(block, "text", str, join(at, index))))
        elif kind == "image" and isinstance(block.get("url"), str) and len(block) == 2:
            parts.append(Image(UrlSource(url=block["url"])))
        else:  # another kind of block (an image by path, audio, ...): kept whole, written back only here
            parts.append(Native(provider=NAME, data=dict(block)))
    return parts


def _answer(message: Mapping[str, Any], at: str, calls: dict[str, list[str]]) -> list[ContentPart]:
    given = optional(message, "tool_call_id", str, at)
    name = optional(message, "name", str, at)
    raw = message.get("content")
    content: str | list[ContentPart] = raw if isinstance(raw, str) else _content(raw, f"{at}.content")
    if given is not None:
        called = next((n for n, ids in calls.items() if given in ids), None)
        if called is not None:
            calls[called].remove(given)
        return [ToolResult(tool_use_id=given, name=name or called or "", content=content)]
    name = require(message, "name", str, at)
    waiting = calls.get(name) or []
    call_id = waiting.pop(0) if waiting else f"call_{name}"
    echoes = [ProviderEcho(provider=NAME, data=_MADE_UP)]
    return [ToolResult(tool_use_id=call_id, name=name, content=content, provider_echoes=echoes)]


# -- writing ------------------------------------------------------------------------------------


def encode(example: TuningExample, out: WarningSink) -> dict[str, Any]:
    unweighted(example, out, "this conversational format has no weights: every assistant turn is trained on")
    request = example.request
    for name in _settings(request):
        out.unsupported(name, name, _SETTING)
    for provider, options in request.provider_options.items():
        for key in options:
            if not key.startswith("_"):  # a codec's own flags (how its wire spelt a field) carry no setting
                out.unsupported(f"provider_options.{provider}.{key}", key, _SETTING)
    line: dict[str, Any] = {}
    if example.chosen is None:
        line["messages"] = _write_messages(request.messages, "messages", out)
    else:
        line["prompt"] = _write_messages(request.messages, "messages", out)
        line["chosen"] = _write_messages(example.chosen, "chosen", out)
        line["rejected"] = _write_messages(example.rejected or (), "rejected", out)
    tools = [_write_tool(tool, f"tools[{index}]", out) for index, tool in enumerate(request.tools)]
    if any(tools):
        line["tools"] = [tool for tool in tools if tool]
    prefix = f"{NAME}."
    return {**line, **{key[len(prefix) :]: value for key, value in request.metadata.items() if key.startswith(prefix)}}


def _settings(request: Request) -> Iterator[str]:
    defaults = Request()
    for name in Request.model_fields:
        held = name in ("model", "messages", "metadata", "tools", "provider_options")
        if not held and getattr(request, name) != getattr(defaults, name):
            yield name


def _write_tool(tool: Any, at: str, out: WarningSink) -> dict[str, Any] | None:
    if not isinstance(tool, Tool):
        out.unsupported(at, "native_tool", "a vendor's own tool has no place in a conversational dataset")
        return None
    function: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        function["description"] = tool.description
    function["parameters"] = tool.input_schema
    return {"type": "function", "function": function}


def _write_messages(messages: Any, column: str, out: WarningSink) -> list[dict[str, Any]]:
    written: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        at = f"{column}[{index}]"
        results = [part for part in message.parts if isinstance(part, ToolResult)]
        rest = [(number, part) for number, part in enumerate(message.parts) if not isinstance(part, ToolResult)]
        written.extend(_write_answer(part, f"{at}.parts[{message.parts.index(part)}]", out) for part in results)
        if rest or not results:
            turn = _write_turn(message.role if message.role != "tool" else "user", rest, at, out)
            written.append({**turn, "name": message.name} if message.name is not None else turn)
        if message.id is not None:
            out.unsupported(f"{at}.id", "message_id", "this conversational format's messages carry no id")
        extras = _own_extras(message)
        if extras and written:
            written[-1] = {**written[-1], **extras}
    return written


def _own_extras(message: Message) -> dict[str, Any]:
    """The message keys this format read and kept (its own echo), to write back."""
    for echo in message.provider_echoes:
        wire = echo.data.get("wire")
        if echo.provider == NAME and isinstance(wire, dict):
            return dict(wire)
    return {}


def _write_turn(role: str, parts: list[tuple[int, ContentPart]], at: str, out: WarningSink) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    thinking: list[str] = []
    calls: list[dict[str, Any]] = []
    for number, part in parts:
        where = f"{at}.parts[{number}]"
        if isinstance(part, Text):
            content.append({"type": "text", "text": part.text})
        elif isinstance(part, Image) and isinstance(part.source, UrlSource):
            content.append({"type": "image", "url": part.source.url})
        elif isinstance(part, Thinking):
            thinking.append(part.text)
        elif isinstance(part, ToolUse):
            call: dict[str, Any] = {"type": "function", "function": {"name": part.name, "arguments": part.input}}
            calls.append(call if _made_up(part) else {"id": part.id, **call})
        elif isinstance(part, Native) and part.provider == NAME:
            content.append(dict(part.data))
        else:
            out.lossy(where, part.type, f"this conversational format has no place for a {part.type} part")
    turn: dict[str, Any] = {"role": role}
    if content:
        only_text = len(content) == 1 and content[0].get("type") == "text"
        turn["content"] = content[0]["text"] if only_text else content
    if thinking:
        turn["thinking"] = "".join(thinking)
    if calls:
        turn["tool_calls"] = calls
    return turn


def _write_answer(part: ToolResult, at: str, out: WarningSink) -> dict[str, Any]:
    if part.is_error:
        out.lossy(f"{at}.is_error", "tool_result", "a tool answer here has no error flag: sent as a plain answer")
    content = part.content if isinstance(part.content, str) else _answer_content(part.content, f"{at}.content", out)
    answer: dict[str, Any] = {"role": "tool", "name": part.name, "content": content}
    return answer if _made_up(part) else {**answer, "tool_call_id": part.tool_use_id}


def _answer_content(content: list[ContentPart] | dict[str, Any], at: str, out: WarningSink) -> Any:
    """A tool answer's parts as content blocks (a JSON object answer as its JSON text)."""
    if isinstance(content, dict):
        return dumps(content)
    blocks: list[dict[str, Any]] = []
    for index, part in enumerate(content):
        if isinstance(part, Text):
            blocks.append({"type": "text", "text": part.text})
        elif isinstance(part, Native) and part.provider == NAME:
            blocks.append(dict(part.data))
        else:
            out.lossy(join(at, index), part.type, "a tool answer here holds text and this format's own blocks only")
    return blocks


def _made_up(part: ToolUse | ToolResult) -> bool:
    return any(echo.provider == NAME and echo.data == _MADE_UP for echo in part.provider_echoes)


HF_MESSAGES = TuningFile(sniff, decode, encode, pairs=True)
"""The format as the CLI reads and writes it, like a codec's tuning file."""
