"""openai-responses' conformance data: its place in the target list, its field-coverage contract
and probes, and its documented departures from its capabilities, each with its source. The
codec's ``conformance`` attribute names it; ``interlingua.testing.conformance`` says what each
field is."""

from __future__ import annotations

import typing
from typing import Any

from interlingua.testing.conformance import Conformance, Coverage, Departure, Target, merged

from . import _probes

_BASE = {"model": "gpt-4.1", "input": "hi"}


def _request_types() -> Any:
    from openai.types.responses import response_create_params

    hints = typing.get_type_hints(response_create_params.ResponseCreateParamsBase, include_extras=True)
    return {**hints, "stream": bool}


def _response_types() -> Any:
    from openai.types.responses import Response

    return Response


_FOREIGN = (  # its own options, which every other target reports
    ("previous_response_id", {**_BASE, "previous_response_id": "resp_1"}),
    ("store", {**_BASE, "store": False}),
    ("include", {**_BASE, "include": ["reasoning.encrypted_content"]}),
)

CONFORMANCE = Conformance(
    # The model recorded on the corpus's own echoes, so its reasoning is replayed to the model that made it.
    targets=(Target("openai-responses", "gpt-5", real_folder="openai-responses", foreign_options=_FOREIGN),),
    smallest=_BASE,
    coverage=Coverage(
        "interlingua_openai.responses._coverage",
        _request_types,
        _response_types,
        sdk=("openai", "3.57.0"),
        model="gpt-5",
        response_rows=frozenset(
            {
                "status",
                "usage.input_tokens",
                "output[message].content[output_text].annotations[*].*",
                "output[reasoning].summary[].*",
            }
        ),
    ),
    requests=lambda: merged(_probes.openai_responses(), _probes.meaning()),
    answers=lambda: merged(_probes.responses_answers(), _probes.meaning_answers()),
    model_row="model",
    lingua_folders=("responses",),
    replays_own_reasoning=frozenset({"openai-responses"}),  # OpenAI Responses reasoning items
    needs_own_signature=frozenset({"openai-responses"}),  # "only OpenAI's own reasoning items are replayed"
    tool_ids={"openai-responses": lambda i: len(i) <= 64},
    documented={
        ("openai-responses", "thinking"): Departure(
            lambda r, f: r.thinking is not None and r.thinking.budget_tokens is not None,
            "either",
            "openai-responses note thinking.level: a budget maps to an effort",
        ),
    },
)
