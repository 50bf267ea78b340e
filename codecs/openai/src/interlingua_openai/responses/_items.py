"""Items <-> messages, both directions: the Responses API lists items (messages, reasoning,
function calls and their outputs, built-in tool calls); the IR lists messages of parts.

Consecutive assistant-side items (assistant messages, reasoning, function and built-in tool
calls) make one assistant Message; consecutive call outputs make one ``tool`` Message; every
user, system or developer message item is its own Message. The first part decoded from an item
carries the item's own fields in its echo (``item``), which also marks where the item starts, so
encoding splits the parts back into the same items.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, assert_never

from interlingua import (
    Audio,
    AudioOutput,
    ContentPart,
    DecodeError,
    Document,
    Image,
    ImageOutput,
    Message,
    Native,
    RedactedThinking,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    Video,
    WarningSink,
)
from interlingua.kit import dumps, expect, join, maker, optional, require, tool_arguments

from .._shared import PROVIDER
from . import _echo, _fast
from ._parts import (
    canonical_arguments,
    decode_content,
    encode_function_call,
    encode_input_part,
    encode_native_block,
    encode_output_text,
    is_chat_block,
    path,
)
from ._rules import stored_by_id

if TYPE_CHECKING:
    from interlingua.kit import Binding

Item = dict[str, Any]
NAME = "openai-responses"

_call = maker(ToolUse, "id", "name", "input", "raw_input", "provider_echoes")
_run = maker(Message, "role", "parts")
_message = maker(Message, "role", "parts", "provider_echoes")
_text = maker(Text, "text")
_echoed_text = maker(Text, "text", "provider_echoes")
_result = maker(ToolResult, "tool_use_id", "name", "content", "provider_echoes")

# --- decoding: items -> parts -------------------------------------------------------------------
#
# An item's path is ``at``, or the ``i``-th item of the list at ``at``: readers get both and spell
# the path out only for a field that may fail.


def _content_parts(item: Item, at: str, i: int | None = None) -> tuple[list[ContentPart], bool]:
    """A message item's content as parts, and whether it was a bare string."""
    content = item.get("content")
    if isinstance(content, str):
        return [_text(text=content)], True
    where = join(path(at, i), "content")
    if type(content) is not list:
        content = expect(content, list, where)
    return decode_content(content, where), False


def _mark_first(parts: list[ContentPart], data: dict[str, Any]) -> list[ContentPart]:
    """Put the item's echo data on its first part, merged with what that part carries already."""
    first = parts[0]
    own = _echo.own(first)
    parts[0] = first.model_copy(update={"provider_echoes": _echo.make({**own, **data} if own else data)})
    return parts


def decode_assistant_message(item: Item, at: str, model: str | None) -> list[ContentPart]:
    _check_assistant(item, at)
    return _assistant_message(item, at, model, typed=True)


def _check_assistant(item: Item, at: str) -> None:
    """A message that is not the caller's (user, system, developer) is the model's, and says so:
    any other role (``User``, ``user ``, ``hacker``) is refused, never read as the assistant's."""
    role = item.get("role")
    if role != "assistant":
        where = join(at, "role")
        raise DecodeError(NAME, where, f"unknown role {require(item, 'role', str, at)!r}")


def _assistant_message(
    item: Item, at: str, model: str | None, *, typed: bool, after_content: bool = True, i: int | None = None
) -> list[ContentPart]:
    """``typed``: the item said ``type: message``; an EasyInputMessage without it keeps that form
    (with no echo when the item holds nothing else and ``_Messages.after_content`` is False)."""
    content = item.get("content")
    if isinstance(content, str) and not typed and len(item) == 2:  # role and content: the common form
        if not after_content:
            return [_text(text=content)]
        return [_echoed_text(text=content, provider_echoes=_echo.make({"item": {}, "string": True}))]
    data: dict[str, Any] = {"item": _echo.leftover(item, _MESSAGE_KEYS if typed else _EASY_KEYS)}
    if isinstance(content, str):
        if not typed and not after_content and not data["item"]:
            return [_text(text=content)]
        data["string"] = True
        return [_echoed_text(text=content, provider_echoes=_echo.make(data))]
    parts, _ = _content_parts(item, at, i)
    if not parts:
        return [decode_native_item(item, path(at, i), model)]
    return _mark_first(parts, data)


_MESSAGE_KEYS = frozenset({"role", "content"})
_EASY_KEYS = frozenset({"role", "content", "type"})


