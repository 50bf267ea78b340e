"""The Responses API's rules beyond types, one row each with its source, and the turn rules the
encoder keeps from them (read by ``_codec.py``, ``_items.py`` and the oracle)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from interlingua.kit import Rule, RuleTable, ToolIds, TurnRules, own_thinking

from .._shared import PROVIDER, TOOL_NAMES

_STORED_ID = re.compile(r"rs_[0-9a-f]+")


def stored_by_id(item: Mapping[str, Any]) -> bool:
    """Whether a reasoning item names one the API stored, by the id it issued (``rs_`` and hex,
    as in the recorded refusal): the API looks it up and wants the item it produced after it.
    An item with no such id (encrypted content a stateless client keeps, store off; another
    host's own ids) stands alone: a request with five of them straight before a user message
    was answered ``completed`` (``fixtures/openai-responses/request/reasoning-id-less-before-user``)."""
    item_id = item.get("id")
    return isinstance(item_id, str) and _STORED_ID.fullmatch(item_id) is not None


def _items(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = body.get("input")
    return [item if isinstance(item, Mapping) else {} for item in items] if isinstance(items, list) else []


def _call_ids(body: Mapping[str, Any]) -> list[str]:
    return [
        f"input[{index}].call_id: longer than 64 characters"
        for index, item in enumerate(_items(body))
        if isinstance(item.get("call_id"), str) and len(item["call_id"]) > 64
    ]


def _outputs_follow_calls(body: Mapping[str, Any]) -> list[str]:
    """A call's output comes after the call, unless the call lives in stored state (a
    ``previous_response_id`` or a ``conversation``), which the body does not show."""
    if body.get("previous_response_id") is not None or body.get("conversation") is not None:
        return []
    problems: list[str] = []
    called: set[Any] = set()
    for index, item in enumerate(_items(body)):
        kind = item.get("type")
        if not isinstance(kind, str):
            continue
        if kind.endswith("_call") and item.get("call_id") is not None:
            called.add(item["call_id"])
        elif kind.endswith("_call_output") and item.get("call_id") not in called:
            problems.append(f"input[{index}]: {kind} for call {item.get('call_id')!r} that no earlier item made")
    return problems


def _stored_reasoning_followed(body: Mapping[str, Any]) -> list[str]:
    """A stored reasoning item sent by id is followed by an output item (one with a type, not a
    user message, not another reasoning item): the refused request had an assistant message
    with no type after it."""
    items = _items(body)
    problems = []
    for index, item in enumerate(items):
        if item.get("type") != "reasoning" or not stored_by_id(item):
            continue
        following = items[index + 1] if index + 1 < len(items) else {}
        if following.get("type") in (None, "reasoning") or following.get("role") == "user":
            problems.append(f"input[{index}]: a stored reasoning item must be followed by the item it produced")
    return problems


RULES: RuleTable = (
    Rule(
        "call-id-length",
        "call_id is at most 64 characters (400 \"Invalid 'input[95].call_id': string too long. Expected a string "
        "with maximum length 64\"); longer ids are mapped",
        "https://github.com/AnswerDotAI/fastllm/issues/45",
        _call_ids,
    ),
    Rule(
        "outputs-follow-calls",
        "a function_call_output (and every *_call_output) comes after the item that made its call, "
        "unless that call is in stored state",
        # "No tool call found for function call output with call_id call_..." (400)
        "https://github.com/continuedev/continue/issues/10092",
        _outputs_follow_calls,
    ),
    Rule(
        "stored-reasoning-followed",
        "a reasoning item sent by a stored id is followed by the output item it produced; id-less "
        "encrypted items pass as they are",
        "corpus:real/openai-responses/error/reasoning-item-without-following-item.json",
        _stored_reasoning_followed,
    ),
    Rule(
        "function-names",
        "function names match [a-zA-Z0-9_-]{1,64}",
        # OpenAI's API spec, FunctionObject.name: "Must be a-z, A-Z, 0-9, or contain underscores and
        # dashes, with a maximum length of 64."
        "https://docs.rs/crate/openai-client-base/0.12.0/source/docs/ChatCompletionFunctions.md",
    ),
    Rule(
        "own-reasoning",
        "only reasoning items OpenAI made go back, encrypted ones to the model that made them",
        "https://cookbook.openai.com/examples/responses_api/reasoning_items",
    ),
)



def turn_rules() -> TurnRules:
    """What the encoder demands of a transcript, from the rows above: only OpenAI's own
    reasoning goes back; a call_id over 64 characters is mapped (the same way for its output)."""
    from ._items import sends_name  # _items reads ``stored_by_id`` from here

    return TurnRules(
        accepts_thinking=own_thinking(PROVIDER),
        tool_ids=ToolIds(r"[\s\S]{1,64}", length=40, prefix="call_"),
        tool_names=TOOL_NAMES,
        result_names=sends_name,
        table=RULES,
    )
