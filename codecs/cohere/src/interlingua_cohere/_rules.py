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
)
"""No rule about turn order, ids or names is written down with a source to cite: none is applied."""


def turn_rules() -> TurnRules:
    """What the encoder demands of a transcript, from the rows above: a tool message answers its
    call by ``tool_call_id`` alone (no name of its own)."""
    return TurnRules(accepts_thinking=own_thinking(PROVIDER), result_names=False, table=RULES)
