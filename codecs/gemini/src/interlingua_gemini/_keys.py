"""Key spelling, both directions: snake_case wire keys read as camelCase, and written back.

The Gemini API reads proto JSON, which accepts a field in either spelling, and real clients mix
them in one body (``function_call`` beside ``thoughtSignature``: see the real fixture
``stream-json-array-function-call-turn2``). The codec reads camelCase only; ``normalize`` turns a
body into camelCase and lists where it found snake_case keys, ``respell`` puts them back, so a
decoded body re-encodes to the very same keys.

Walking a whole body costs more than decoding it, and contents are nearly always camelCase (the
snake_case keys of real clients sit in tools and settings: ``parameters_json_schema``,
``thinking_config``). So the request decoder camelCases all but the contents, reads the contents
as camelCase, and calls ``check_camel`` on what it keeps from them unread; a snake_case key there
raises ``SnakeCase`` and the whole body goes through ``normalize``.
"""

from __future__ import annotations

import itertools
from typing import Any

Path = list[str | int]

OPAQUE = frozenset(
    {"args", "response", "parameters", "parametersJsonSchema", "responseSchema", "responseJsonSchema", "labels"}
)
"""Keys whose values are user data (tool arguments, JSON schemas, labels): never respelled."""


class SnakeCase(Exception):  # a signal between two functions, not an error
    """Raised by :func:`check_camel`: the body spells a key snake_case, decode it the slow way."""


def camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def is_snake(key: str) -> bool:
    return "_" in key.strip("_")


def check_camel(value: Any) -> None:
    """Raise SnakeCase if ``value`` holds a snake_case key outside OPAQUE values.

    The request decoder reads camelCase only and calls this on every value it keeps without
    reading (echo data, native parts, options); the keys it does read are camelCase by
    construction, so a body that passes needs no ``normalize`` walk over all of it."""
    if isinstance(value, dict):
        for key, item in value.items():
            if is_snake(key):
                raise SnakeCase(key)
            if key not in OPAQUE:
                check_camel(item)
    elif isinstance(value, list):
        for item in value:
            check_camel(item)


def normalize(value: Any, keep: frozenset[str] = frozenset()) -> tuple[Any, list[Path]]:
    """``value`` with every snake_case key camelCased (outside OPAQUE values), and the paths of
    the keys it renamed: parents spelled camelCase, the last item the original key. The values
    of ``value``'s own keys in ``keep`` are left as they are (the caller checks them).

    Copy on write: a dict or list with nothing renamed under it is returned as it came, so a body
    with one snake_case key costs a walk, not a copy of the whole body."""
    found: list[Path] = []
    return _walk(value, [], found, keep), found


def _walk(value: Any, at: Path, found: list[Path], keep: frozenset[str] = frozenset()) -> Any:
    if isinstance(value, dict):
        renamed: dict[str, Any] | None = None
        for index, (key, item) in enumerate(value.items()):
            name = key
            if "_" in key and is_snake(key):
                name = camel(key)
                found.append([*at, key])
            new = item
            if key not in keep and name not in OPAQUE and isinstance(item, dict | list):
                at.append(name)
                new = _walk(item, at, found)
                at.pop()
            if renamed is None and (new is not item or name != key):
                renamed = dict(itertools.islice(value.items(), index))
            if renamed is not None:
                renamed[name] = new
        return value if renamed is None else renamed
    if isinstance(value, list):
        copied: list[Any] | None = None
        for index, item in enumerate(value):
            new = item
            if isinstance(item, dict | list):
                at.append(index)
                new = _walk(item, at, found)
                at.pop()
            if copied is None and new is not item:
                copied = value[:index]
            if copied is not None:
                copied.append(new)
        return value if copied is None else copied
    return value


def respell(body: dict[str, Any], paths: list[Any]) -> None:
    """Rename, in place, the camelCase keys at ``paths`` back to the snake_case spelling recorded
    there; deepest first, so a parent's rename does not hide its children. Paths that no longer
    exist (the transcript was edited) are skipped."""
    for path in reversed(paths):
        if not isinstance(path, list) or not path or not isinstance(path[-1], str):
            continue
        holder: Any = body
        for step in path[:-1]:
            try:
                holder = holder[step]
            except (KeyError, IndexError, TypeError):
                holder = None
                break
        original = path[-1]
        name = camel(original)
        if isinstance(holder, dict) and name in holder and original not in holder:
            items = list(holder.items())
            holder.clear()
            holder.update((original if key == name else key, item) for key, item in items)
