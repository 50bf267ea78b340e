"""cohere-chat's conformance data: its place in the target list, its field-coverage contract and
probes, and its documented departures from its capabilities, each with its source. The codec's
``conformance`` attribute names it; ``interlingua.testing.conformance`` says what each field is."""

from __future__ import annotations

from typing import Any

from interlingua import TextSource
from interlingua.testing.conformance import Conformance, Coverage, Departure, Target

from . import _probes

_BASE = {"model": "command-a-03-2025", "messages": [{"role": "user", "content": "hi"}]}


def _request_types() -> Any:
    """The parameters of ``client.v2.chat``, key by key, as the oracle checks them."""
    from ._oracle import _request_types

    return _request_types()


def _response_types() -> Any:
    import cohere

    return cohere.V2ChatResponse


_FOREIGN = (  # its own options, which every other target reports
    ("safety_mode", {**_BASE, "safety_mode": "STRICT"}),
    ("documents", {**_BASE, "documents": ["The sky is blue."]}),
    ("citation_options", {**_BASE, "citation_options": {"mode": "FAST"}}),
)


CONFORMANCE = Conformance(
    # Cohere's reasoning Command A: a model its recorded traffic addresses.
    targets=(
        Target("cohere-chat", "command-a-reasoning-08-2025", real_folder="cohere", foreign_options=_FOREIGN),
    ),
    smallest=_BASE,
    coverage=Coverage(
        "interlingua_cohere._coverage",
        _request_types,
        _response_types,
        sdk=("cohere", "7.3.1"),
        model="command-a-reasoning-08-2025",
        response_rows=frozenset(
            {
                "finish_reason",
                "usage.tokens.input_tokens",
                "message.content[thinking].thinking",
                "message.citations[].*",
            }
        ),
    ),
    requests=_probes.requests,
    answers=_probes.answers,
    model_row="model",
    replays_own_reasoning=frozenset({"cohere"}),  # Cohere thinking blocks
    needs_own_signature=frozenset({"cohere"}),  # Cohere: "Cohere's own thinking blocks"
    tool_ids={"cohere": lambda i: True},  # Cohere documents no rule for its ids
    documented={
        ("cohere", "document"): Departure(
            lambda r, f: isinstance(f.part.source, TextSource) and ".content[" in f.path,
            "native",
            "cohere note document: documents as text (document.data), in a tool message",
        ),
        ("cohere", "tool_choice"): Departure(
            lambda r, f: r.tool_choice in ("auto", "required", "none"),
            "native",
            "cohere note: REQUIRED and NONE (auto is the default, left out); only a named tool is reported",
        ),
    },
    stop_reasons={
        "content_filter": "cohere's ChatFinishReason: COMPLETE, STOP_SEQUENCE, MAX_TOKENS, TOOL_CALL, "
        "ERROR, TIMEOUT (https://docs.cohere.com/reference/chat): sent as ERROR",
    },
)