def decode_reasoning(item: Item, at: str, model: str | None) -> list[ContentPart]:
    """One Thinking part per reasoning text of ``content`` (the raw chain of thought, marked
    ``content``: ResponseReasoningItem.content, which DeepSeek and OpenRouter return), then one per
    summary entry; the first carries the item (id, encrypted_content), the rest say they continue
    it. An item with neither still gives one (empty) Thinking part."""
    texts = _reasoning_texts(item, at)
    own = _echo.leftover(item, _REASONING_KEYS if texts else _SUMMARY_KEYS)
    summary = [(where, expect(entry, dict, where)) for where, entry in _each(item, "summary", at)]
    first: dict[str, Any] = {"item": own} if "summary" in item else {"item": own, "omit": ["summary"]}
    if not summary and not texts:
        return [_echo.build(Thinking, text="", provider_echoes=_echo.make({**first, "empty": True}, model))]
    parts: list[ContentPart] = []
    entries = [(where, entry, True) for where, entry in texts] + [(where, entry, False) for where, entry in summary]
    for i, (where, entry, raw) in enumerate(entries):
        data = dict(first) if i == 0 else {"continues": True}
        if raw:
            data["content"] = True
        _echo.with_extra(data, _echo.leftover(entry, frozenset({"type", "text"})))
        text = require(entry, "text", str, where)
        parts.append(_echo.build(Thinking, text=text, provider_echoes=_echo.make(data, model)))
    return parts


_SUMMARY_KEYS = frozenset({"type", "summary"})
_REASONING_KEYS = frozenset({"type", "summary", "content"})


def _reasoning_texts(item: Item, at: str) -> list[tuple[str, dict[str, Any]]]:
    """The ``reasoning_text`` entries of a reasoning item's ``content``, when it is a list of
    nothing else (openai/types/responses/response_reasoning_item.py ``Content``); otherwise none,
    and ``content`` stays in the item's echo as it came."""
    if not isinstance(item.get("content"), list):
        return []
    entries = _each(item, "content", at)
    if all(_is_reasoning_text(entry) for _, entry in entries):
        return entries
    return []


def _is_reasoning_text(entry: Any) -> bool:
    return isinstance(entry, dict) and entry.get("type") == "reasoning_text" and isinstance(entry.get("text"), str)


def decode_function_call(item: Item, at: str, model: str | None) -> list[ContentPart]:
    return [_function_call(item, at)]


_CALL_KEYS = frozenset({"type", "call_id", "name", "arguments"})


def _function_call(item: Item, at: str, index: int | None = None) -> ToolUse:
    """``index``: the item's place in the list at ``at``, spelled into the path only for an error."""
    call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments")
    if type(call_id) is not str or type(name) is not str or type(arguments) is not str:
        at = at if index is None else f"{at}[{index}]"
        arguments = require(item, "arguments", str, at)  # the readers name what is wrong
        call_id, name = require(item, "call_id", str, at), require(item, "name", str, at)
    value, raw = tool_arguments(arguments)
    # four keys (a ``type``, the three just read): nothing else to keep
    data: dict[str, Any] = {} if len(item) == 4 else {"item": _echo.leftover(item, _CALL_KEYS)}
    if raw is None and canonical_arguments(value) != arguments:
        data["arguments"] = arguments  # the model's own spacing, e.g. encrypted-reasoning-roundtrip
    return _call(id=call_id, name=name, input=value, raw_input=raw, provider_echoes=_echo.make(data) if data else [])


_OUTPUT_KEYS = frozenset({"type", "call_id", "output", "name"})


def decode_function_call_output(item: Item, at: str, names: dict[str, str], i: int | None = None) -> ToolResult:
    call_id, output, name = item.get("call_id"), item.get("output"), item.get("name")
    if type(call_id) is not str:
        call_id = require(item, "call_id", str, path(at, i))
    content: str | list[ContentPart]
    if isinstance(output, str):
        content = output
        if len(item) == 3:  # type, call_id and output: nothing else to keep (most items)
            return _result(tool_use_id=call_id, name=names.get(call_id, ""), content=output, provider_echoes=[])
    else:
        where = join(path(at, i), "output")
        content = decode_content(expect(output, list, where), where)
    own = _echo.leftover(item, _OUTPUT_KEYS)
    data: dict[str, Any] = {"item": own} if own else {}
    if name is not None:
        data["name"] = True
        if type(name) is not str:
            name = expect(name, str, join(path(at, i), "name"))
    return _result(
        tool_use_id=call_id,
        name=name if name is not None else names.get(call_id, ""),
        content=content,
        provider_echoes=_echo.make(data),
    )


