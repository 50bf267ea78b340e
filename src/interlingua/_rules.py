"""The vendor rules an encoder keeps beyond types, one row each with its source (DESIGN.md
invariants 3 and 8).

Types let through bodies a vendor answers 400 to: a tool result that does not follow its call,
an id too long, an empty text block. Each codec keeps the rules of its wire in one table (its
``_rules.py``), and every row says where the rule comes from: a vendor page (``https://...``),
or a refusal recorded in a corpus (``corpus:<corpus>/<path>`` of the error answer, read from
``shared/fixtures``). A rule no source backs is a guess, and a recorded request the vendor
accepted outranks any row: the tests hold every row to both.

A row's ``check`` judges a wire body against the rule (what the test kit's oracle reports, and
what the accepted corpora must never trip); a row with none is kept in the IR only (which
reasoning a vendor takes back, say), where the turn-rule tests hold it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

BodyCheck = Callable[[Mapping[str, Any]], list[str]]
"""A wire request body in, what in it breaks the rule out (``"messages[3]: ..."``), ``[]`` when none."""

CORPUS = "corpus:"
"""The prefix of a source that is a recorded refusal: ``corpus:real/acme-chat/error/x.json``."""


class Rule(NamedTuple):
    """One vendor rule beyond types.

    ``name``: a short slug, unique in its table; ``says``: the rule in one sentence; ``source``:
    a vendor page URL, or ``corpus:`` and the path of a recorded error answer under
    ``shared/fixtures`` (see :data:`CORPUS`); ``check``: the rule as a test of a wire body, or
    None for a rule kept in the IR only; ``models``: a pattern (``re.search``) of the model ids
    the rule holds for, None for every model.
    """

    name: str
    says: str
    source: str
    check: BodyCheck | None = None
    models: str | None = None

    def holds_for(self, model: str | None) -> bool:
        """Whether the rule applies to ``model`` (None: a model not known, which every rule may
        be asked about)."""
        return self.models is None or model is None or re.search(self.models, model) is not None


RuleTable = tuple[Rule, ...]


def broken_rules(table: RuleTable, body: Mapping[str, Any], model: str | None = None) -> list[str]:
    """What in ``body`` breaks a row of ``table`` that holds for ``model`` (default: the body's
    own ``model``), each problem as its row's check says it."""
    if model is None and isinstance(body.get("model"), str):
        model = body["model"]
    problems: list[str] = []
    for rule in table:
        if rule.check is not None and rule.holds_for(model):
            problems += rule.check(body)
    return problems


def table_check(table: RuleTable) -> Callable[[Mapping[str, Any], str | None], list[str]]:
    """``table`` as an oracle's ``rules`` (a body and the target model in, problems out)."""

    def check(body: Mapping[str, Any], model: str | None) -> list[str]:
        return broken_rules(table, body, model)

    return check
