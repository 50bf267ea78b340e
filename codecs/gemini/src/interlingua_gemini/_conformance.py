"""gemini's conformance data: its place in the target list, its field-coverage contract and
probes, and its documented departures from its capabilities, each with its source. The codec's
``conformance`` attribute names it; ``interlingua.testing.conformance`` says what each field is."""

from __future__ import annotations

from typing import Any

from interlingua.testing.conformance import Conformance, Coverage, Departure, Target, merged

from . import _probes

_BASE = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
_SAFETY = [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}]


def _request_types() -> Any:
    """The REST body of generateContent, key by key, as the oracle checks it."""
    from google.genai import types as genai

    return {
        "contents": list[genai.Content],
        "systemInstruction": genai.Content,
        "tools": list[genai.Tool],
        "toolConfig": genai.ToolConfig,
        "safetySettings": list[genai.SafetySetting],
        "generationConfig": genai.GenerationConfig,
        "cachedContent": str,
        "labels": dict[str, str],
    }


def _response_types() -> Any:
    from google.genai import types as genai

    return genai.GenerateContentResponse


_FOREIGN = (  # its own options, which every other target reports
    ("safetySettings", {**_BASE, "safetySettings": _SAFETY}),
    ("cachedContent", {**_BASE, "cachedContent": "cachedContents/abc"}),
    ("generationConfig", {**_BASE, "generationConfig": {"candidateCount": 2}}),
    ("generationConfig", {**_BASE, "generationConfig": {"responseLogprobs": True, "temperature": 0.5}}),
)


CONFORMANCE = Conformance(
    # The model recorded on the corpus's own echoes, so its reasoning is replayed to the model that made it.
    targets=(Target("gemini", "gemini-3-pro-preview", real_folder="gemini", foreign_options=_FOREIGN),),
    smallest=_BASE,
    coverage=Coverage(
        "interlingua_gemini._coverage",
        _request_types,
        _response_types,
        sdk=("google-genai", "3.6.1"),
        model="gemini-3-pro-preview",
        response_rows=frozenset(
            {"candidates[].finishReason", "usageMetadata.promptTokenCount", "candidates[].content.parts[].thought"}
        ),
    ),
    requests=lambda: merged(_probes.gemini(), _probes.meaning()),
    answers=lambda: merged(_probes.gemini_answers(), _probes.meaning_answers()),
    lingua_folders=("google",),
    model_in_url=True,  # /models/{model}:generateContent
    replays_own_reasoning=frozenset({"gemini"}),  # Gemini thought signatures
    needs_own_signature=frozenset({"gemini"}),  # "Gemini's own thought parts only"
    tool_ids={"gemini": lambda i: True},  # Gemini matches results to calls by name and order
    documented={
        ("gemini", "parallel_tool_calls"): Departure(
            lambda r, f: r.parallel_tool_calls is True,
            "native",
            "gemini note: parallel calls cannot be turned off (so asking for them loses nothing)",
        ),
        ("gemini", "document"): Departure(
            lambda r, f: getattr(f.part, "name", None) is None,
            "native",
            "gemini note: a *named* document loses its name; an unnamed one goes as inlineData/fileData",
        ),
    },
)