def decode_native_item(item: Item, at: str, model: str | None = None) -> Native:
    """A built-in tool call, its output, an item_reference, or an item type this codec does not
    know: carried verbatim (its ``type``, which encoders dispatch on, checked to be a string)."""
    optional(item, "type", str, at)
    return _echo.build(Native, provider=PROVIDER, data=dict(item))


def decode_native_items(item: Item, at: str, model: str | None) -> list[ContentPart]:
    return [decode_native_item(item, at, model)]


OUTPUT_DECODERS: dict[str, Callable[[Item, str, str | None], list[ContentPart]]] = {
    "message": decode_assistant_message,
    "reasoning": decode_reasoning,
    "function_call": decode_function_call,
}


def decode_output_item(item: Any, at: str, model: str | None) -> list[ContentPart]:
    """One output item -> its parts, in order (response output, or assistant-side input items)."""
    item = expect(item, dict, at)
    kind = item.get("type")
    decode = OUTPUT_DECODERS.get(kind) if isinstance(kind, str) else None
    return decode(item, at, model) if decode else decode_native_items(item, at, model)


def _each(item: Item, key: str, at: str) -> list[tuple[str, Any]]:
    values = item.get(key)
    if values is None:
        return []
    where = join(at, key)
    return [(f"{where}[{i}]", value) for i, value in enumerate(expect(values, list, where))]


# --- decoding: the input list -> messages ------------------------------------------------------

_OWN_ROLES = ("user", "system", "developer")


def _is_output_side(kind: str) -> bool:
    """Items the caller sends back as results (go with tool messages), not the model's calls."""
    return kind.endswith("_output") or kind == "mcp_approval_response"


class _Messages:
    """Collects messages while items are read: an assistant or tool run grows until a different
    kind of item arrives.

    ``native_calls``: the call ids of calls kept native (a ``tool_search_call`` the client runs,
    ``execution: "client"``). The client answers one with a ``function_call_output`` (recorded:
    pydantic-ai corpus, test_tool_availability_portability_matrix_R5-T3-native-search, answered
    200), which is kept native beside its call: it answers no function call of the IR, and read
    as a tool result it would be an orphan that every encoder turns into text."""

    __slots__ = ("done", "native_calls", "parts", "role")

    def __init__(self) -> None:
        self.native_calls: set[str] = set()
        self.done: list[Message] = []
        self.role: str | None = None
        self.parts: list[ContentPart] = []

    def start(self, role: str | None, parts: list[ContentPart]) -> list[ContentPart]:
        """Close the open run (it becomes a Message) and open a ``role`` run of ``parts`` (None:
        no run is open, as at the end)."""
        if self.role is not None:
            self.done.append(_run(role=self.role, parts=self.parts))
        self.role, self.parts = role, parts
        return parts

    def run(self, role: str) -> list[ContentPart]:
        """The parts of the open ``role`` run, to append to (a new run when the role changes)."""
        return self.parts if role == self.role else self.start(role, [])

    def after_content(self) -> bool:
        """Whether an assistant text read now follows a part that the writer may leave an output
        message open after (a text or a native content block): plain text would join that
        message, so an EasyInputMessage there keeps its echo. Anywhere else plain text goes as an
        EasyInputMessage anyway (``ItemWriter._text``), and the echo would only cost."""
        return self.role == "assistant" and bool(self.parts) and type(self.parts[-1]) in (Text, Native)

    def own(self, message: Message) -> None:
        self.start(None, [])
        self.done.append(message)


_MESSAGE_ITEM_KEYS = frozenset({"role", "content"})


def decode_user_message(item: Item, at: str, i: int | None = None) -> Message:
    role, content = item.get("role"), item.get("content")
    if isinstance(content, str) and len(item) == 2 and role in _OWN_ROLES:  # most: a string, nothing else
        return _message(role=role, parts=[_text(text=content)], provider_echoes=[])
    if type(role) is not str:
        role = require(item, "role", str, path(at, i))
    parts, bare = _content_parts(item, at, i)
    data: dict[str, Any] = {}
    own = _echo.leftover(item, _MESSAGE_ITEM_KEYS)
    if own:
        data["item"] = own
    if not bare and _string_form(parts):
        data["list"] = True
    if role not in _OWN_ROLES:
        raise DecodeError(NAME, join(path(at, i), "role"), f"unknown role {role!r}")
    return _message(role=role, parts=parts, provider_echoes=_echo.make(data) if data else [])


