"""For codecs with a fast path beside their general one: both must decode alike, down to what
``==`` does not compare (number types, which fields were set) and the DecodeError they raise;
and encode alike, down to the order of a body's keys."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from types import ModuleType
from typing import Any

from .._errors import DecodeError
from .._request import Request
from .._warnings import Encoded


def exact_dump(request: Request) -> str:
    """The IR with what ``==`` leaves out: number types and which fields were set, at every level."""
    return json.dumps(request.model_dump(mode="json", exclude_unset=True))


def decode_outcome(run: Callable[[], Any]) -> Any:
    """What a decode gives: its value, or the DecodeError's codec, path and reason."""
    try:
        return run()
    except DecodeError as error:
        return ("DecodeError", error.codec, error.path, error.reason)


def encode_outcome(run: Callable[[], Encoded]) -> tuple[Any, ...]:
    """What an encode gives: the body as JSON text (so the order of keys counts) and the
    warnings, or the error's type and message."""
    try:
        encoded = run()
    except Exception as error:  # the error is the outcome compared
        return type(error), str(error)
    return json.dumps(encoded.body), encoded.warnings


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


@contextmanager
def declining(module: ModuleType, *names: str) -> Iterator[None]:
    """Inside, each of ``module``'s fast readers or writers ``names`` declines (answers None, as
    for a shape it does not take), so everything goes the general way: a ``general_only`` for
    ``assert_decodes_alike``. A name the module lacks is an AttributeError, not a silent pass."""
    kept = {name: getattr(module, name) for name in names}
    try:
        for name in names:
            setattr(module, name, _decline)
        yield
    finally:
        for name, function in kept.items():
            setattr(module, name, function)


def _decline(*args: Any, **kwargs: Any) -> None:
    return None
