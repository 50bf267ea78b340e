"""Small wire conversions several codecs need: data URLs, tool-argument JSON, compact JSON."""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import from_json, to_json


def loads(text: str | bytes) -> Any:
    """Parse JSON (jiter, through pydantic-core)."""
    return from_json(text)


def dumps(value: Any) -> str:
    """Compact JSON text, non-ASCII kept as is: how vendors print their own JSON."""
    return to_json(value).decode()


def parse_data_url(url: str) -> tuple[str, str] | None:
    """``data:<media type>;base64,<data>`` -> (media type, base64 data); None for any other URL."""
    if not url.startswith("data:"):
        return None
    header, sep, data = url[5:].partition(",")
    if not sep or not header.endswith(";base64"):
        return None
    return header[: -len(";base64")] or "application/octet-stream", data


def data_url(media_type: str, data: str) -> str:
    """The inverse of :func:`parse_data_url`."""
    return f"data:{media_type};base64,{data}"


def tool_arguments(text: str) -> tuple[dict[str, Any], str | None]:
    """Tool-call arguments text -> (input object, raw text when it is not a JSON object).

    Models sometimes emit malformed arguments; the text is then kept verbatim for ``raw_input``
    rather than guessed at or crashed on.
    """
    if not text.strip():
        return {}, None if text == "" else text
    try:
        value = from_json(text)
    except ValueError:
        return {}, text
    if isinstance(value, dict):
        return value, None
    return {}, text


def arguments_text(input: dict[str, Any], raw_input: str | None) -> str:
    """The arguments string to send: the kept raw text, else ``input`` as compact JSON."""
    if raw_input is not None:
        return raw_input
    return json.dumps(input, ensure_ascii=False, separators=(",", ":"))