def decode_input(items: list[Any], at: str, model: str | None) -> list[Message]:
    """The input items -> messages, dispatched on the item's ``type`` (the common kinds first)."""
    out = _Messages()
    names: dict[str, str] = {}
    for i, item in enumerate(items):
        if type(item) is not dict:
            item = expect(item, dict, f"{at}[{i}]")
        kind = item.get("type", "message")
        part: ContentPart
        if kind == "function_call":
            part, role = _function_call(item, at, i), "assistant"
            names[item["call_id"]] = item["name"]  # checked strings now; cheaper than the part's fields
        elif kind == "function_call_output" and out.native_calls and _answers_native(item, out.native_calls):
            out.run("tool").append(decode_native_item(item, f"{at}[{i}]"))  # see _Messages.native_calls
            continue
        elif kind == "function_call_output":
            part, role = decode_function_call_output(item, at, names, i), "tool"
        elif kind == "message" and item.get("role") in _OWN_ROLES:
            out.own(decode_user_message(item, at, i))
            continue
        elif kind == "message" and "type" not in item:  # an EasyInputMessage: the model's text
            _check_assistant(item, path(at, i))
            after = out.role == "assistant" and out.after_content()
            parts = _assistant_message(item, at, model, typed=False, after_content=after, i=i)
            if out.role == "assistant":
                out.parts += parts
            else:
                out.start("assistant", parts)
            continue
        else:
            _decode_other(item, kind, f"{at}[{i}]", model, out, names)
            continue
        if role == out.role:
            out.parts.append(part)  # the run goes on: most items
        else:
            out.start(role, [part])
    out.start(None, [])
    return out.done


def _answers_native(item: Item, calls: set[str]) -> bool:
    call_id = item.get("call_id")
    return type(call_id) is str and call_id in calls


def _decode_other(item: Item, kind: Any, at: str, model: str | None, out: _Messages, names: dict[str, str]) -> None:
    """An item of another type: an output the caller sends back, or assistant-side parts."""
    if isinstance(kind, str) and _is_output_side(kind):
        out.run("tool").append(decode_native_item(item, at))
        return
    parts = decode_output_item(item, at, model)
    for part in parts:
        if isinstance(part, ToolUse):
            names[part.id] = part.name
        elif isinstance(part, Native) and isinstance(call_id := part.data.get("call_id"), str):
            out.native_calls.add(call_id)
    out.run("assistant").extend(parts)


def _string_form(parts: list[ContentPart]) -> bool:
    """Whether a message's parts go as a bare string (the default for one plain text)."""
    if len(parts) != 1:
        return False
    part = parts[0]
    return isinstance(part, Text) and not part.citations and not _echo.own(part) and part.cache_control is None


# --- encoding: messages -> items ---------------------------------------------------------------


def same_model(echo_model: str | None, model: str | None) -> bool:
    """Reasoning is replayed to the model that produced it. OpenAI answers with a dated snapshot
    (``gpt-5-2025-08-07``) of the model asked for (``gpt-5``); both name the same model."""
    if echo_model is None or model is None or echo_model == model:
        return True
    return _undated(echo_model) == _undated(model)


def _undated(model: str) -> str:
    head, sep, tail = model.rpartition("-")
    if sep and len(tail) == 2 and tail.isdigit():
        head2, _, month = head.rpartition("-")
        head3, _, year = head2.rpartition("-")
        if len(month) == 2 and month.isdigit() and len(year) == 4 and year.isdigit():
            return head3
    return model


