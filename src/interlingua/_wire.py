"""Small wire conversions several codecs need: data URLs, tool-argument JSON, compact JSON."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic_core import from_json, to_json


def loads(text: str | bytes) -> Any:
    """Parse JSON (jiter, through pydantic-core)."""
    return from_json(text)


def dumps(value: Any) -> str:
    """Compact JSON text, non-ASCII kept as is: how vendors print their own JSON.

    A lone surrogate (which JSON's ``\\ud800`` escape lets into a decoded string) has no UTF-8
    form; it is kept in the text as is, for :func:`body_bytes` to refuse with its path when the
    body is sent, rather than failing here in the middle of an encode."""
    try:
        return to_json(value).decode()
    except ValueError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def body_bytes(body: Mapping[str, Any], codec: str) -> bytes:
    """The bytes a request body is sent as; EncodeError, naming the path, for a body no vendor
    can read: a lone surrogate (no UTF-8 form) or a NaN or infinite number (no JSON token).

    Costs nothing beyond the serialization on a sound body: the walk that finds the culprit
    runs only when serializing failed, or the text holds the letters of NaN or Infinity."""
    from ._errors import EncodeError

    try:
        content = to_json(body)
    except ValueError as err:  # a lone surrogate, or nesting past the serializer's depth
        raise EncodeError(codec, *(unsendable(body) or ("", str(err)))) from None
    if b"NaN" not in content and b"Infinity" not in content:
        return content
    found = unsendable(body)
    if found is None:
        return content
    raise EncodeError(codec, *found)


def unsendable(value: Any, at: str = "") -> tuple[str, str] | None:
    """(path, reason) of the first value in ``value`` JSON cannot carry to a vendor, else None."""
    stack: list[tuple[str, Any]] = [(at, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and not _utf8(item):
                return where, "a lone surrogate in the text has no UTF-8 form, so no JSON body can carry it"
        elif isinstance(item, float):
            if item != item or item in (_INF, -_INF):
                return where, f"{item} is not a JSON number"
        elif isinstance(item, Mapping):
            for key, child in item.items():
                if isinstance(key, str) and not key.isascii() and not _utf8(key):
                    return f"{where}.{key!r}", "a lone surrogate in the key has no UTF-8 form"
                stack.append((f"{where}.{key}" if where else str(key), child))
        elif isinstance(item, list | tuple):
            stack.extend((f"{where}[{i}]", child) for i, child in enumerate(item))
    return None


_INF = float("inf")


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
    return compact_json(input)


def compact_json(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, at a fraction of the cost.

    pydantic-core's compact JSON is the same text (escapes, key order, separators, big integers,
    ``NaN``/``Infinity`` with ``inf_nan_mode="constants"``) but for some floats: below 1e-4 it
    prints ``0.0000...`` or an ``e-`` exponent where json.dumps writes ``1e-05``, and older
    pydantic-core (2.33, under pydantic 2.11) writes ``1e16`` for ``1e+16``. So a digit followed
    by ``e``, or ``0.0000``, anywhere in its text (a string holding them too), and a lone
    surrogate it cannot encode, leave the text to json.dumps. ``tests/test_compact_json.py``
    holds the two to one text on every pydantic-core CI runs."""
    try:
        printed = to_json(value, inf_nan_mode="constants").decode()
    except ValueError:  # a lone surrogate
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if "0.0000" in printed or _EXPONENT.search(printed):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return printed


_EXPONENT = re.compile(r"\de")
"""A float's exponent as pydantic-core may print it otherwise than json.dumps."""


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
