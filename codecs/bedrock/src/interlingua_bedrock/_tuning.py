"""Bedrock fine-tuning records <-> TuningExample, both directions: Converse-shaped supervised lines.

``{schemaVersion: "bedrock-conversation-2024", system, messages}``
(https://docs.aws.amazon.com/bedrock/latest/userguide/preparing-text-data.html, "Converse API
format"). Amazon Nova 2.0 adds reasoning content to assistant turns and warns that tool sections,
though the format has them, are not supported and "might cause your job to fail"
(https://docs.aws.amazon.com/bedrock/latest/userguide/nova-2-sft-data-prep.html): ``toolConfig``
is left out with a warning; the messages keep what the Converse format holds. The format has no
preference pairs and no per-message weights.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from interlingua import WarningSink
from interlingua.kit import DISTINCTIVE, Sniffed, TuningExample, TuningFile, kept_keys, supervised, unweighted

if TYPE_CHECKING:
    from ._codec import BedrockConverseCodec

SCHEMA = "bedrock-conversation-2024"
KEYS = ("schemaVersion", "system", "messages")
_WHY = "a Bedrock fine-tuning record holds system and messages only (tool sections may fail a Nova job)"


def sniff(line: Mapping[str, Any]) -> Sniffed | None:
    if line.get("schemaVersion") == SCHEMA:
        return Sniffed("request", DISTINCTIVE, f"'schemaVersion' is {SCHEMA!r} (a Bedrock fine-tuning record)")
    return None


def tuning_file(codec: BedrockConverseCodec) -> TuningFile:
    return TuningFile(sniff, partial(decode, codec), partial(encode, codec))


def decode(codec: BedrockConverseCodec, line: Mapping[str, Any]) -> TuningExample:
    return TuningExample(codec.decode_request({key: value for key, value in line.items() if key != "schemaVersion"}))


def encode(codec: BedrockConverseCodec, example: TuningExample, out: WarningSink) -> dict[str, Any]:
    example = supervised(example, out)
    unweighted(example, out, "a Bedrock fine-tuning record has no weights: every assistant turn is trained on")
    encoded = codec.encode_request(example.request.model_copy(update={"model": None}))
    out.warnings.extend(encoded.warnings)
    return kept_keys({"schemaVersion": SCHEMA, **encoded.body}, KEYS, out, _WHY)
