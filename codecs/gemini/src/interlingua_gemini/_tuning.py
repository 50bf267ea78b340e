"""Vertex AI Gemini tuning lines <-> TuningExample, both directions: supervised lines and preference pairs.

- Supervised: ``{systemInstruction, contents, tools}``, a ``generateContent`` body with no
  settings (https://cloud.google.com/vertex-ai/generative-ai/docs/models/gemini-supervised-tuning-prepare,
  "Dataset example for Gemini"; ``tools`` with function declarations:
  https://cloud.google.com/vertex-ai/generative-ai/docs/models/tune-function-calling).
- Preference: ``{system_instruction, contents, completions: [{score, completion}]}``: the prompt
  ends with a user turn; each completion is one model turn, ``score`` 1 preferred and 0 not
  (https://cloud.google.com/vertex-ai/generative-ai/docs/models/gemini-preference-tuning-prepare).
  Keys are read in either case, as the codec reads bodies; written in camelCase.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from interlingua import DecodeError, Message, Request, WarningSink
from interlingua.kit import (
    DISTINCTIVE,
    Sniffed,
    TuningExample,
    TuningFile,
    each,
    expect,
    kept_keys,
    require,
    unweighted,
)

if TYPE_CHECKING:
    from ._codec import GeminiCodec

KEYS = ("systemInstruction", "system_instruction", "contents", "tools")
"""A supervised line's keys (the system instruction in either case)."""
_WHY = "a Gemini tuning line holds systemInstruction, contents and tools only"


def sniff(line: Mapping[str, Any]) -> Sniffed | None:
    """A preference pair by ``completions``; a supervised line by ``contents`` with no other key
    than a tuning line's (a request body with settings is read as a request)."""
    if "contents" not in line:
        return None
    if "completions" in line:
        return Sniffed("request", DISTINCTIVE, "has 'contents' and 'completions' (a Gemini preference tuning line)")
    if all(key in KEYS for key in line):
        return Sniffed("request", 1.5, "has 'contents' and no settings (a Gemini supervised tuning line)")
    return None


def tuning_file(codec: GeminiCodec) -> TuningFile:
    return TuningFile(sniff, partial(decode, codec), partial(encode, codec), pairs=True)


def decode(codec: GeminiCodec, line: Mapping[str, Any]) -> TuningExample:
    if "completions" not in line:
        return TuningExample(codec.decode_request(line))
    prompt = codec.decode_request({key: value for key, value in line.items() if key != "completions"})
    chosen: list[Message] = []
    rejected: list[Message] = []
    for at, item in each(line, "completions", ""):
        entry = expect(item, dict, at)
        score = require(entry, "score", int, at)
        if score not in (0, 1):
            raise DecodeError(codec.name, f"{at}.score", f"expected 0 or 1, got {score}")
        turn = require(entry, "completion", dict, at)
        (chosen if score == 1 else rejected).extend(codec.decode_request({"contents": [turn]}).messages)
    return TuningExample(prompt, chosen=tuple(chosen), rejected=tuple(rejected))


def encode(codec: GeminiCodec, example: TuningExample, out: WarningSink) -> dict[str, Any]:
    unweighted(example, out, "a Gemini tuning line has no weights: every model turn is trained on")
    prompt = kept_keys(_body(codec, example.request, out), KEYS, out, _WHY)
    if example.chosen is None:
        return prompt
    completions = [
        {"score": score, "completion": turn}
        for score, messages in ((1, example.chosen), (0, example.rejected or ()))
        for turn in _turns(codec, example.request, messages, len(prompt.get("contents", [])))
    ]
    return {**prompt, "completions": completions}


def _turns(codec: GeminiCodec, prompt: Request, messages: tuple[Message, ...], start: int) -> list[dict[str, Any]]:
    """The model turns ``messages`` become after the prompt (its warnings are the prompt's)."""
    whole = _body(codec, prompt.model_copy(update={"messages": [*prompt.messages, *messages]}), None)
    return list(whole.get("contents", [])[start:])


def _body(codec: GeminiCodec, request: Request, out: WarningSink | None) -> dict[str, Any]:
    encoded = codec.encode_request(request.model_copy(update={"model": None}))
    if out is not None:
        out.warnings.extend(encoded.warnings)
    return dict(encoded.body)
