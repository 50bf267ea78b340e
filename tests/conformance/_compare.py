"""Comparing a request with decode(encode(request)): which parts must come back, and how equal.

A codec's wire may regroup messages (tool results join a user turn, a system prompt moves to its
own field), so the check is on the flat sequence of parts: every part the target carries
natively must come back, in order, with the same content. Other parts (converted or dropped with
a warning) may appear in between.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from interlingua import (
    Audio,
    Codec,
    ContentPart,
    Document,
    Image,
    Native,
    RedactedThinking,
    Request,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    Video,
)

from ._features import expectation, features

_KEPT_REASONS = frozenset({"declared", "own-reasoning", "rejected-tool-id"})
"""Native parts must come back; so must calls and results whose id the target rewrote: the
rewrite is reversible (issue 8), so decoding with the same codec gives the original id."""


def expected_parts(codec: Codec, request: Request, warnings: Sequence[Any] = ()) -> list[tuple[str, str, Any]]:
    """(path, type, signature) of every top-level part of ``request`` that must come back: the
    native ones the encode did not warn about (a warned one is the warning test's business), and
    every call and result whose id the target rewrote."""
    warned = [w.path for w in warnings]
    kept = []
    for feature in features(request):
        part = feature.part
        if feature.key != getattr(part, "type", None) or ".content[" in feature.path:
            continue
        if feature.path.startswith("tools["):
            continue
        kind, reason = expectation(codec, request, feature)
        was_warned = any(_under(path, feature.path) for path in warned)
        if reason == "rejected-tool-id":
            # the id must come back; the rest only where nothing was warned about
            sig = signature(part, codec.provider)
            kept.append((feature.path, part.type, sig[:2] if was_warned else sig))
        elif kind == "native" and reason in _KEPT_REASONS and not was_warned:
            kept.append((feature.path, part.type, signature(part, codec.provider)))
    return kept


def decoded_parts(codec: Codec, request: Request) -> list[tuple[str, Any]]:
    return [(part.type, signature(part, codec.provider)) for message in request.messages for part in message.parts]


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith((prefix + ".", prefix + "["))


def missing_parts(codec: Codec, original: Request, decoded: Request, warnings: Sequence[Any] = ()) -> list[str]:
    """The expected parts not found, in order, among the decoded ones: readable lines."""
    want = expected_parts(codec, original, warnings)
    have = decoded_parts(codec, decoded)
    problems = []
    position = 0
    for path, kind, sig in want:
        found = next((k for k in range(position, len(have)) if _matches(have[k], kind, sig)), None)
        if found is None:
            near = [s for t, s in have if t == kind]
            problems.append(f"{path} ({kind}) did not come back: {_short(sig)}; decoded {kind} parts: {_short(near)}")
            continue
        position = found + 1
    return problems


def _matches(have: tuple[str, Any], kind: str, sig: Any) -> bool:
    """Equal, or (an id-only expectation: a tuple of id and name) equal in its leading fields."""
    if have[0] != kind:
        return False
    if isinstance(sig, tuple) and len(sig) == 2 and isinstance(have[1], tuple) and len(have[1]) > 2:
        return have[1][:2] == sig
    return bool(have[1] == sig)


def signature(part: ContentPart, provider: str) -> Any:
    """What must survive a round trip, per part type."""
    match part:
        case Text():
            return part.text
        case Image() | Audio() | Video() | Document():
            return _source(part.source)
        case Thinking():
            return (part.text, _own(part, provider))
        case RedactedThinking():
            return _own(part, provider)
        case ToolUse():
            return (part.id, part.name, part.input)
        case ToolResult():
            return (part.tool_use_id, part.name, _content(part.content, provider), part.is_error)
        case Native():
            return (part.provider, part.data)
        case _:
            return part.type


def _own(part: Any, provider: str) -> Any:
    echo = part.echo(provider)
    return echo.data if echo is not None else None


def _source(source: Any) -> Any:
    for key in ("data", "url", "text", "file_id"):
        if hasattr(source, key):
            return (source.type, getattr(source, key))
    return source.type


def _content(content: Any, provider: str) -> Any:
    """A result's content, with equal meanings made equal: a list of text parts reads as their
    joined text, and text holding a JSON object reads as that object."""
    if isinstance(content, list):
        if all(isinstance(p, Text) for p in content):
            content = "".join(p.text for p in content)
        else:
            return [(p.type, signature(p, provider)) for p in content]
    if isinstance(content, str):
        try:
            parsed = json.loads(content)
        except ValueError:
            return content
        return parsed if isinstance(parsed, dict) else content
    return content


def _short(value: Any) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) < 200 else text[:197] + "..."
