"""Path-aware readers for wire JSON: a malformed body fails with DecodeError naming where."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from gc import get_referents, is_tracked
from typing import Any, TypeVar, overload

from ._errors import DecodeError
from ._wire import loads

T = TypeVar("T")

_NAMES: dict[type, str] = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
}


def join(at: str, key: str | int) -> str:
    """``messages[2]`` + ``content`` -> ``messages[2].content``; ints become ``[i]``."""
    if isinstance(key, int):
        return f"{at}[{key}]"
    return f"{at}.{key}" if at else key


def describe(value: object) -> str:
    """How an error names a wrong value's JSON type."""
    if value is None:
        return "null"
    for typ, name in _NAMES.items():
        if type(value) is typ:
            return name
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def expect(value: Any, typ: type[T], at: str) -> T:
    """``value`` if it is a ``typ`` (ints count as floats; bools are not ints), else DecodeError."""
    if isinstance(value, typ) and not (typ is int and isinstance(value, bool)):
        return value
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        return value  # type: ignore[return-value]  # JSON numbers: an int is a valid float
    if typ is dict and isinstance(value, Mapping):
        return value  # type: ignore[return-value]  # any Mapping reads as an object
    raise DecodeError("", at, f"expected {_NAMES.get(typ, typ.__name__)}, got {describe(value)}")


def event_object(codec: str, data: str, at: str) -> dict[str, Any]:
    """A stream event's data as a JSON object; data that is not JSON, or not an object, is
    ``codec``'s DecodeError at the event's path ``at``."""
    try:
        value = loads(data)
    except (ValueError, TypeError) as err:
        raise DecodeError(codec, at, f"data is not JSON ({err})") from None
    return expect(value, dict, at)


def require(obj: Mapping[str, Any], key: str, typ: type[T], at: str) -> T:
    """``obj[key]`` as a ``typ``; a missing key or a wrong type is a DecodeError at ``at.key``."""
    if key not in obj:
        raise DecodeError("", join(at, key), "required field is missing")
    value = obj[key]
    if type(value) is typ:  # the common case, without spelling out the path
        return value
    return expect(value, typ, join(at, key))


@overload
def optional(obj: Mapping[str, Any], key: str, typ: type[T], at: str) -> T | None: ...
@overload
def optional(obj: Mapping[str, Any], key: str, typ: type[T], at: str, default: T) -> T: ...
def optional(obj: Mapping[str, Any], key: str, typ: type[T], at: str, default: T | None = None) -> T | None:
    """``obj[key]`` as a ``typ`` when present and not null, else ``default``."""
    value = obj.get(key)
    if value is None:
        return default
    if type(value) is typ:  # the common case, without spelling out the path
        return value
    return expect(value, typ, join(at, key))


def as_object(value: Any, at: str) -> dict[str, Any]:
    """``value`` as a JSON object (accepting SDK objects with ``model_dump``)."""
    if hasattr(value, "model_dump") and not isinstance(value, Mapping):
        value = value.model_dump(mode="json", exclude_unset=True, by_alias=True)
    return expect(value, dict, at)


def each(obj: Mapping[str, Any], key: str, at: str) -> Iterator[tuple[str, Any]]:
    """(path, item) for each item of the array ``obj[key]``; absent or null means none."""
    items = obj.get(key)
    if items is None:
        return
    where = join(at, key)
    for i, item in enumerate(expect(items, list, where)):
        yield f"{where}[{i}]", item


MAX_DEPTH = 200
"""How deep a wire body may nest: as deep as jiter, the JSON parser interlingua reads vendor
answers with, parses. The stdlib parser builds values about 1000 levels deep, which every walk
over them (a copy, a key check, a serializer) would meet as RecursionError; the vendors' own
parsers refuse far less."""


def check_depth(value: Any, at: str = "") -> None:
    """DecodeError when ``value`` nests objects and arrays deeper than :data:`MAX_DEPTH`.

    Level by level, so the check itself cannot overflow. Each level is one C call
    (``gc.get_referents``: what the level's containers hold); ``gc.is_tracked`` then drops, at C
    speed, whatever cannot hold an object or array (strings, numbers, and the objects CPython
    has seen hold only those: most wire blocks), so only the rest meets the type test and the
    next level. Half the cost or less of filtering every child by type (callgrind, on the
    benchmarks' 40-message bodies: 50-170k instructions, was 160-250k: 4-10% of decode_request,
    was 12-16%)."""
    level = [value]
    depth = 1
    while level:
        if depth > MAX_DEPTH:
            raise DecodeError("", at, f"nested more than {MAX_DEPTH} levels deep")
        level = [held for held in filter(is_tracked, get_referents(*level)) if type(held) in _CONTAINERS]
        depth += 1


_CONTAINERS = frozenset({dict, list})


class decoding:  # used like a function: ``with decoding("acme"):``
    """Name the codec on every DecodeError raised inside, and turn stray lookup and type errors
    into DecodeErrors, so bad input never escapes as a bare KeyError or TypeError.

    Given the ``body`` a decode starts from, it first refuses nesting deeper than
    :data:`MAX_DEPTH` (one place for every codec, where bodies enter).

    A class, not ``@contextmanager``: it wraps every decode call and, in some codecs, every
    stream event, and a generator-based manager costs three times as much to enter and leave."""

    __slots__ = ("body", "codec")

    def __init__(self, codec: str, body: Any = None) -> None:
        self.codec = codec
        self.body = body

    def __enter__(self) -> None:
        body = self.body
        if body is None:
            return
        try:
            if type(body) is dict or type(body) is list:
                check_depth(body)
            elif isinstance(body, Mapping):
                check_depth(dict(body))
        except DecodeError as err:  # raised before ``__exit__`` could name the codec
            raise DecodeError(self.codec, err.path, err.reason) from None

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: object) -> None:
        if isinstance(err, DecodeError):
            if not err.codec:
                raise DecodeError(self.codec, err.path, err.reason) from None
        elif isinstance(err, (KeyError, TypeError, IndexError, AttributeError, ValueError)):
            raise DecodeError(self.codec, "", f"malformed input ({type(err).__name__}: {err})") from err
        elif isinstance(err, RecursionError):  # a value nested deep inside a stream event's data
            raise DecodeError(self.codec, "", f"nested more than {MAX_DEPTH} levels deep") from err


def decode_with(codec: str, fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` under :func:`decoding`."""
    with decoding(codec):
        return fn(*args)
