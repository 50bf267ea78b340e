"""Messages: a role and its parts, with constructors that keep hand-written transcripts short."""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

from pydantic import Field

from ._model import empty_list
from ._parts import ContentPart, Text, _Echoing

Role: TypeAlias = Literal["system", "developer", "user", "assistant", "tool"]
ROLES: tuple[Role, ...] = ("system", "developer", "user", "assistant", "tool")


def _parts(content: tuple[str | ContentPart, ...]) -> list[ContentPart]:
    return [Text(text=item) if isinstance(item, str) else item for item in content]


class Message(_Echoing):
    """One turn. The system prompt is a ``system`` (or ``developer``) message where it stands.

    ToolResult parts may sit in ``tool`` or ``user`` messages: codecs accept both and keep the
    wire's choice. ``id`` and ``name`` are the wire's message id and participant name, if any.
    """

    role: Role
    """``system``, ``developer``, ``user``, ``assistant`` or ``tool``."""
    parts: list[ContentPart] = Field(default_factory=empty_list)
    """The content, in order: text, media, thinking, tool calls and results."""
    id: str | None = None
    """The wire's id of the message, where it has one."""
    name: str | None = None
    """The participant's name, where the wire has one."""

    @classmethod
    def system(cls, *content: str | ContentPart, **kw: Any) -> Message:
        return cls(role="system", parts=_parts(content), **kw)

    @classmethod
    def developer(cls, *content: str | ContentPart, **kw: Any) -> Message:
        return cls(role="developer", parts=_parts(content), **kw)

    @classmethod
    def user(cls, *content: str | ContentPart, **kw: Any) -> Message:
        return cls(role="user", parts=_parts(content), **kw)

    @classmethod
    def assistant(cls, *content: str | ContentPart, **kw: Any) -> Message:
        return cls(role="assistant", parts=_parts(content), **kw)

    @classmethod
    def tool(cls, *content: ContentPart, **kw: Any) -> Message:
        """A message of tool results (ToolResult parts)."""
        return cls(role="tool", parts=list(content), **kw)

    @property
    def text(self) -> str:
        """The message's text parts joined: handy for display, never used by codecs."""
        return "".join(part.text for part in self.parts if isinstance(part, Text))
