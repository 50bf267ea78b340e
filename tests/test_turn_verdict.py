"""The turn rules' one verdict (``keeps_rules``) against the repair it spares: a transcript keeps
the rules exactly where the repair would change nothing and report nothing. Held on every
request of the recorded corpora (real and lingua), decoded by its own codec and judged under
every codec's rules (bedrock-converse's and cohere-chat's too); the generated transcripts are in
``test_normalize_equiv.py``."""

from __future__ import annotations

from functools import cache

import pytest

import interlingua as il
from interlingua import Request, WarningSink
from interlingua._normalize import _Fixer, keeps_rules
from interlingua.kit import TurnRules, find_handles
from interlingua.testing import corpus_missing, lingua_fixtures_dir, load_body, real_fixtures, skip_without_corpus

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini")
LINGUA = {"anthropic": "anthropic-messages", "chat-completions": "openai-chat", "responses": "openai-responses"}
LINGUA |= {"google": "gemini", "bedrock-anthropic": "anthropic-messages", "vertex-anthropic": "anthropic-messages"}


@cache
def _corpus() -> tuple[tuple[str, Request], ...]:
    """Every recorded request, decoded by the codec of its wire."""
    found = [(f"real/{path.stem}", wire, path) for wire in WIRES for path in real_fixtures(wire, "request")]
    if corpus_missing("lingua") is None:
        root = lingua_fixtures_dir()
        for provider, wire in LINGUA.items():
            found += [
                (f"lingua/{p.parent.parent.name}/{p.stem}", wire, p) for p in root.glob(f"*/{provider}/*request.json")
            ]
    return tuple((name, il.get_codec(wire).decode_request(load_body(path))) for name, wire, path in sorted(found))


def _repair_changes_nothing(request: Request, rules: TurnRules) -> bool:
    out = WarningSink("acme-chat")
    fixed = _Fixer(request.messages, rules, "drop", out).repair()
    same = len(fixed) == len(request.messages) and all(a is b for a, b in zip(fixed, request.messages, strict=True))
    return same and not out.warnings


@pytest.mark.parametrize("target", (*WIRES, "bedrock-converse", "cohere-chat"))
def test_the_verdict_is_the_repair_changing_nothing_on_every_recorded_request(target: str) -> None:
    skip_without_corpus()
    rules = getattr(il.get_codec(target), "rules", None)  # not in the Codec protocol; every codec here has them
    assert isinstance(rules, TurnRules)
    verdicts: dict[bool, list[str]] = {True: [], False: []}
    for name, request in _corpus():
        assert not find_handles(request)  # decoders make none: both verdicts apply
        verdict = keeps_rules(request.messages, rules)
        assert verdict is _repair_changes_nothing(request, rules), name
        verdicts[verdict].append(name)
    assert (len(verdicts[True]), len(verdicts[False])) == KEPT_AND_FIXED[target]


KEPT_AND_FIXED = {  # both verdicts are met: foreign reasoning and ids break the rules across vendors
    "anthropic-messages": (246, 36),
    "openai-chat": (250, 32),
    "openai-responses": (277, 5),
    "gemini": (249, 33),
    # Bedrock: the three parallel-call transcripts (results in two tool messages) are joined into one
    # user turn, as Converse's alternating turns ask.
    "bedrock-converse": (247, 35),
    "cohere-chat": (250, 32),
}
