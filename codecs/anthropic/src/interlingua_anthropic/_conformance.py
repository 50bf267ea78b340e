"""anthropic-messages' conformance data: its place in the target list, its field-coverage
contract and probes, and its documented departures from its capabilities, each with its source.
The codec's ``conformance`` attribute names it; ``interlingua.testing.conformance`` says what
each field is."""

from __future__ import annotations

import re
import typing
from typing import Any

from interlingua.testing.conformance import Conformance, Coverage, Departure, Target

from . import _probes

_BASE = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}]}


def _request_types() -> Any:
    # anthropic 2.12 dropped the sampling fields from its params; the API still takes them for
    # earlier models (see interlingua_anthropic._oracle), so the walk lists them too.
    from anthropic.types import message_create_params

    fields = {"temperature": float, "top_p": float, "top_k": int, "stream": bool}
    return {**typing.get_type_hints(message_create_params.MessageCreateParamsBase, include_extras=True), **fields}


def _response_types() -> Any:
    from anthropic.types import Message

    return Message


_FOREIGN = (  # its own options, which every other target reports
    ("container", {**_BASE, "container": "container_1"}),
    ("service_tier", {**_BASE, "service_tier": "auto"}),
    ("mcp_servers", {**_BASE, "mcp_servers": [{"type": "url", "url": "https://example.com/mcp", "name": "m"}]}),
)


CONFORMANCE = Conformance(
    # The model recorded on the corpus's own echoes, so its reasoning is replayed to the model that made it.
    targets=(
        Target("anthropic-messages", "claude-sonnet-4-5", real_folder="anthropic-messages", foreign_options=_FOREIGN),
    ),
    smallest=_BASE,
    coverage=Coverage(
        "interlingua_anthropic._coverage",
        _request_types,
        _response_types,
        sdk=("anthropic", "2.14.0"),
        model="claude-sonnet-4-5",
        response_rows=frozenset(
            {"stop_reason", "usage.input_tokens", "content[text].citations.*", "content[thinking].thinking"}
        ),
    ),
    requests=_probes.anthropic,
    answers=_probes.anthropic_answers,
    model_row="model",
    lingua_folders=(
        "anthropic",
        # Anthropic Messages through a cloud: the body has no model and carries ``anthropic_version``
        # (kept in provider_options), and it decodes, round-trips and streams as Anthropic's own.
        "bedrock-anthropic",
        "vertex-anthropic",
    ),
    replays_own_reasoning=frozenset({"anthropic"}),  # Anthropic signed thinking
    needs_own_signature=frozenset({"anthropic"}),  # "only thinking Claude signed can be replayed"
    tool_ids={"anthropic": lambda i: re.fullmatch(r"[a-zA-Z0-9_-]+", i) is not None},
    documented={
        ("anthropic", "response_format"): Departure(
            lambda r, f: r.response_format is not None and r.response_format.type == "json_object",
            "lossy",
            "anthropic note: json_object has no wire form",
        ),
        ("anthropic", "document"): Departure(
            lambda r, f: getattr(f.part.source, "type", None) == "base64"
            and f.part.source.media_type != "application/pdf",
            "lossy",
            "anthropic _parts: inline (base64) documents are PDFs only (Converse sends a txt document as bytes)",
        ),
    },
)
