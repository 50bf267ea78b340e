"""bedrock-converse's conformance data: its place in the target list, its field-coverage contract
and probes, and its documented departures from its capabilities, each with its source. The
codec's ``conformance`` attribute names it; ``interlingua.testing.conformance`` says what each
field is."""

from __future__ import annotations

import re
from typing import Any

from interlingua import UrlSource
from interlingua.testing.conformance import Conformance, Coverage, Departure, Target, merged

from . import _probes

_BASE = {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}


def _converse(kind: str) -> Any:
    """The Converse operation's input or output shape in botocore's service model (the oracle's)."""
    import botocore.session

    operation = botocore.session.get_session().get_service_model("bedrock-runtime").operation_model("Converse")
    return operation.input_shape if kind == "request" else operation.output_shape


def _bytes_or_s3(part: Any) -> bool:
    """Whether a media part's source is one Converse takes: inline bytes, an s3:// location, or
    (a document) text."""
    source = getattr(part, "source", None)
    if isinstance(source, UrlSource):
        return source.url.startswith("s3://")
    return getattr(source, "type", None) in ("base64", "text")


def _out_of_unit(setting: str) -> Departure:
    return Departure(
        lambda r, f: not 0 <= getattr(r, setting) <= 1,
        "lossy",
        f"bedrock: botocore's InferenceConfiguration takes {setting} from 0 to 1",
    )


_FOREIGN = (  # its own options, which every other target reports
    ("guardrailConfig", {**_BASE, "guardrailConfig": {"guardrailIdentifier": "g1", "guardrailVersion": "1"}}),
    ("requestMetadata", {**_BASE, "requestMetadata": {"team": "a"}}),
    ("additionalModelRequestFields", {**_BASE, "additionalModelRequestFields": {"anthropic_beta": ["a-beta"]}}),
)


CONFORMANCE = Conformance(
    # A Claude on Bedrock: a model its recorded traffic addresses.
    targets=(
        Target(
            "bedrock-converse",
            "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            real_folder="bedrock-converse",
            foreign_options=_FOREIGN,
        ),
    ),
    smallest=_BASE,
    coverage=Coverage(
        "interlingua_bedrock._coverage",
        lambda: _converse("request"),
        lambda: _converse("response"),
        sdk=("botocore", "1.44.8"),
        model="us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        response_rows=frozenset(
            {
                "output.message.content[].citationsContent.*",
                "stopReason",
                "usage.inputTokens",
                "output.message.content[].reasoningContent.reasoningText.text",
            }
        ),
    ),
    requests=_probes.requests,
    answers=lambda: merged(_probes.answers(), _probes.meaning_answers()),
    model_row="modelId",
    model_in_url=True,  # /model/{modelId}/converse
    lingua_stream_folders=("bedrock",),
    stream_files="*.eventstream.bin",  # Converse's binary event stream, not framed as SSE text
    replays_own_reasoning=frozenset({"bedrock"}),  # Converse reasoningContent (with its signature)
    needs_own_signature=frozenset({"bedrock"}),  # Converse: "Bedrock's own reasoning"
    # Converse's botocore ToolUseId, ``[a-zA-Z0-9_.:-]+``, 1 to 64
    tool_ids={"bedrock": lambda i: re.fullmatch(r"[a-zA-Z0-9_.:-]{1,64}", i) is not None},
    documented={
        **{
            ("bedrock", kind): Departure(
                lambda r, f: not _bytes_or_s3(f.part),
                "lossy",
                f"bedrock note {kind}: bytes or an s3:// location; an https URL or a file id has no place on Converse",
            )
            for kind in ("image", "video", "audio", "document")
        },
        ("bedrock", "temperature"): _out_of_unit("temperature"),
        ("bedrock", "top_p"): _out_of_unit("top_p"),
    },
)