class ItemWriter:
    """Writes the items of one message after another (``begin`` at each), keeping the open
    message and reasoning items that the following parts of the same message may continue.

    A part's path is ``at``, or the ``j``-th item of the list at ``at``; it is spelled out only
    for a warning (``where``)."""

    __slots__ = (
        "binding",
        "binding_of",
        "index",
        "items",
        "model",
        "open_message",
        "open_reasoning",
        "out",
        "skipping",
        "synthesize",
    )

    def __init__(
        self,
        out: WarningSink,
        model: str | None,
        *,
        synthesize: bool,
        binding_of: Callable[[], Binding] | None = None,
    ) -> None:
        self.out = out
        self.model = model
        self.synthesize = synthesize
        self.binding_of = binding_of  # the catalog's binding facts for the host sent to, read on need
        self.binding: Binding | None = None
        self.items: list[Item] = []
        self.open_message: Item | None = None
        self.open_reasoning: Item | None = None
        self.skipping = False
        self.index = 0

    def begin(self) -> int:
        """Start a message: nothing is open; returns where its items will start."""
        self.open_message = None
        self.open_reasoning = None
        self.skipping = False
        self.index = 0
        return len(self.items)

    def _new_id(self, prefix: str) -> str:
        """An id for an output item OpenAI did not make, from the IR index of its first part, so a
        stream and its final response name the item alike."""
        return f"{prefix}_{self.index}"

    def push(self, item: Item) -> None:
        self.items.append(item)
        self.open_message = None
        self.open_reasoning = None
        self.skipping = False

    def assistant_part(self, part: ContentPart, at: str, j: int | None = None, index: int | None = None) -> None:
        """``part`` at ``at`` (or the ``j``-th of the list there); ``index``: its IR index, for the
        ids of items OpenAI did not make (``j`` when not given)."""
        self.index = index if index is not None else j or 0
        match part:  # the common types first
            case Text():
                self._text(part, at, j)
            case ToolUse():
                item = encode_function_call(part)
                if self.synthesize and "id" not in item:
                    item["id"] = self._new_id("fc")
                self.push(item)
            case ToolResult():
                self.push(encode_function_call_output(part, at, j, self.out))
            case Thinking():
                self._thinking(part, path(at, j))
            case Native():
                self._native(part, path(at, j))
            case RedactedThinking():
                self.out.lossy(
                    path(at, j), "redacted_thinking", "OpenAI has no redacted reasoning; only its own encrypted items"
                )
            case ImageOutput() | AudioOutput():
                self.out.lossy(path(at, j), part.type, "model-made media is not sent back (the tool call item is kept)")
            case Image() | Audio() | Video() | Document():
                self.out.lossy(path(at, j), part.type, "assistant messages carry only text")
            case _:
                assert_never(part)

    def _text(self, part: Text, at: str, j: int | None) -> None:
        if not part.provider_echoes:
            if self.open_message is None and not self.synthesize:  # no OpenAI item behind it
                self.push(_easy_assistant(part, at, j, self.out))
                return
            data: dict[str, Any] = {}
            item = None
        else:
            data = _echo.own(part)
            item = _echo.object_at(data, "item")
        if item is not None and _echo.flag(data, "string"):
            if part.cache_control is not None:
                self.out.lossy(path(at, j), "cache_control", "the Responses API has no cache breakpoints")
            self.push({**item, "role": "assistant", "content": part.text})
            return
        if item is not None or (self.open_message is None and self.synthesize):
            if item is None:
                item = {"id": self._new_id("msg"), "type": "message", "status": "completed"}
            if self.synthesize and "type" not in item:
                item = {"type": "message", **item}
            message: Item = {**item, "role": "assistant", "content": []}
            self.push(message)
            self.open_message = message
        if self.open_message is None:
            self.push(_easy_assistant(part, at, j, self.out))
            return
        self.open_message["content"].append(encode_output_text(part, path(at, j), self.out))

    def _thinking(self, part: Thinking, at: str) -> None:
        data = _echo.own(part)
        item = _echo.object_at(data, "item")
        continues = _echo.flag(data, "continues")
        if part.cache_control is not None:
            self.out.lossy(at, "cache_control", "the Responses API has no cache breakpoints")
        if item is not None:  # an item of this wire, replayed as it came: with an id, or without one
            # and carrying encrypted_content (stateless use, store=false), which the API takes too
            if "encrypted_content" in item and not same_model(_echo.own_model(part), self.model):
                self.out.lossy(at, "thinking", "encrypted reasoning is bound to the model that made it")
                self._push_skip()
                return
            if "encrypted_content" in item and (why := self._withheld(part)) is not None:
                self.out.lossy(at, "thinking", why)
                self._push_skip()
                return
            reasoning = _echo.apply({"type": "reasoning", **item, "summary": []}, {"omit": data.get("omit")})
            self.push(reasoning)
            if _echo.flag(data, "empty"):
                return
            self.open_reasoning = reasoning
        elif continues and self.skipping:
            return
        elif continues and self.open_reasoning is not None:
            pass
        elif self.synthesize:
            reasoning = {"type": "reasoning", "id": self._new_id("rs"), "summary": []}
            self.push(reasoning)
            self.open_reasoning = reasoning
        else:
            self.out.lossy(at, "thinking", "reasoning not made by OpenAI cannot be replayed (no encrypted_content)")
            return
        if _echo.flag(data, "content"):  # raw reasoning text: in ``content``, as it came
            entry = _echo.apply({"type": "reasoning_text", "text": part.text}, {"extra": data.get("extra")})
            self.open_reasoning.setdefault("content", []).append(entry)
            return
        entry = _echo.apply({"type": "summary_text", "text": part.text}, {"extra": data.get("extra")})
        self.open_reasoning["summary"].append(entry)

    def _withheld(self, part: Thinking) -> str | None:
        """Why an encrypted reasoning item is not sent through this host (made through another
        that does not take it: the catalog's ``[hosts]``); None: send it."""
        echo = part.echo(PROVIDER)
        if self.binding_of is None or echo is None or echo.host is None:
            return None
        if self.binding is None:
            self.binding = self.binding_of()
        return self.binding.withheld(echo)

    def _push_skip(self) -> None:
        """Leave out a reasoning item and the summary parts that continue it."""
        self.open_message = None
        self.open_reasoning = None
        self.skipping = True

    def _native(self, part: Native, at: str) -> None:
        if part.provider == PROVIDER and _echo.flag(_echo.own(part), "in_content") and self.open_message is not None:
            self.open_message["content"].append(dict(part.data))
            return
        block = encode_native_block(part, at, self.out)
        if block is not None:
            self.push(block)

    def content_message(self, role: str, parts: list[tuple[int, ContentPart]], at: str, data: dict[str, Any]) -> None:
        """A user, system or developer message item from a run of content parts (``j``, part) of
        the list at ``at``."""
        content: Any
        first = parts[0][1] if len(parts) == 1 else None
        if type(first) is Text and _string_form([first]) and not (data and _echo.flag(data, "list")):
            content = first.text  # a plain text with nothing to warn about: the bare string
        else:
            out = self.out
            content = [b for j, part in parts if (b := encode_input_part(part, at, j, out)) is not None]
        item = _echo.object_at(data, "item") if data else None
        self.push({**item, "role": role, "content": content} if item else {"role": role, "content": content})


