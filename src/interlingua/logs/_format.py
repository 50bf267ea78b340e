"""What a log format is, and what reading one gives."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._message import Message
from .._request import Request
from .._response import Response
from .._sniff import Sniffed
from .._warnings import AnyWarning


@dataclass(frozen=True)
class Imported:
    """A log read into the IR: the conversation as the request that replays it, the answer where
    the log records one apart from it (a span's output messages), and what reading lost."""

    request: Request
    response: Response | None = None
    warnings: list[AnyWarning] = field(default_factory=list)

    def messages(self) -> list[Message]:
        """The whole conversation: the request's messages, then the answer's."""
        return [*self.request.messages, *([self.response.message] if self.response is not None else [])]


@dataclass(frozen=True)
class LogFormat:
    """A log format: its ``name`` (``--from NAME``), its reader and its sniffer (a claim, as a
    codec's ``sniff`` makes one, or None; typed errors only)."""

    name: str
    read: Callable[[Any], Imported]
    sniff: Callable[[Any], Sniffed | None]
    what: str = ""
