"""For codecs with a fast path beside their general one: both must decode alike, down to what
``==`` does not compare (number types, which fields were set) and the DecodeError they raise."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from .._errors import DecodeError
from .._request import Request


def exact_dump(request: Request) -> str:
    """The IR with what ``==`` leaves out: number types and which fields were set, at every level."""
    return json.dumps(request.model_dump(mode="json", exclude_unset=True))


def decode_outcome(run: Callable[[], Any]) -> Any:
    """What a decode gives: its value, or the DecodeError's codec, path and reason."""
    try:
        return run()
    except DecodeError as error:
        return ("DecodeError", error.codec, error.path, error.reason)


def assert_decodes_alike(
    decode: Callable[[Any], Request], general_only: Callable[[], AbstractContextManager[Any]], body: Any
) -> Request | None:
    """``decode(body)`` as it runs, and again inside ``general_only()`` (a context that turns the
    fast path off), give the same request or the same error; the request, when there is one."""
    fast = decode_outcome(lambda: decode(body))
    with general_only():
        general = decode_outcome(lambda: decode(body))
    assert fast == general
    if isinstance(fast, Request):
        assert exact_dump(fast) == exact_dump(general)
        return fast
    return None