def _easy_assistant(part: Text, at: str, j: int | None, out: WarningSink) -> Item:
    """Assistant text with no OpenAI item behind it: an EasyInputMessage (output items need ids
    that only OpenAI hands out)."""
    if part.citations:
        out.lossy(
            join(path(at, j), "citations"), "citations", "annotations need the OpenAI output message they came in"
        )
    if part.cache_control is not None:
        out.lossy(path(at, j), "cache_control", "the Responses API has no cache breakpoints")
    return {"role": "assistant", "content": part.text}


def sends_name(part: ToolResult) -> bool:
    """Whether ``encode_function_call_output`` writes the result's ``name`` (the SDK's optional
    ``FunctionCallOutput.name``): where the item it was decoded from had one, so a round trip
    stays exact; other results answer their call by ``call_id`` alone (``TurnRules.result_names``)."""
    return bool(part.provider_echoes) and _echo.flag(_echo.own(part), "name")


def encode_function_call_output(part: ToolResult, at: str, j: int | None, out: WarningSink) -> Item:
    """A ``function_call_output`` item; ``at`` and ``j`` as for ``ItemWriter``."""
    content = part.content
    output: Any
    if isinstance(content, str):
        output = content
        if not part.provider_echoes and not part.is_error and part.cache_control is None:
            return {"type": "function_call_output", "call_id": part.tool_use_id, "output": output}  # most results
    elif isinstance(content, list):
        listed = f"{path(at, j)}.content"
        output = [b for i, p in enumerate(content) if (b := encode_input_part(p, listed, i, out)) is not None]
    else:
        out.lossy(join(path(at, j), "content"), "tool_result", "a JSON result is sent as its text", action="converted")
        output = dumps(content)
    if part.is_error:
        out.lossy(join(path(at, j), "is_error"), "tool_result", "function_call_output has no error flag")
    if part.cache_control is not None:
        out.lossy(path(at, j), "cache_control", "the Responses API has no cache breakpoints")
    item: Item = {"type": "function_call_output", "call_id": part.tool_use_id, "output": output}
    data = _echo.own(part) if part.provider_echoes else {}
    if data:
        if _echo.flag(data, "name"):
            item["name"] = part.name
        item.update(_echo.object_at(data, "item") or {})
    return item


