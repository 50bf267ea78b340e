"""Small wire conversions several codecs need: data URLs, tool-argument JSON, compact JSON."""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
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
    if not text or text.isspace():
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


def error_body(body: bytes | str) -> Any:
    """An error body as JSON where it is JSON, else its text: vendors and proxies send HTML or
    plain text on some failures, and a decode_error must never crash on them."""
    if not body:
        return None
    try:
        return loads(body)
    except ValueError:
        return body.decode("utf-8", "replace") if isinstance(body, bytes) else body


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait, from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date);
    None when the server said nothing usable."""
    lowered = {k.lower(): v for k, v in headers.items()}
    if (ms := lowered.get("retry-after-ms")) is not None:
        try:
            return max(float(ms) / 1000.0, 0.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    import email.utils  # here: it costs milliseconds at import, and only a retry needs it

    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return max((when - datetime.datetime.now(datetime.UTC)).total_seconds(), 0.0)
