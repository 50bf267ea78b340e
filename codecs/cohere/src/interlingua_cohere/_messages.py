"""Messages, both directions (cohere's ``ChatMessageV2``: user, assistant, system, tool); their
parts are ``_parts``'s.

- ``content`` is a string or a list of typed blocks. A list is remembered (a ``listContent`` echo
  on the first part), so a body comes back as it was; a message from another wire is written as
  a list.
- An assistant's ``tool_plan`` (the plan it states before calling tools) is a ``Text`` part
  with a ``toolPlan`` echo, first in the message; its ``tool_calls`` are ``ToolUse`` parts (the
  arguments text kept in the echo when it is not the compact JSON of its object); its message
  ``citations`` ride in the echo of its first text part.
- A ``tool`` message answers one call (``tool_call_id``) with a string (``ToolResult`` with
  text) or blocks; its name comes from the call earlier in the body.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interlingua import ContentPart, DecodeError, Message, ProviderEcho, Text, ToolResult, WarningSink
from interlingua.kit import dumps, expect, maker, optional, require

from ._parts import (
    UNMARKED,
    Decoding,
    Turn,
    decode_blocks,
    decode_call,
    decode_citations,
    echo,
    encode_part,
    encode_result_block,
    own,
    path,
    report_result_marks,
    rest_of,
    within,
)

# Each IR shape this module builds, a constructor made once (``maker``): the values are read and
# checked here, so pydantic's validation would only repeat it (a round trip costs a third less).
_text = maker(Text, "text")
_echoed_text = maker(Text, "text", "provider_echoes")
_message = maker(Message, "role", "parts")
_result = maker(ToolResult, "tool_use_id", "name", "content", "provider_echoes")


_KNOWN = frozenset({"role", "content", "tool_calls", "tool_plan", "citations", "tool_call_id"})


def decode_message(message: dict[str, Any], ctx: Decoding) -> tuple[Message, dict[str, Any]]:
    """One message -> (IR message, fields of it the IR has no place for); read with paths
    relative to the message (``content[2].text``), which its caller places (``within``)."""
    role = require(message, "role", str, "")
    if role not in _ROLES and role != "tool":  # the v2 API's four roles: never a guess (``User``, ``bot``)
        raise DecodeError("", "role", f"unknown role {role!r}")
    rest = rest_of(message, _KNOWN)
    if role == "tool":
        return _tool_result(message, ctx), rest
    parts: list[ContentPart] = []
    if role == "assistant" and (plan := optional(message, "tool_plan", str, "")) is not None:
        parts.append(_echoed_text(text=plan, provider_echoes=echo({"toolPlan": True})))
    content = message.get("content")
    if isinstance(content, str):
        parts.append(_text(text=content))
    elif content is not None:
        blocks = decode_blocks(content, "content", listed=True)
        if not blocks:
            rest["_emptyContent"] = True
        parts.extend(blocks)
    elif "content" in message:
        rest["_nullContent"] = True
    citations = message.get("citations")
    if citations is not None:
        index = next((i for i, p in enumerate(parts) if isinstance(p, Text) and not own(p).get("toolPlan")), None)
        if index is None:
            rest["citations"] = citations
        else:
            parts[index] = parts[index].model_copy(
                update={
                    "provider_echoes": _with(parts[index], {"citations": citations}),
                    "citations": decode_citations(citations),
                }
            )
    calls = message.get("tool_calls")
    if calls:
        for index, call in enumerate(expect(calls, list, "tool_calls")):
            try:
                parts.append(decode_call(expect(call, dict, ""), ctx))
            except DecodeError as err:
                raise within(f"tool_calls[{index}]", err) from None
    elif role == "assistant" and calls == []:
        rest["_emptyCalls"] = True
    return _message(role=role, parts=parts), rest


_ROLES = frozenset({"user", "assistant", "system"})


def _tool_result(message: dict[str, Any], ctx: Decoding) -> Message:
    call_id = require(message, "tool_call_id", str, "")
    content = message.get("content")
    body: str | list[ContentPart]
    extra: dict[str, Any] = {}
    if isinstance(content, str):
        body = content
    else:
        body = decode_blocks(content, "content")
        extra["listContent"] = True
    result = _result(
        tool_use_id=call_id,
        name=ctx.names.get(call_id, ""),
        content=body,
        provider_echoes=echo(extra) if extra else [],
    )
    return _message(role="tool", parts=[result])


def _with(part: ContentPart, data: dict[str, Any]) -> list[ProviderEcho]:
    return echo({**own(part), **data})


# --- encoding ----------------------------------------------------------------------------------


def encode_turn(
    message: Message, at: str | int, out: WarningSink, rest: dict[str, Any], wire: list[dict[str, Any]]
) -> None:
    """One IR message -> Cohere messages, appended to ``wire``: a ``tool`` message per tool result
    (this wire answers one call per message), then the message's other parts, if any, as one
    message of its role. ``at``: the message's path, or its index in the request's messages."""
    parts = message.parts
    for part in parts:
        if type(part) is ToolResult:
            break
    else:  # the common case: no tool result, one wire message
        _append(wire, encode_message(message, at, out, rest), message, at, out)
        return
    rest = rest if len(parts) == 1 else {}
    others: list[tuple[int, ContentPart]] = []
    for index, part in enumerate(parts):
        if type(part) is ToolResult:
            wire.append(_tool_message(part, at, index, out, rest))
        else:
            others.append((index, part))
    if not others:  # a tool message has no name or id either (encode_message reports them otherwise)
        if message.name is not None or message.id is not None:
            out.unsent_message_fields(message, path(at))
    else:
        role = "user" if message.role == "tool" else message.role
        _append(wire, encode_message(message, at, out, {}, indexed=others, role=role), message, at, out)


def _append(
    wire: list[dict[str, Any]], block: dict[str, Any], message: Message, at: str | int, out: WarningSink
) -> None:
    """``block`` appended, unless it is a user or system message left with no content: the SDK's
    ``UserChatMessageV2`` and ``SystemChatMessageV2`` require ``content``. Its parts were each
    dropped with a warning; a message that had none is reported here."""
    if "content" in block or block["role"] not in ("user", "system"):
        wire.append(block)
        return
    if not message.parts:
        out.unsupported(path(at), "empty_turn", "Cohere refuses a user or system message with no content")


def encode_message(
    message: Message,
    at: str | int,
    out: WarningSink,
    rest: dict[str, Any],
    *,
    answer: bool = False,
    indexed: Sequence[tuple[int, ContentPart]] | None = None,
    role: str | None = None,
) -> dict[str, Any]:
    """One message without tool results; ``indexed``: only these of its parts, by position;
    ``role``: the IR role to write it as (default its own). ``at`` as for :func:`encode_turn`.
    Each part goes to its encoder (``_parts.encode_part``), read without a copy of its echo
    unless it has one."""
    parts = list(enumerate(message.parts)) if indexed is None else indexed
    own_role = message.role if role is None else role
    wire_role = (rest.pop("_role", None) if rest else None) or (
        "user" if own_role == "developer" or own_role == "tool" else own_role
    )
    if own_role == "developer":
        out.unsupported(f"{path(at)}.role", "developer", "Cohere has no developer role; sent as user")
    if message.name is not None or message.id is not None:
        out.unsent_message_fields(message, path(at))
    for index, part in parts:
        if type(part) not in UNMARKED and getattr(part, "cache_control", None) is not None:
            why = "Cohere caches on its own; no breakpoints"
            out.lossy(f"{path(at)}.parts[{index}].cache_control", "cache_control", why)
    citations: Any = rest.pop("citations", None) if rest else None
    turn = Turn(citations, answer=answer)
    as_list = False
    for index, part in parts:
        data = own(part) if part.provider_echoes else {}
        if data and not as_list:
            as_list = bool(data.pop("listContent", False))
        encode_part(part, data, turn, wire_role, at, index, out)
    return _written(turn, wire_role, rest, as_list=as_list, answer=answer)


def _written(turn: Turn, role: str, rest: dict[str, Any], *, as_list: bool, answer: bool) -> dict[str, Any]:
    """The wire message of ``turn``'s blocks, calls, plan and citations, and the fields kept for it
    (``rest``): a lone text block of a request is a string unless it came as a list."""
    wire: dict[str, Any] = {"role": role}
    plan, blocks, calls, citations = turn.plan, turn.blocks, turn.calls, turn.citations
    if plan is not None:
        wire["tool_plan"] = plan
    if calls or (rest and rest.pop("_emptyCalls", False)):
        wire["tool_calls"] = calls
    if rest and rest.pop("_nullContent", False):
        wire["content"] = None
    elif blocks or (rest and rest.pop("_emptyContent", False)):
        if not as_list and len(blocks) == 1 and blocks[0].get("type") == "text" and not answer:
            wire["content"] = blocks[0]["text"]
        else:
            wire["content"] = blocks
    if citations is not None:
        wire["citations"] = citations
    if rest:
        wire.update(rest)
    return wire


def _tool_message(result: ToolResult, at: str | int, i: int, out: WarningSink, rest: dict[str, Any]) -> dict[str, Any]:
    """The tool message answering ``result``, the ``i``-th part of the message at ``at``."""
    body = result.content
    content: Any
    if isinstance(body, str):
        listed = result.provider_echoes and own(result).get("listContent")
        content = [{"type": "text", "text": body}] if listed else body
    elif isinstance(body, dict):
        content = dumps(body)  # "a JSON object string" (ToolMessageV2.content)
    else:
        content = []
        for index, inner in enumerate(body):
            if (block := encode_result_block(inner, at, i, index, out)) is not None:
                content.append(block)
    if result.is_error:
        why = "Cohere's tool message has no error flag; the content is sent"
        out.lossy(f"{path(at)}.parts[{i}].is_error", "tool_result", why)
    report_result_marks(result, f"{path(at)}.parts[{i}]", out)
    wire = {"role": "tool", "tool_call_id": result.tool_use_id, "content": content}
    if rest:
        wire.update(rest)
    return wire


