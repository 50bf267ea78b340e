"""Deterministic, reversible tool call ids for APIs that restrict them (see ``TurnRules``), and
the stateless id encoding the library and the gateway share (:func:`encode_id`)."""

from __future__ import annotations

import hashlib
import re

from ._model import replace
from ._parts import ContentPart, ToolResult, ToolUse
from ._request import Request

_ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_VALUES = {c: i for i, c in enumerate(_ALPHANUMERIC)}
ENCODED = "ilx0"
"""Marks an encoded id (base 62 of the original's bytes follows)."""


def encode_id(original: str) -> str:
    """``ENCODED`` + base 62 of ``original``'s bytes (a leading 1 byte keeps leading zeros): only
    letters and digits, so every wire's id alphabet holds it, and :func:`decode_id` reads the
    original back from it alone, in any process."""
    number = int.from_bytes(b"\x01" + original.encode("utf-8", "surrogatepass"), "big")
    digits = []
    while number:
        number, rest = divmod(number, 62)
        digits.append(_ALPHANUMERIC[rest])
    return ENCODED + "".join(reversed(digits))


def decode_id(wire_id: str) -> str | None:
    """The original of an :func:`encode_id` result; None for any other id."""
    if not wire_id.startswith(ENCODED) or len(wire_id) == len(ENCODED):
        return None
    number = 0
    for char in wire_id[len(ENCODED) :]:
        value = _VALUES.get(char)
        if value is None:
            return None
        number = number * 62 + value
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    if raw[:1] != b"\x01":
        return None
    try:
        return raw[1:].decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None


class ToolIds:
    """Deterministic, reversible tool call ids for APIs that restrict them.

    An id the target accepts passes unchanged (so recorded traffic round-trips exactly); any
    other id maps to ``prefix`` + :func:`encode_id` of it where the target takes that, which any
    decoder (in any process: a transcript saved and resumed later) reads back with no table.
    Only an id too long for that (a host holding ids to nine characters) maps to ``prefix`` + a
    base-62 digest of it, the same id every time, so a call and its result still match; the
    instance remembers those (bounded), so the codec that owns it gives them back when it
    decodes a body it encoded in this process.
    """

    __slots__ = ("_accept", "_alphabet", "_length", "_made", "_marker", "_prefix", "_seen", "_verdicts")

    _LIMIT = 8192

    def __init__(self, pattern: str, *, length: int, prefix: str = "", alphabet: str = _ALPHANUMERIC) -> None:
        self._accept = re.compile(pattern)
        self._alphabet = alphabet
        self._length = length
        self._prefix = prefix
        self._marker = prefix + ENCODED
        self._seen: dict[str, str] = {}
        # An agent sends its whole transcript again every turn, so the same ids come back on
        # every encode: what the pattern said of each, and the digests made, are kept (bounded).
        self._verdicts: dict[str, bool] = {}
        self._made: dict[str, str] = {}
        probe = self.encode("\n")
        if not self.accepts(probe):
            raise ValueError(f"this id rule maps ids to ids its own pattern rejects ({probe!r} vs {pattern!r})")
        self._seen.clear()

    def accepts(self, tool_id: str) -> bool:
        verdict = self._verdicts.get(tool_id) if type(tool_id) is str else _not_an_id(tool_id)
        if verdict is None:
            verdict = self._accept.fullmatch(tool_id) is not None
            if len(self._verdicts) >= self._LIMIT:
                self._verdicts.clear()
            self._verdicts[tool_id] = verdict
        return verdict

    def accepts_all(self, tool_ids: list[str]) -> bool:
        """``accepts`` of each, answered from the verdicts kept where it can (the turn check
        asks about every call of a transcript at once)."""
        verdicts = self._verdicts
        return all(verdicts.get(tool_id) or self.accepts(tool_id) for tool_id in tool_ids)

    def encode(self, tool_id: str) -> str:
        if self.accepts(tool_id):
            return tool_id
        mapped = self._made.get(tool_id)
        if mapped is None:
            mapped = self._prefix + encode_id(tool_id)
            if not self.accepts(mapped):
                mapped = self._digest(tool_id)
            if len(self._made) >= self._LIMIT:
                self._made.clear()
            self._made[tool_id] = mapped
        if mapped.startswith(self._marker):
            return mapped
        if len(self._seen) >= self._LIMIT:
            self._seen.pop(next(iter(self._seen)))
        self._seen[mapped] = tool_id
        return mapped

    def _digest(self, tool_id: str) -> str:
        digest = int.from_bytes(hashlib.sha256(tool_id.encode("utf-8", "surrogatepass")).digest(), "big")
        size = len(self._alphabet)
        chars = []
        for _ in range(self._length - len(self._prefix)):
            digest, rest = divmod(digest, size)
            chars.append(self._alphabet[rest])
        return self._prefix + "".join(chars)

    def decode(self, wire_id: str) -> str:
        if wire_id.startswith(self._marker):
            original = decode_id(wire_id[len(self._prefix) :])
            if original is not None and not self.accepts(original):
                return original
        return self._seen.get(wire_id, wire_id)

    def restore(self, request: Request) -> Request:
        """``request`` (decoded from a body this mapping encoded) with the caller's ids back on
        its calls and results; the same object when no id needs it."""
        if not any(self.decode(i) != i for m in request.messages for p in m.parts if (i := _tool_id(p)) is not None):
            return request
        messages = [replace(m, parts=[self._restore(p) for p in m.parts]) for m in request.messages]
        return replace(request, messages=messages)

    def _restore(self, part: ContentPart) -> ContentPart:
        tool_id = _tool_id(part)
        original = None if tool_id is None else self.decode(tool_id)
        if original is None or original == tool_id:
            return part
        return replace(part, **{"id" if isinstance(part, ToolUse) else "tool_use_id": original})


def _not_an_id(tool_id: object) -> bool:
    """A call id must be text: the patterns and digests work on strings (a decoder that let a
    bool or a list through would otherwise fail here with a bare TypeError)."""
    from ._errors import EncodeError

    raise EncodeError("", "", f"tool call id {tool_id!r} is not a string")


def _tool_id(part: ContentPart) -> str | None:
    """The call id a call or a result carries; None for any other part."""
    if isinstance(part, ToolUse):
        return part.id
    if isinstance(part, ToolResult):
        return part.tool_use_id
    return None
