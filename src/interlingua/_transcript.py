"""A transcript on disk: messages plus the host's metadata, in a versioned format.

Two forms hold the same value. JSON is one object; JSONL is a header line followed by one
message per line, so a long conversation can be appended to and read back in constant memory.
Version 1 is frozen: files written now load in every later release (a test loads a committed
v1 file), and a reader refuses a version it does not know rather than guess.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, Literal, TypeVar

from pydantic import Field, ValidationError, model_validator

from ._cost import Cost
from ._errors import DecodeError
from ._message import Message
from ._model import IRModel, JsonObject, _Tagged, empty_dict, empty_list
from ._read import join
from ._request import Request
from ._response import Response, Usage
from ._wire import dumps, loads

if TYPE_CHECKING:
    from .pricing import PriceTable

FORMAT: Final = "interlingua.transcript"
USAGE_ENTRY: Final = "interlingua.usage"
"""The host entry kind :meth:`Transcript.add_response` records a turn's usage and cost under."""
VERSION: Final = 1
_WHO = "transcript"


class HostEntry(_Tagged):
    """Something the host recorded that is not a model turn ("user interrupted", "context
    compacted", "approval granted"). It stays in the transcript, in order with the messages
    (``position`` = how many messages come before it), and never reaches a vendor: requests
    carry messages only."""

    type: Literal["host_entry"] = "host_entry"
    """The entry's tag in IR JSON."""
    kind: str
    """What happened, in the host's words (``"user_interrupted"``)."""
    data: JsonObject = Field(default_factory=empty_dict)
    """The host's data about it."""
    at: datetime | None = None
    """When it happened, where the host knows."""
    position: int = Field(default=0, ge=0)
    """How many messages came before it: where it stands in the conversation."""


