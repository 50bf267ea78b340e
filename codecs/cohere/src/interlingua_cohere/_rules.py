"""Cohere chat v2's rules beyond types, one row each with its source, and the turn rules the
encoder keeps from them (read by ``_codec.py``)."""

from __future__ import annotations

from interlingua.kit import Rule, RuleTable, TurnRules, own_thinking

from ._parts import PROVIDER

RULES: RuleTable = (
    Rule(
        "own-thinking",
        "reasoning goes back as the thinking content blocks Cohere's reasoning models wrote; another vendor's "
        "reasoning is not sent as Cohere's",
        "https://docs.cohere.com/docs/reasoning",
    ),
    Rule(
        "tool-names",
        "a tool name holds only a-z, A-Z, 0-9 and _ and does not begin with a digit (other names are sent "
        "escaped and read back as given)",
        # Cohere's Tool.name, as Oracle's SDK for the Cohere models documents it: "Valid names contain
        # only the characters a-z, A-Z, 0-9, _ and must not begin with a digit."
        "https://docs.oracle.com/en-us/iaas/tools/python/latest/api/generative_ai_inference/models/"
        "oci.generative_ai_inference.models.CohereTool.html",
    ),
)
"""No rule about turn order or ids is written down with a source to cite: none is applied."""

TOOL_NAMES = r"[a-zA-Z_][a-zA-Z0-9_]*"
"""The ``tool-names`` row as a pattern."""


def turn_rules() -> TurnRules:
    """What the encoder demands of a transcript, from the rows above: a tool message answers its
    call by ``tool_call_id`` alone (no name of its own)."""
    return TurnRules(accepts_thinking=own_thinking(PROVIDER), tool_names=TOOL_NAMES, result_names=False, table=RULES)
