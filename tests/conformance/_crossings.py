"""Every recorded request of the three real corpora (``shared/fixtures/real``, ``lingua`` and
``pydantic-ai``), decoded by its own codec, and the targets it crosses to; and the judge that
holds a warning to the body it was given with (DESIGN.md invariant 2: "Warnings are true").

A warning is true when the value at its path is absent from the target body, or changed there.
The judge decodes the target body with the target's own codec and looks for the warned value
in what came back: found unchanged, the warning is a false alarm. It errs towards "true" where
it cannot tell, by the rules below, each narrow:

- a part, message or tool (or a field of one: ``.cache_control``, ``.name``) counts as crossed
  only when an identical one (echoes, cache mark and all) comes back at least as many times as
  the request holds it: a part whose echo the target drops as a replay token, an id a target
  rewrites, texts a target joins, all read as changed; a part a warning says was converted
  (moved out of a tool result, moved up to follow its call) is judged with its message, which
  must come back identical too;
- an option of another provider counts as crossed when the target body holds the same key with
  the same value, or the IR field of that name comes back with it (``max_tokens``, ``model``);
- an option of the target's own provider key (the two OpenAI wires share ``openai``) counts as
  crossed when it comes back in the target's options unchanged;
- a setting counts as crossed when the decoded target request holds the same value at the path.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import interlingua as il
from interlingua import Codec, Encoded, LossyEncode, Request
from interlingua.testing import corpus_missing, lingua_fixtures_dir, load_body, real_fixtures_dir

from .conftest import (
    _MODEL_IN_URL,
    BY_ID,
    LINGUA_WIRES,
    REAL,
    REAL_SOURCES,
    TARGETS,
    Target,
    decode_recorded,
    decode_with,
)


@dataclass(frozen=True)
class Recording:
    """One recorded request: its corpus, an id, the codec (wire and dialect) that reads it."""

    corpus: str
    id: str
    wire: str
    dialect: str | None
    path: Path
    model: str | None = None  # from the URL, for the wires that carry it there

    @property
    def source(self) -> str:
        """The target id this recording's own wire is (``openai-chat`` for OpenAI's dialect)."""
        if self.corpus == "real":
            return REAL_SOURCES[self.wire]
        if self.wire == "openai-chat" and self.dialect not in (None, "openai"):
            return str(self.dialect)
        return self.wire

    def decode(self) -> Request:
        if self.corpus == "real":
            return decode_recorded(self.wire, self.path)
        codec = il.get_codec(self.wire, dialect=self.dialect) if self.dialect else il.get_codec(self.wire)
        body = load_body(self.path)
        if self.wire in _MODEL_IN_URL:
            return codec.decode_request(body, model=self.model)  # type: ignore[call-arg]
        return codec.decode_request(body)


def pydantic_ai_dir() -> Path | None:
    """``shared/fixtures/pydantic-ai``, beside the real corpus, or None."""
    if corpus_missing("real") is not None:
        return None
    folder = real_fixtures_dir().parent / "pydantic-ai"
    return folder if folder.is_dir() else None


@cache
def recordings(corpus: str) -> tuple[Recording, ...]:
    if corpus == "real":
        return tuple(Recording("real", r.id, r.wire, None, r.path) for r in REAL)  # wire: its folder
    if corpus == "lingua":
        if corpus_missing("lingua") is not None:
            return ()
        root = lingua_fixtures_dir()
        return tuple(
            Recording("lingua", str(path.relative_to(root)), wire, None, path)
            for folder, wire in LINGUA_WIRES.items()
            for path in sorted(root.glob(f"*/{folder}/*request.json"))
        )
    root_or_none = pydantic_ai_dir()
    if root_or_none is None:
        return ()
    found = []
    for path in sorted(root_or_none.glob("*/*/request.json")):
        meta = json.loads((path.parent / "meta.json").read_text(encoding="utf-8"))
        wire = path.parent.parent.name
        dialect = meta.get("dialect") if wire == "openai-chat" else None
        found.append(Recording("pydantic-ai", f"{wire}/{path.parent.name}", wire, dialect, path, meta.get("model")))
    return tuple(found)


def crossings(corpus: str) -> Iterator[tuple[Recording, Request, Target]]:
    """Each recording that decodes, with each target other than its own wire, the request
    addressed to the target's model. (A recording that does not decode is the corpus tests'
    business, not this judge's.)"""
    for recording in recordings(corpus):
        try:
            request = recording.decode()
        except il.InterlinguaError:
            continue
        for target in TARGETS:
            if target.id != recording.source:
                yield recording, request.model_copy(update={"model": target.model}), target


