"""The OpenAI Agents SDK's run items as a log format (``--from openai-agents``) -> IR.

What an app persists of a run is ``RunResult.to_input_list()`` (the session memory stores the same
items): Responses API input items, the run's messages, reasoning, function calls and their
outputs (openai-agents ``agents/result.py``, ``agents/items.py``: ``RunItem.to_input_item``). So
the openai-responses codec reads them, as the ``input`` of a request; the agent's instructions are
not among the items (a ``{"instructions": ..., "input": [...]}`` object is read whole). A
``RunResult`` or a list of ``RunItem`` objects is turned into those items first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua._sniff import DISTINCTIVE, Sniffed
from interlingua.logs import Imported, LogFormat

NAME = "openai-agents"
_ITEM_TYPES = frozenset(
    {"function_call", "function_call_output", "reasoning", "message", "computer_call", "web_search_call"}
)
_PART_TYPES = frozenset({"input_text", "output_text", "input_image", "input_file", "refusal"})


def read(data: Any) -> Imported:
    from .responses import OpenAIResponsesCodec

    if hasattr(data, "to_input_list"):  # a RunResult
        data = data.to_input_list()
    elif isinstance(data, list) and data and hasattr(data[0], "to_input_item"):  # RunItem objects
        data = [item.to_input_item() for item in data]
    body = dict(data) if isinstance(data, Mapping) else {"input": data}
    return Imported(OpenAIResponsesCodec().decode_request(body))


def sniff(data: Any) -> Sniffed | None:
    """Response items by their ``type`` (distinctive); role-and-content messages whose parts are
    ``input_text`` / ``output_text`` (distinctive), or whose content is a string (one sign: other
    message lists look the same)."""
    if not isinstance(data, list) or not data or not all(isinstance(item, Mapping) for item in data):
        return None
    typed = sorted({str(item["type"]) for item in data if item.get("type") in _ITEM_TYPES})
    parts = {
        str(part.get("type"))
        for item in data
        if isinstance(item.get("content"), list)
        for part in item["content"]
        if isinstance(part, Mapping)
    }
    if typed or parts & _PART_TYPES:
        shown = ", ".join(repr(t) for t in typed or sorted(parts & _PART_TYPES))
        return Sniffed("request", DISTINCTIVE, f"Responses input items ({shown})")
    if all("role" in item and isinstance(item.get("content"), str) for item in data):
        return Sniffed("request", 1.0, "role and content messages")
    return None


FORMAT = LogFormat(NAME, read, sniff, "OpenAI Agents SDK run items (RunResult.to_input_list())")