class Transcript(IRModel):
    """A conversation kept by a host: what it replays to any vendor with :meth:`request`.

    ``metadata`` is the host's own (a session id, a title): it is stored with the transcript
    and never sent to a vendor. Vendor round-trip data lives on the parts (``provider_echoes``).
    """

    format: Literal["interlingua.transcript"] = FORMAT
    """Names the file format: always ``interlingua.transcript``."""
    version: Literal[1] = VERSION
    """The format's version."""
    metadata: JsonObject = Field(default_factory=empty_dict)
    """The host's data about the whole conversation."""
    messages: list[Message] = Field(default_factory=empty_list)
    """The model turns, in order."""
    entries: list[HostEntry] = Field(default_factory=empty_list)
    """What the host recorded between turns (``HostEntry``), by position."""

    @model_validator(mode="after")
    def _entries_in_order(self) -> Transcript:
        positions = [entry.position for entry in self.entries]
        if positions != sorted(positions) or (positions and positions[-1] > len(self.messages)):
            raise ValueError("host entries must be in order, each at most at the number of messages")
        return self

    def log(self, kind: str, data: JsonObject | None = None, *, at: datetime | None = None) -> Transcript:
        """A new transcript with a host entry after the last message."""
        entry = HostEntry(kind=kind, data=data or {}, at=at, position=len(self.messages))
        return self.model_copy(update={"entries": [*self.entries, entry]})

    def add_response(
        self, response: Response, *, request: Request | None = None, prices: PriceTable | None = None
    ) -> Transcript:
        """A new transcript with the answer's message, and a ``interlingua.usage`` host entry
        holding what the turn used and cost: the vendor's reported cost, else an estimate from
        ``prices`` (the bundled table by default); no cost when neither is known.

        ``request``: the request the answer was made for. Its system prompt and tools are then
        recorded (as a digest, ``ProviderEcho.prefix``) on each echo bound to its model, since a
        vendor may bind signed reasoning to them: an encoder withholds a block whose prefix has
        changed from a model that refuses it, instead of sending it to be refused."""
        cost = response.cost
        if cost is None and response.model is not None:
            from .pricing import estimate

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an unknown price is recorded as no cost
                cost = estimate(response.usage, response.model, prices)
        data: JsonObject = {"model": response.model, "usage": response.usage.to_json_dict()}
        if cost is not None:
            data["cost"] = cost.to_json_dict()
        message = response.message
        if request is not None:
            from ._binding import bind

            message = bind(message, request)
        grown = self.append(message)
        return grown.log(USAGE_ENTRY, data)

    def total_usage(self) -> Usage:
        """The sum of every recorded turn's usage (see :meth:`add_response`)."""
        return sum((Usage.model_validate(e.data["usage"]) for e in self._usage_entries()), Usage())

    def total_cost(self) -> Cost | None:
        """The sum of every recorded turn's cost; None when any turn's cost is unknown (a
        partial sum would read as the whole bill), with an ``UnknownPriceWarning`` naming the
        models of those turns (``interlingua.pricing``: never a silent None). None without a
        warning when no turn was recorded."""
        entries = self._usage_entries()
        if not entries:
            return None
        unpriced = [e for e in entries if "cost" not in e.data]
        if unpriced:
            from .pricing import UnknownPriceWarning

            names = sorted({str(e.data.get("model")) for e in unpriced})
            why = f"{len(unpriced)} of {len(entries)} recorded turns have no cost (no price for {', '.join(names)})"
            warnings.warn(UnknownPriceWarning(why, names[0] if len(names) == 1 else None), stacklevel=2)
            return None
        return sum((Cost.model_validate(e.data["cost"]) for e in entries), Cost())

    def _usage_entries(self) -> list[HostEntry]:
        return [entry for entry in self.entries if entry.kind == USAGE_ENTRY]

    def items(self) -> Iterator[Message | HostEntry]:
        """Messages and host entries, interleaved in the order they were recorded."""
        entries = iter(self.entries)
        entry = next(entries, None)
        for i, message in enumerate(self.messages):
            while entry is not None and entry.position <= i:
                yield entry
                entry = next(entries, None)
            yield message
        while entry is not None:
            yield entry
            entry = next(entries, None)

    def request(self, model: str | None = None, **settings: Any) -> Request:
        """A Request replaying this conversation (messages only: host entries stay here);
        ``settings`` are any other Request fields."""
        return Request(model=model, messages=list(self.messages), **settings)

    @classmethod
    def of(cls, messages: Iterable[Message] | Request, **metadata: Any) -> Transcript:
        """A transcript of these messages (or of a request's messages)."""
        items = messages.messages if isinstance(messages, Request) else list(messages)
        return cls(messages=items, metadata=metadata)

    @classmethod
    def from_log(cls, name: str, data: Any, **metadata: Any) -> Transcript:
        """The conversation a framework or tracer logged (JSON text or the parsed value), read as
        the log format ``name`` (``interlingua.logs.formats()``: ``otel-genai``, ``pydantic-ai``,
        ``langchain``, ``ai-sdk`` and those the installed codecs add). What reading lost is in
        ``interlingua.logs.read(name, data).warnings``."""
        from .logs import read

        imported = read(name, data)
        if imported.request.model is not None:
            metadata.setdefault("interlingua.model", imported.request.model)
        return cls.of(imported.messages(), **metadata)

    @classmethod
    def from_otel_genai(cls, span: Any, **metadata: Any) -> Transcript:
        """A recorded GenAI span (or its attributes): instructions, input messages, then the answer."""
        return cls.from_log("otel-genai", span, **metadata)

    @classmethod
    def from_pydantic_ai(cls, messages: Any, **metadata: Any) -> Transcript:
        """pydantic-ai's messages: ``ModelMessagesTypeAdapter`` JSON, or the message objects."""
        return cls.from_log("pydantic-ai", messages, **metadata)

    @classmethod
    def from_langchain(cls, messages: Any, **metadata: Any) -> Transcript:
        """LangChain's ``messages_to_dict`` output (v1 content blocks included), or the messages."""
        return cls.from_log("langchain", messages, **metadata)

    @classmethod
    def from_ai_sdk(cls, messages: Any, **metadata: Any) -> Transcript:
        """The AI SDK's ``ModelMessage`` array (or ``{"messages": [...]}``)."""
        return cls.from_log("ai-sdk", messages, **metadata)

    def append(self, *messages: Message) -> Transcript:
        """A new transcript with ``messages`` added (transcripts are frozen, like all IR)."""
        return self.model_copy(update={"messages": [*self.messages, *messages]})

    # -- JSON ---------------------------------------------------------------------------------

    def dumps(self) -> str:
        """The JSON form: one object, defaults left out, keys in a stable order."""
        body = self._header() | {"messages": [m.to_json_dict() for m in self.messages]}
        if self.entries:
            body["entries"] = [entry.to_json_dict() for entry in self.entries]
        return dumps(body)

    @classmethod
    def loads(cls, text: str | bytes) -> Transcript:
        """Read the JSON form. Bad input is a DecodeError naming the JSON path."""
        return cls.from_json_dict(_parse(text, ""))

    @classmethod
    def from_json_dict(cls, data: Any) -> Transcript:
        if not isinstance(data, Mapping):
            raise DecodeError(_WHO, "", f"expected a transcript object, got {type(data).__name__}")
        _check_header(data, "")
        return _validate(cls, data, "")

    # -- JSONL --------------------------------------------------------------------------------

    def dump_lines(self) -> Iterator[str]:
        """The JSONL form, line by line (each without its newline): header, then messages."""
        yield dumps(self._header())
        for item in self.items():
            data = item.to_json_dict()
            if isinstance(item, HostEntry):
                del data["position"]  # a line's place in the file is its position
            yield dumps(data)

    def dumps_jsonl(self) -> str:
        return "".join(line + "\n" for line in self.dump_lines())

    @classmethod
    def load_lines(cls, lines: Iterable[str | bytes]) -> Transcript:
        """Read the JSONL form; blank lines are skipped, errors name the 1-based line."""
        header: Mapping[str, Any] | None = None
        messages: list[Message] = []
        entries: list[HostEntry] = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = f"line {number}"
            data = _parse(line, where)
            if header is None:
                if not isinstance(data, Mapping):
                    raise DecodeError(_WHO, where, "expected the transcript header object")
                _check_header(data, where)
                header = data
                continue
            if isinstance(data, Mapping) and data.get("type") == "host_entry":
                entries.append(_validate(HostEntry, {**data, "position": len(messages)}, where))
            else:
                messages.append(_validate(Message, data, where))
        if header is None:
            raise DecodeError(_WHO, "line 1", "empty file: expected the transcript header")
        empty = _validate(cls, {**header, "messages": []}, "line 1")
        return empty.model_copy(update={"messages": messages, "entries": entries})

    @classmethod
    def loads_jsonl(cls, text: str | bytes) -> Transcript:
        data = text.decode() if isinstance(text, bytes) else text
        return cls.load_lines(data.split("\n"))  # not splitlines: U+2028 may sit inside a JSON string

    # -- files --------------------------------------------------------------------------------

    def dump(self, target: str | Path | IO[str]) -> None:
        """Write to a path (``.jsonl`` picks the line form, anything else JSON) or a text file."""
        if isinstance(target, str | Path):
            path = Path(target)
            with path.open("w", encoding="utf-8") as out:
                if path.suffix == ".jsonl":
                    out.writelines(line + "\n" for line in self.dump_lines())
                else:
                    out.write(self.dumps())
            return
        target.write(self.dumps())

    @classmethod
    def load(cls, source: str | Path | IO[str]) -> Transcript:
        """Read a path (``.jsonl`` is read line by line) or a text file of the JSON form."""
        if isinstance(source, str | Path):
            path = Path(source)
            if path.suffix == ".jsonl":
                with path.open(encoding="utf-8") as lines:
                    return cls.load_lines(lines)
            return cls.loads(path.read_bytes())
        return cls.loads(source.read())

    def _header(self) -> JsonObject:
        header: JsonObject = {"format": FORMAT, "version": VERSION}
        if self.metadata:
            header["metadata"] = dict(sorted(self.metadata.items()))  # deterministic dumps
        return header


