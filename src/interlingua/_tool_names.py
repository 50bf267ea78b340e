"""Tool names a target refuses, sent in a form it takes and read back as given, with no state.

A name outside the target's pattern (``github/search_issues``: no ``/`` on most wires; a leading
digit or a ``-`` where a wire forbids them) goes out with each character the wire refuses
written as ``_x`` and the two lowercase hex digits of each of its UTF-8 bytes
(``github_x2fsearch_issues``), and so does a ``_`` the original has before an ``x``, so the
escapes are the only ``_x`` runs in the result. The name stays readable to the model, and
every decoder turns it back into the original from the name alone (:func:`original_name`), in
any process, with no table: the same way the gateway hands out call ids (``gateway._ids``).

A wire name is read back only when it is exactly the escaped form of what it decodes to, so a
name the target takes and nobody escaped (``box_x1f``) is read as it is; the encoder, for its
part, escapes a name the target takes only when it looks escaped (``tool_x2fa``: it would
otherwise come back as ``tool/a``), so what goes out always comes back as given.

Only a name still too long once escaped (the wires cap names at 64 or 128 characters) cannot
cross statelessly: it goes out cut, with a digest of the original (``_h`` and six base-62
digits) at the end, and this process keeps the original (bounded) to give it back. Two tools
whose names would go out the same are an ``EncodeError`` (:func:`send_names`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable

from ._errors import EncodeError
from ._model import replace
from ._parts import ContentPart, ToolResult, ToolUse
from ._request import Request, Tool, ToolChoice
from ._response import Response
from ._stream import PartStart, StreamEvent

_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_HEX = frozenset("0123456789abcdef")
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_DIGEST = 6
"""Base-62 digits of the digest a cut name ends with (36 bits: two of a request's tools share
one once in ~10^10 pairs, and then the encoder refuses the request, see ``send_names``)."""
_LIMIT = 8192
_CUT: dict[str, str] = {}
"""Cut wire name -> original, for the names no escape fits (this process only, bounded)."""


def escape(name: str, *, hyphen: bool) -> str:
    """``name`` with every character outside ``[A-Za-z0-9_]`` (and ``-`` when ``hyphen``), a
    leading digit or ``-``, and each ``_`` before an ``x`` written as ``_xHH`` per UTF-8 byte."""
    out: list[str] = []
    last = len(name) - 1
    for i, char in enumerate(name):
        plain = char in _WORD or (hyphen and char == "-")
        if plain and char == "_" and i < last and name[i + 1] == "x":
            plain = False
        if plain and i == 0 and (char == "-" or char.isdigit()):
            plain = False
        if plain:
            out.append(char)
        else:
            out.extend(f"_x{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))
    return "".join(out)


def _unescape(wire: str) -> str | None:
    """The text ``wire``'s ``_xHH`` escapes spell; None when it holds none or they are not UTF-8."""
    if "_x" not in wire:
        return None
    raw = bytearray()
    i, end = 0, len(wire)
    while i < end:
        if wire.startswith("_x", i) and i + 4 <= end and wire[i + 2] in _HEX and wire[i + 3] in _HEX:
            raw.append(int(wire[i + 2 : i + 4], 16))
            i += 4
        else:
            raw.extend(wire[i].encode("utf-8", "surrogatepass"))
            i += 1
    try:
        return raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None


def original_name(wire: str) -> str:
    """The name a caller gave for a name on the wire: the original of an escaped name (or of a
    cut one this process sent), else ``wire`` itself. Needs no target: every wire's escapes
    read the same."""
    if "_" not in wire:
        return wire
    cut = _CUT.get(wire)
    if cut is not None:
        return cut
    name = _unescape(wire)
    if name is None or name == wire:
        return wire
    if escape(name, hyphen=True) == wire or escape(name, hyphen=False) == wire:
        return name
    return wire