# --- the judge ------------------------------------------------------------------------------

_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_MISSING = object()


def value_at(document: Any, path: str) -> Any:
    """The value at an IR path (``messages[3].parts[1].cache_control``) of a JSON document."""
    for name, index in _STEP.findall(path):
        if name and isinstance(document, Mapping) and name in document:
            document = document[name]
        elif index and isinstance(document, list) and int(index) < len(document):
            document = document[int(index)]
        else:
            return _MISSING
    return document


def _parts(messages: list[Any]) -> Iterator[Any]:
    """Every part of every message, tool-result content included."""
    for message in messages:
        for part in message.get("parts", ()):
            yield part
            if part.get("type") == "tool_result" and isinstance(part.get("content"), list):
                yield from part["content"]


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _holds(body: Any, key: str, value: Any) -> bool:
    """Whether some object in ``body`` holds ``key`` with ``value``."""
    if isinstance(body, Mapping):
        return (key in body and body[key] == value) or any(_holds(v, key, value) for v in body.values())
    if isinstance(body, list):
        return any(_holds(v, key, value) for v in body)
    return False


def _crossed_option(path: str, value: Any, codec: Codec, body: Mapping[str, Any], back: Mapping[str, Any]) -> bool:
    provider, _, rest = path.removeprefix("provider_options.").partition(".")
    if provider == codec.provider:
        return bool(value_at(back.get("provider_options", {}).get(provider, {}), rest) == value)
    key = rest.partition(".")[0]
    return _holds(body, key, value) or (key in Request.model_fields and back.get(key) == value)


def _crossed_whole(path: str, value: Any, source: Mapping[str, Any], back: Mapping[str, Any]) -> bool:
    """A part, message or tool: an identical one comes back as often as the request holds it."""
    if re.fullmatch(r"tools\[\d+\]", path):
        pool, wanted = back.get("tools", []), source.get("tools", [])
    elif re.fullmatch(r"messages\[\d+\]", path):
        pool, wanted = back.get("messages", []), source.get("messages", [])
    else:
        pool, wanted = list(_parts(back.get("messages", []))), list(_parts(source.get("messages", [])))
    have = Counter(_key(item) for item in pool)
    return have[_key(value)] >= Counter(_key(item) for item in wanted)[_key(value)] > 0


_WHOLE = re.compile(r"(messages\[\d+\](\.parts\[\d+\](\.content\[\d+\])?)?|tools\[\d+\])")


def false_alarms(request: Request, target: Target, encoded: Encoded) -> list[str]:
    """The warnings of ``encoded`` about something that crossed whole (see the module docstring)."""
    if not encoded.warnings:
        return []
    codec = target.codec
    back = decode_with(target, encoded.body).to_json_dict()
    source = request.to_json_dict()
    found = []
    for warning in encoded.warnings:
        path = warning.path
        value = value_at(source, path)
        if value is _MISSING:
            crossed = False  # a path the request does not hold: the judge cannot tell
        elif path.startswith("provider_options."):
            crossed = _crossed_option(path, value, codec, encoded.body, back)
        elif (holder := _WHOLE.match(path)) is not None:  # a part, message or tool, or a field of one
            crossed = _crossed_whole(holder.group(0), value_at(source, holder.group(0)), source, back)
            if crossed and isinstance(warning, LossyEncode) and warning.action == "converted" and holder.group(2):
                message = path[: path.index("]") + 1]  # a part converted or moved: judged with its message
                crossed = _crossed_whole(message, value_at(source, message), source, back)
        else:
            crossed = value is not None and value_at(back, path) == value
        if crossed:
            found.append(f"{type(warning).__name__} {warning}")
    return found


def warning_count(corpus: str) -> int:
    """How many warnings the corpus's cross conversions give (the figure the notes report)."""
    return sum(len(target.codec.encode_request(request).warnings) for _, request, target in crossings(corpus))


__all__ = ["BY_ID", "crossings", "false_alarms", "recordings", "value_at", "warning_count"]
