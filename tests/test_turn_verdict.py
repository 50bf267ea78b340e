"""The turn rules' one verdict (``keeps_rules``) against the repair it spares: a transcript keeps
the rules exactly where the repair would change nothing and report nothing. Held on every
request of the recorded corpora (real, lingua and pydantic-ai), decoded by its own codec and judged
under every codec's rules (bedrock-converse's and cohere-chat's too, and the rules of a stored
continuation); the generated transcripts are in ``test_normalize_equiv.py``."""

from __future__ import annotations

import json
from functools import cache

import pytest

import interlingua as il
from interlingua import Request, WarningSink
from interlingua._normalize import _Fixer, keeps_rules
from interlingua.kit import TurnRules, find_handles
from interlingua.testing import (
    corpus_missing,
    lingua_fixtures_dir,
    load_body,
    pydantic_ai_fixtures_dir,
    real_fixtures,
    skip_without_corpus,
)

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
    decoded = [(name, il.get_codec(wire).decode_request(load_body(path))) for name, wire, path in sorted(found)]
    return (*decoded, *_pydantic_ai())


def _pydantic_ai() -> list[tuple[str, Request]]:
    """Every recorded request of the pydantic-ai corpus, accepted or refused, decoded by the codec
    of its wire (in its host's dialect; the model from the URL where the body has none)."""
    if corpus_missing("pydantic-ai") is not None:
        return []
    found = []
    for meta_file in sorted(pydantic_ai_fixtures_dir().glob("*/*/meta.json")):
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        wire, dialect = meta_file.parent.parent.name, meta.get("dialect")
        codec = il.get_codec(wire, dialect=dialect) if dialect else il.get_codec(wire)
        body = load_body(meta_file.parent / "request.json")
        model = {"model": meta["model"]} if wire in ("gemini", "bedrock-converse") else {}
        found.append((f"pydantic-ai/{wire}/{meta_file.parent.name}", codec.decode_request(body, **model)))
    return found


def _repair_changes_nothing(request: Request, rules: TurnRules) -> bool:
    out = WarningSink("acme-chat")
    fixed = _Fixer(request.messages, rules, "drop", out).repair()
    same = len(fixed) == len(request.messages) and all(a is b for a, b in zip(fixed, request.messages, strict=True))
    return same and not out.warnings


@pytest.mark.parametrize("target", (*WIRES, "bedrock-converse", "cohere-chat", "stored"))
def test_the_verdict_is_the_repair_changing_nothing_on_every_recorded_request(target: str) -> None:
    for corpus in ("real", "lingua", "pydantic-ai"):  # the counts below are of all three
        skip_without_corpus(corpus)
    codec = il.get_codec("openai-responses" if target == "stored" else target)
    rules = getattr(codec, "stored_rules" if target == "stored" else "rules", None)  # not in the Codec protocol
    assert isinstance(rules, TurnRules)
    verdicts: dict[bool, list[str]] = {True: [], False: []}
    for name, request in _corpus():
        assert not find_handles(request)  # decoders make none: both verdicts apply
        verdict = keeps_rules(request.messages, rules)
        assert verdict is _repair_changes_nothing(request, rules), name
        verdicts[verdict].append(name)
    assert (len(verdicts[True]), len(verdicts[False])) == KEPT_AND_FIXED[target]


KEPT_AND_FIXED = {  # both verdicts are met: foreign reasoning and ids break the rules across vendors
    # (Snowflake Cortex's reasoning_details decode as thinking on openai-chat: its signed turn in
    # test_snowflake_thinking__1 is foreign reasoning to the other vendors, kept by both OpenAI wires)
    "anthropic-messages": (1089, 82),
    "openai-chat": (1095, 76),
    "openai-responses": (1147, 24),
    # Gemini: a turn's results in tool messages of their own, in the calls' order, are joined by
    # its writer (joins_results), not repaired: 14 parallel-call transcripts (was 1088, 83).
    "gemini": (1102, 69),
    # Bedrock: the parallel-call transcripts (results in several tool messages) are joined into one
    # user turn, as Converse's alternating turns ask: by its writer (joins_results) where they come
    # in the calls' order, the same 14 as Gemini's (was 1085, 86), by the repair otherwise.
    "bedrock-converse": (1099, 72),
    "cohere-chat": (1098, 73),
    "stored": (1150, 21),  # openai-responses continuing stored state: leading outputs answer stored calls
}
