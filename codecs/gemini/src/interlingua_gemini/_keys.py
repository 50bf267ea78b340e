"""Key spelling, both directions: snake_case wire keys read as camelCase, and written back.

The Gemini API reads proto JSON, which accepts a field in either spelling, and real clients mix
them in one body (``function_call`` beside ``thoughtSignature``: see the real fixture
``stream-json-array-function-call-turn2``). The codec reads camelCase only; ``normalize`` turns a
body into camelCase and lists where it found snake_case keys, ``respell`` puts them back, so a
decoded body re-encodes to the very same keys.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic_core import to_json

Path = list[str | int]

OPAQUE = frozenset(
    {"args", "response", "parameters", "parametersJsonSchema", "responseSchema", "responseJsonSchema", "labels"}
)
"""Keys whose values are user data (tool arguments, JSON schemas, labels): never respelled."""


_SNAKE_KEY = re.compile(rb'_[A-Za-z0-9_]*":')
"""The end of a JSON object key with an underscore in it. A match inside a string value only
costs a walk that finds nothing; no match proves there is no snake_case key."""


def camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def normalize(value: Any) -> tuple[Any, list[Path]]:
    """``value`` with every snake_case key camelCased (outside OPAQUE values), and the paths of
    the keys it renamed: parents spelled camelCase, the last item the original key."""
    if not _SNAKE_KEY.search(to_json(value)):
        return value, []  # the common case: one fast scan of the JSON text, no walk
    found: list[Path] = []
    return _walk(value, [], found), found


def _walk(value: Any, at: Path, found: list[Path]) -> Any:
    if isinstance(value, dict):
        if not any("_" in key for key in value) and not any(isinstance(v, dict | list) for v in value.values()):
            return value
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = key
            if "_" in key.strip("_"):
                name = camel(key)
                found.append([*at, key])
            out[name] = item if name in OPAQUE else _walk(item, [*at, name], found)
        return out
    if isinstance(value, list):
        return [_walk(item, [*at, index], found) for index, item in enumerate(value)]
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
