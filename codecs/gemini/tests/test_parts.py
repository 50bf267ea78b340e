"""Parts: decoders read with paths relative to the part and the loops name where it sits only on
error; encoders skip paths unless a part warns. Both must still name the exact place."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua as il
from interlingua import (
    Citation,
    CitationSource,
    Document,
    LossyEncode,
    MediaSource,
    Message,
    Request,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
)

CODEC = il.get_codec("gemini")
IMAGE = {"inlineData": {"mimeType": "image/png", "data": "AAAA"}}
NO_MIME = {"inlineData": {"data": "A"}}


def _turns(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "hi"}]}, {"role": "model", "parts": list(parts)}]}


@pytest.mark.parametrize(
    ("body", "path", "reason"),
    [
        (_turns({"text": "a"}, {"functionCall": {"args": {}}}), "contents[1].parts[1].functionCall.name", "missing"),
        (_turns({"functionCall": {"name": "f", "args": [1]}}), "contents[1].parts[0].functionCall.args", "object"),
        (_turns({"functionCall": {"name": "f", "id": 3}}), "contents[1].parts[0].functionCall.id", "string"),
        (_turns({"text": None}), "contents[1].parts[0].text", "got null"),
        (_turns({"inlineData": {"mimeType": "image/png"}}), "contents[1].parts[0].inlineData.data", "missing"),
        (_turns({"fileData": {"mimeType": "video/mp4"}}), "contents[1].parts[0].fileData.fileUri", "missing"),
        (
            _turns({"fileData": {"fileUri": "gs://x", "mimeType": 4}}),
            "contents[1].parts[0].fileData.mimeType",
            "string",
        ),
        (
            _turns(
                {"functionResponse": {"name": "f", "response": {}, "parts": [IMAGE, {"inlineData": {"data": "A"}}]}}
            ),
            "contents[1].parts[0].functionResponse.parts[1].inlineData.mimeType",
            "missing",
        ),
        (
            _turns({"functionResponse": {"name": "f", "response": "x"}}),
            "contents[1].parts[0].functionResponse.response",
            "object",
        ),
        (_turns("text"), "contents[1].parts[0]", "object"),  # type: ignore[arg-type]
        ({"contents": [{"role": 5, "parts": []}]}, "contents[0].role", "string"),
        ({"contents": [{"role": "user", "parts": {"text": "a"}}]}, "contents[0].parts", "array"),
        ({"systemInstruction": {"parts": [{"text": 5}]}, "contents": []}, "systemInstruction.parts[0].text", "string"),
        ({"systemInstruction": [], "contents": []}, "systemInstruction", "object"),
    ],
)
def test_bad_part_names_its_whole_path(body: dict[str, Any], path: str, reason: str) -> None:
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_request(body)
    assert (caught.value.codec, caught.value.path) == ("gemini", path)
    assert reason in caught.value.reason


def test_bad_part_in_a_snake_case_body_is_named_in_camel_case() -> None:
    body = _turns({"function_call": {"args": {}}}, {"thought_signature": "s", "text": "a"})
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_request(body)
    assert caught.value.path == "contents[1].parts[0].functionCall.name"


def test_bad_part_of_a_response_names_its_path() -> None:
    body = {"candidates": [{"content": {"role": "model", "parts": [{"text": "a"}, {"inlineData": {"data": "A"}}]}}]}
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_response(body)
    assert caught.value.path == "candidates[0].content.parts[1].inlineData.mimeType"


def test_warnings_name_the_part_that_warned_and_only_once() -> None:
    cited = Text("b", citations=[Citation(source=CitationSource(type="url", url="https://x.test"))])
    document = Document(MediaSource.from_base64("application/pdf", "AAAA"), name="a.pdf")
    result = ToolResult("c1", "f", [Text("ok"), Thinking("hmm")])
    request = Request(
        messages=[
            Message.user("q"),
            Message.assistant(Text("a"), cited, Text("c"), ToolUse("c1", "f", {})),
            Message.tool(result),
            Message.user(Text("d"), document),
        ]
    )
    encoded = CODEC.encode_request(request)
    assert [(w.path, w.part_type) for w in encoded.warnings if isinstance(w, LossyEncode)] == [
        ("messages[1].parts[1]", "citations"),
        ("messages[2].parts[0].content[1]", "thinking"),
        ("messages[3].parts[1]", "document"),
    ]
    contents = encoded.body["contents"]
    assert [p.get("text") for p in contents[1]["parts"][:3]] == ["a", "b", "c"]
    assert contents[2]["parts"][0]["functionResponse"]["response"] == {"output": "ok"}
    assert contents[3]["parts"][1] == {"inlineData": {"mimeType": "application/pdf", "data": "AAAA"}}


def test_a_subclass_of_a_common_part_type_is_still_encoded() -> None:
    class Note(Text):
        pass

    body = CODEC.encode_request(Request(messages=[Message.user(Note("n"))])).body
    assert body["contents"] == [{"role": "user", "parts": [{"text": "n"}]}]
