"""openai-responses: an image's ``detail``. The SDK requires it and defaults it to ``"auto"``, so the
encoder writes ``"auto"`` for an image with no echo and the decoder reads ``"auto"`` back as no
echo: IR -> wire -> IR is exact, on the fast and the careful paths alike, while recorded bodies
(with ``"auto"``, another detail, or none) still re-encode as they came."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest

from interlingua import (
    Base64Source,
    Codec,
    DecodeError,
    FileSource,
    Image,
    Message,
    ProviderEcho,
    Request,
    Text,
    UrlSource,
    get_codec,
)
from interlingua.testing import assert_request_round_trip, declining, load_body, real_fixture, validate_wire
from interlingua_openai.responses import OpenAIResponsesCodec, _fast

CODEC = OpenAIResponsesCodec()
AS_CODEC: Codec = get_codec("openai-responses")
FAST = ("encode_message",)  # the common writer; the reader is one
SOURCES = {
    "base64": Base64Source(media_type="image/png", data="iVBORw0KGgo="),
    "url": UrlSource(url="https://example.com/cat.jpg"),
    "file": FileSource(file_id="file-abc123", provider="openai"),
}


def careful_only() -> AbstractContextManager[None]:
    """The common writer declines, so each message goes the general way."""
    return declining(_fast, *FAST)


def _request(*parts: Any) -> Request:
    return Request(model="gpt-4o", messages=[Message(role="user", parts=[Text(text="what is this?"), *parts])])


def _image_blocks(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [block for item in body["input"] for block in item["content"] if block["type"] == "input_image"]


@pytest.mark.parametrize("careful", [False, True], ids=["fast", "careful"])
@pytest.mark.parametrize("kind", SOURCES)
def test_an_image_without_an_echo_comes_back_without_one(kind: str, careful: bool) -> None:
    request = _request(Image(source=SOURCES[kind]))
    with careful_only() if careful else _nothing():
        encoded = CODEC.encode_request(request)
        assert encoded.warnings == []
        assert [block["detail"] for block in _image_blocks(encoded.body)] == ["auto"]
        assert validate_wire("openai-responses", "request", encoded.body) == []
        back = CODEC.decode_request(encoded.body)
    assert back.messages == request.messages
    image = back.messages[0].parts[1]
    assert isinstance(image, Image) and image.provider_echoes == []


@pytest.mark.parametrize("careful", [False, True], ids=["fast", "careful"])
@pytest.mark.parametrize(
    ("detail", "echo"),
    [("auto", None), ("high", None), (None, {"omit": ["detail"]})],
    ids=["auto", "high", "absent"],
)
def test_a_recorded_detail_re_encodes_as_it_came(
    detail: str | None, echo: dict[str, Any] | None, careful: bool
) -> None:
    block: dict[str, Any] = {"type": "input_image", "image_url": "https://example.com/cat.jpg"}
    if detail is not None:
        block["detail"] = detail
    body = {"model": "gpt-4o", "input": [{"role": "user", "content": [block]}]}
    with careful_only() if careful else _nothing():
        request = CODEC.decode_request(body)
        image = request.messages[0].parts[0]
        assert isinstance(image, Image)
        expected = [] if echo is None else [ProviderEcho(provider="openai", data=echo)]
        assert image.provider_echoes == expected
        assert image.detail == ("high" if detail == "high" else None)  # a setting other wires read
        assert _image_blocks(CODEC.encode_request(request).body) == [block]


def test_the_recorded_auto_detail_request_round_trips_exactly() -> None:
    path = real_fixture("openai-responses", "request", "input-image-url.json")
    body = load_body(path)
    assert [block["detail"] for block in _image_blocks(body)] == ["auto"]
    assert_request_round_trip(AS_CODEC, body)
    images = [part for m in CODEC.decode_request(body).messages for part in m.parts if isinstance(part, Image)]
    assert [image.provider_echoes for image in images] == [[]]


@contextmanager
def _nothing() -> Iterator[None]:
    yield


# --- a file's detail: Document.detail ------------------------------------------------------------


@pytest.mark.parametrize("detail", ["auto", "low", "high"])
def test_a_files_detail_is_document_detail_and_goes_back_as_it_came(detail: str) -> None:
    # ResponseInputFileParam.detail (auto, low, high): https://developers.openai.com/api/docs/guides/file-inputs
    body = {"model": "gpt-5", "input": [{"role": "user", "content": [{"type": "input_file", "file_id": "file_1"}]}]}
    body["input"][0]["content"][0]["detail"] = detail
    request = CODEC.decode_request(body)
    document = request.messages[0].parts[0]
    assert (document.type, getattr(document, "detail", None), document.provider_echoes) == ("document", detail, [])
    assert CODEC.encode_request(request).body == body
    chat = get_codec("openai-chat").encode_request(request)
    lost = [w.path for w in chat.warnings]
    assert lost == ([] if detail == "auto" else ["messages[0].parts[0].detail"])  # Chat's file part has no detail


def test_an_unknown_file_detail_is_refused_at_its_path() -> None:
    body = {"model": "gpt-5", "input": [{"role": "user", "content": [{"type": "input_file", "file_id": "f"}]}]}
    body["input"][0]["content"][0]["detail"] = "HIGH"
    with pytest.raises(DecodeError, match=r"input\[0\]\.content\[0\]\.detail"):
        CODEC.decode_request(body)