class ToolNames:
    """A target's tool-name rule (a pattern the whole name must match) and the names it makes."""

    __slots__ = ("_hyphen", "_made", "_max", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = re.compile(pattern)
        self._hyphen = self.pattern.fullmatch("a-b") is not None
        self._max = _longest(self.pattern)
        # An agent sends the same tools every turn: what each name goes out as is kept (bounded).
        self._made: dict[str, str] = {}

    def accepts(self, name: str) -> bool:
        return self.pattern.fullmatch(name) is not None

    def encode(self, name: str) -> str:
        """The name to send for ``name``: itself when the target takes it and it reads back as
        itself; else its escape, cut where it is too long (see the module docstring)."""
        made = self._made.get(name)
        if made is not None:
            return made
        if not name or (self.accepts(name) and original_name(name) == name):
            wire = name
        else:
            wire = escape(name, hyphen=self._hyphen)
            if not self.accepts(wire) and self._max is not None and len(wire) > self._max:
                return _cut(name, wire, self._max)  # not kept here: each cut records its original again
        if len(self._made) >= _LIMIT:
            self._made.clear()
        self._made[name] = wire
        return wire


def _longest(pattern: re.Pattern[str]) -> int | None:
    """The most characters a name may have under ``pattern`` (None: no limit below 4096)."""
    if pattern.fullmatch("a" * 4096):
        return None
    low, high = 0, 4096
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if pattern.fullmatch("a" * middle) else (low, middle)
    return low


def _cut(name: str, wire: str, limit: int) -> str:
    """``wire`` cut to ``limit`` with ``_h`` and a digest of ``name`` at the end; remembered."""
    number = int.from_bytes(hashlib.sha256(name.encode("utf-8", "surrogatepass")).digest()[:8], "big")
    digits = []
    for _ in range(_DIGEST):
        number, rest = divmod(number, 62)
        digits.append(_DIGITS[rest])
    cut = wire[: limit - _DIGEST - 2] + "_h" + "".join(digits)
    if len(_CUT) >= _LIMIT:
        _CUT.pop(next(iter(_CUT)))
    _CUT[cut] = name
    return cut


def send_names(request: Request, names: ToolNames, *, codec: str, parts: bool = True) -> Request:
    """``request`` with every tool name the target refuses in the form it takes: the tools, the
    forced tool, and the names on calls and results (the same object when none needs it). Two
    tools whose names go out the same are an EncodeError at the second. ``parts=False``: only a
    tool's or the forced tool's name is looked at (the caller's own walk reads the names on the
    calls and results: :func:`send_part_names`); when one goes out otherwise, every name does."""
    sent: dict[str, tuple[int, str]] = {}
    for i, tool in enumerate(request.tools):
        if type(tool) is not Tool:
            continue
        wire = names.encode(tool.name)
        first = sent.setdefault(wire, (i, tool.name))
        if first[1] != tool.name:
            why = f"{tool.name!r} and {first[1]!r} (tools[{first[0]}]) would both be sent as {wire!r}"
            raise EncodeError(codec, f"tools[{i}].name", why)
    return send_part_names(request, names, _names_in(request) if parts else _tool_names_in(request))


def send_part_names(request: Request, names: ToolNames, part_names: Iterable[str]) -> Request:
    """The rest of ``send_names(..., parts=False)`` where it left ``request`` as it was:
    ``part_names`` are the names on its calls and results (as the caller's walk read them);
    when one goes out otherwise, every name does (the same object when none needs it)."""
    encode = names.encode
    if any(encode(name) != name for name in part_names):
        return _renamed(request, encode)
    return request


def _tool_names_in(request: Request) -> set[str]:
    """The names of ``request``'s tools and of its forced tool."""
    names = {tool.name for tool in request.tools if type(tool) is Tool}
    if isinstance(request.tool_choice, ToolChoice):
        names.add(request.tool_choice.name)
    return names


def _names_in(request: Request) -> set[str]:
    """Every tool name ``request`` holds: its tools', the forced tool's, its calls' and results'."""
    names = _tool_names_in(request)
    for message in request.messages:
        for part in message.parts:
            kind = type(part)
            if kind is ToolUse or kind is ToolResult:
                names.add(part.name)  # type: ignore[union-attr,arg-type]  # kind says so
    return names


def _rename_part(part: ContentPart, rename: Callable[[str], str]) -> ContentPart:
    if isinstance(part, (ToolUse, ToolResult)):
        name = rename(part.name)
        if name != part.name:
            return replace(part, name=name)
    return part


def _renamed(request: Request, rename: Callable[[str], str]) -> Request:
    """``request`` with ``rename`` applied to every tool name in it (new objects only where one
    changed)."""
    tools = [
        replace(tool, name=rename(tool.name)) if type(tool) is Tool and rename(tool.name) != tool.name else tool
        for tool in request.tools
    ]
    choice = request.tool_choice
    if isinstance(choice, ToolChoice) and rename(choice.name) != choice.name:
        choice = ToolChoice(name=rename(choice.name))
    messages = []
    for message in request.messages:
        parts = [_rename_part(p, rename) for p in message.parts]
        changed = any(new is not old for new, old in zip(parts, message.parts, strict=True))
        messages.append(replace(message, parts=parts) if changed else message)
    return replace(request, tools=tools, tool_choice=choice, messages=messages)


def _read_back(name: str) -> bool:
    """Whether a decoded name may be one this module made (the cheap test before the real one)."""
    return "_x" in name or "_h" in name


def restore_request(request: Request) -> Request:
    """A decoded request with the original of every name an encoder made (the same object when
    it holds none)."""
    if not any(_read_back(n) and original_name(n) != n for n in _names_in(request)):
        return request
    return _renamed(request, original_name)


def restore_response(response: Response) -> Response:
    """A decoded answer with the original names on its calls."""
    parts = response.message.parts
    if not any(type(p) is ToolUse and _read_back(p.name) for p in parts):
        return response
    renamed = [_rename_part(p, original_name) for p in parts]
    if all(new is old for new, old in zip(renamed, parts, strict=True)):
        return response
    return replace(response, message=replace(response.message, parts=renamed))


def restore_event(event: StreamEvent) -> StreamEvent:
    """A decoded stream event with the original name on the call it opens."""
    if type(event) is PartStart and type(event.part) is ToolUse and _read_back(event.part.name):
        name = original_name(event.part.name)
        if name != event.part.name:
            return PartStart(event.index, replace(event.part, name=name))
    return event
