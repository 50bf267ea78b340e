"""Host metadata: namespaced, sorted, kept by transcripts, and never put on the wire."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

import interlingua as il
from interlingua import ContentPart, Message, Request, Response, Text, ToolResult, Transcript
from interlingua.kit import dumps

PLANTED = "planted-3f9c1e7a"
TRANSCRIPTS = sorted((Path(__file__).parents[1] / "fixtures" / "transcripts").glob("*.json"))
TARGETS = [
    ("anthropic-messages", {}),
    ("openai-chat", {}),
    ("openai-chat", {"dialect": "mistral"}),
    ("openai-responses", {}),
    ("gemini", {}),
]


def _tag(part: ContentPart) -> ContentPart:
    if isinstance(part, ToolResult) and isinstance(part.content, list):
        part = part.model_copy(update={"content": [_tag(inner) for inner in part.content]})
    return part.with_metadata({"host.mark": PLANTED})


def _planted(request: Request) -> Request:
    messages = [
        message.model_copy(update={"parts": [_tag(p) for p in message.parts]}).with_metadata({"host.mark": PLANTED})
        for message in request.messages
    ]
    return request.model_copy(update={"messages": messages}).with_metadata({"host.mark": PLANTED})


def test_keys_are_namespaced_and_kept_sorted() -> None:
    part = Text(text="a", metadata={"zeta.k": 1, "alpha.k": {"nested": [1, 2]}})
    assert list(part.metadata) == ["alpha.k", "zeta.k"]
    assert list(part.with_metadata({"beta.k": True}).metadata) == ["alpha.k", "beta.k", "zeta.k"]
    assert "zeta.k" not in part.with_metadata({"zeta.k": None}).metadata
    with pytest.raises(ValidationError, match="metadata key 'trace_id' needs a namespace"):
        Message.user("hi", metadata={"trace_id": "x"})


def test_metadata_lives_on_messages_parts_requests_and_responses() -> None:
    response = Response(message=Message.assistant("ok"), metadata={"host.cost_center": "r&d"})
    assert Response.model_validate(response.to_json_dict()) == response
    request = Request(metadata={"host.run": 7})
    assert request.to_json_dict() == {"metadata": {"host.run": 7}}


def test_metadata_survives_a_transcript_dump_and_load() -> None:
    transcript = Transcript.of(_planted(Request(messages=[Message.user("hi"), Message.assistant("hello")])).messages)
    assert Transcript.loads(transcript.dumps()) == transcript
    assert Transcript.loads_jsonl(transcript.dumps_jsonl()) == transcript
    assert transcript.messages[0].parts[0].metadata == {"host.mark": PLANTED}


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
def test_metadata_never_reaches_a_vendor_body(path: Path) -> None:
    transcript = Transcript.loads(path.read_bytes())
    settings: dict[str, Any] = dict(transcript.metadata.get("test.request", {}))
    request = _planted(
        Request.model_validate({**settings, "messages": [m.to_json_dict() for m in transcript.messages]})
    )
    assert PLANTED in request.model_dump_json()  # the value is really there to leak
    for name, options in TARGETS:
        codec = il.get_codec(name, **options)
        body = dumps(codec.encode_request(request).body)
        assert PLANTED not in body, f"{name}{options}: host metadata leaked into the body"
        assert PLANTED not in dumps(codec.encode_response(Response(message=request.messages[-1])).body)
