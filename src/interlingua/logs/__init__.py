"""Conversations as agent frameworks and tracers log them, read into the IR; and the OpenTelemetry
GenAI message attributes written from it.

Each log format is a :class:`LogFormat`: a reader (the log -> :class:`Imported`: the request the
conversation replays as, the answer where the log records one, and every warning) and a sniffer
for detection. The formats that name no vendor are here (``otel-genai``, ``pydantic-ai``,
``langchain``, ``ai-sdk``); a codec package adds the formats of its vendor's own frameworks through
the ``interlingua.logs`` entry-point group (an entry is a :class:`LogFormat`), as codecs are found.
``Transcript.from_log(name, data)`` and the ``Transcript.from_*`` functions read them; the CLI reads
them with ``--from NAME`` (and detects them).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .._errors import DecodeError, InterlinguaError
from .._request import Request
from .._response import Response
from .._sniff import Sniffed
from .._warnings import Encoded
from .._wire import loads
from ._format import Imported, LogFormat

GROUP = "interlingua.logs"


class UnknownLogFormatError(InterlinguaError, LookupError):
    """No log format has that name; the message lists the known ones."""


def _builtin() -> dict[str, LogFormat]:
    from . import _ai_sdk, _langchain, _otel_genai, _pydantic_ai

    return {f.name: f for f in (_otel_genai.FORMAT, _pydantic_ai.FORMAT, _langchain.FORMAT, _ai_sdk.FORMAT)}


@cache
def _formats() -> dict[str, LogFormat]:
    from importlib.metadata import entry_points

    found = _builtin()
    for entry in entry_points(group=GROUP):
        value = entry.load()
        if isinstance(value, LogFormat):
            found.setdefault(value.name, value)
    return found


def formats() -> list[str]:
    """The names of the known log formats (the built-in ones and the installed codecs')."""
    return sorted(_formats())


def get_format(name: str) -> LogFormat:
    found = _formats().get(name)
    if found is None:
        raise UnknownLogFormatError(f"unknown log format {name!r}; known: {', '.join(formats())}")
    return found


def read(name: str, data: Any) -> Imported:
    """Read a log of format ``name`` (JSON text or bytes, or the parsed value)."""
    if isinstance(data, str | bytes):
        try:
            data = loads(data)
        except ValueError as err:
            raise DecodeError(name, "", f"not JSON ({err})") from None
    return get_format(name).read(data)


def sniff(data: Any) -> list[tuple[str, Sniffed]]:
    """Every log format's claim on ``data``, strongest first."""
    claims: list[tuple[str, Sniffed]] = []
    for name, found in _formats().items():
        try:
            claim = found.sniff(data)
        except Exception:  # a third party's sniffer failing on an odd body makes no claim
            claim = None
        if claim is not None:
            claims.append((name, claim))
    return sorted(claims, key=lambda pair: -pair[1].score)


def encode_otel_genai(request: Request, *, strict: bool = False) -> Encoded:
    """The request as GenAI span attributes (``gen_ai.input.messages`` and the rest, JSON text),
    with a warning for each thing they cannot hold."""
    from ._otel_genai import encode_request

    return encode_request(request, strict=strict)


def encode_otel_genai_response(response: Response, *, strict: bool = False) -> Encoded:
    """The answer as GenAI span attributes (``gen_ai.output.messages``, usage, finish reason)."""
    from ._otel_genai import encode_response

    return encode_response(response, strict=strict)


__all__ = [
    "GROUP",
    "Imported",
    "LogFormat",
    "UnknownLogFormatError",
    "encode_otel_genai",
    "encode_otel_genai_response",
    "formats",
    "get_format",
    "read",
    "sniff",
]