def _parse(text: str | bytes, where: str) -> Any:
    try:
        return loads(text)
    except ValueError as err:
        raise DecodeError(_WHO, where, f"not JSON ({err})") from None


def _check_header(data: Mapping[str, Any], where: str) -> None:
    if data.get("format", FORMAT) != FORMAT:
        raise DecodeError(_WHO, _at(where, "format"), f"not an interlingua transcript: {data.get('format')!r}")
    version = data.get("version", VERSION)
    if version != VERSION:
        reason = f"unknown transcript version {version!r}; this release reads {VERSION}"
        raise DecodeError(_WHO, _at(where, "version"), reason)


def _at(where: str, key: str) -> str:
    return f"{where}: {key}" if where else key


_T = TypeVar("_T", bound=IRModel)


def _validate(cls: type[_T], data: Any, where: str) -> _T:
    try:
        return cls.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        raise DecodeError(_WHO, _at(where, validation_path(first["loc"], data)), first["msg"]) from None


def validation_path(loc: tuple[int | str, ...], data: Any) -> str:
    """A pydantic error location as a JSON path into ``data``, without the union-member tags
    pydantic inserts (``parts.1.tool_use.input`` reads ``parts[1].input``)."""
    path = ""
    node = data
    tag_skipped = False
    for key in loc:
        is_tag = isinstance(node, Mapping) and isinstance(key, str) and key not in node and node.get("type") == key
        if is_tag and not tag_skipped:
            tag_skipped = True  # a discriminated union's tag, not a step into the data
            continue
        tag_skipped = False
        path = join(path, key)
        if isinstance(node, Mapping):
            node = node.get(key) if isinstance(key, str) else None
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            node = None
    return path