_CONTENT_PARTS = (Text, Image, Audio, Video, Document)


def encode_messages(
    messages: list[Message], model: str | None, out: WarningSink, binding_of: Callable[[], Binding] | None = None
) -> tuple[str | None, list[Item]]:
    """The ``instructions`` (the first system message that came from there) and the input items;
    ``binding_of``: the binding facts for the host the body goes to (None: not known)."""
    instructions: str | None = None
    writer = ItemWriter(out, model, synthesize=False, binding_of=binding_of)
    for i, message in enumerate(messages):
        common = _fast.encode_message(message)  # the common shapes: a measured second writer
        if common is not None:
            writer.items += common
            continue
        if message.name is not None or message.id is not None:
            out.unsent_message_fields(message, f"messages[{i}]")
        echoed = bool(message.provider_echoes)
        if echoed and instructions is None and _is_instructions(message):
            instructions = _instructions(message, f"messages[{i}]", out)
        else:
            encode_message(message, i, writer, echoed=echoed)
    return instructions, writer.items


def _is_instructions(message: Message) -> bool:
    return message.role in ("system", "developer") and _echo.flag(_echo.own(message), "instructions")


def encode_message(message: Message, i: int, writer: ItemWriter, *, echoed: bool = True) -> None:
    """The items of ``messages[i]``, every part through its own encoder, which spells out the
    part's path only for a warning; ``echoed``: the message may carry an echo of its own."""
    start = writer.begin()
    role, parts = message.role, message.parts
    if role == "assistant":
        if not parts:  # an empty model turn kept in another vendor's history
            why = "an assistant message with no content has no Responses item"
            writer.out.unsupported(f"messages[{i}]", "empty_turn", why)
        at = f"messages[{i}].parts"
        for j, part in enumerate(parts):
            writer.assistant_part(part, at, j)
        if writer.items and writer.items[-1].get("type") == "reasoning":
            _check_reasoning_followed(writer.items, start, f"messages[{i}]", writer.out)
        return
    data = _echo.own(message) if echoed else {}
    _encode_other(role, parts, f"messages[{i}].parts", data, writer)


def _encode_other(role: str, parts: list[ContentPart], at: str, data: dict[str, Any], writer: ItemWriter) -> None:
    """A user, system, developer or tool message: runs of content parts become one message item;
    tool results and anything assistant-side become their own items, in order."""
    tool = role == "tool"
    wire_role = "user" if tool else role
    run: list[tuple[int, ContentPart]] = []
    for j, part in enumerate(parts):
        if type(part) is ToolResult:  # the common case in a tool message: its own item
            if run:
                writer.content_message(wire_role, run, at, data)
                run = []
            writer.push(encode_function_call_output(part, at, j, writer.out))
        elif isinstance(part, _CONTENT_PARTS) or (
            isinstance(part, Native)
            and ((part.provider_echoes and _echo.flag(_echo.own(part), "in_content")) or is_chat_block(part))
        ):
            if tool:
                writer.out.lossy(
                    path(at, j),
                    part.type,
                    "a tool message part that is no tool result goes as user content",
                    action="converted",
                )
            run.append((j, part))
        else:
            if run:
                writer.content_message(wire_role, run, at, data)
                run = []
            writer.assistant_part(part, at, j)
    if run or not parts:
        writer.content_message(wire_role, run, at, data)


def _instructions(message: Message, at: str, out: WarningSink) -> str:
    texts = []
    for j, part in enumerate(message.parts):
        if isinstance(part, Text):
            texts.append(part.text)
        else:
            out.lossy(f"{at}.parts[{j}]", part.type, "instructions hold text only")
    return "".join(texts)


def _check_reasoning_followed(items: list[Item], start: int, at: str, out: WarningSink) -> None:
    """A stored reasoning item sent by id with nothing after it in its turn (``items[start:]``)
    is refused by the API (``_rules``: stored-reasoning-followed), so it is left out; an id-less
    one (encrypted content, store off) stands alone and goes as it is."""
    while len(items) > start and items[-1].get("type") == "reasoning" and stored_by_id(items[-1]):
        items.pop()
        out.lossy(at, "thinking", "a stored reasoning item with no output item after it is rejected by the API")
