"""Inline images of a type OpenAI does not take (HEIC, TIFF) are left out with a warning on both
wires; the four it takes, and web URLs, pass."""

from __future__ import annotations

import pytest

import interlingua as il


@pytest.mark.parametrize("wire", ["openai-chat", "openai-responses"])
@pytest.mark.parametrize("media_type", ["image/heic", "image/tiff"])
def test_an_image_openai_refuses_is_dropped_with_a_warning(wire: str, media_type: str) -> None:
    image = il.Image(il.MediaSource.from_base64(media_type, "AAAA"))
    request = il.Request(model="gpt-4.1", messages=[il.Message(role="user", parts=[il.Text("what is it?"), image])])
    encoded = il.get_codec(wire).encode_request(request)
    assert [(w.path, w.part_type, w.action) for w in encoded.warnings] == [  # type: ignore[union-attr]
        ("messages[0].parts[1]", "image", "dropped")
    ]
    assert "AAAA" not in str(encoded.body)
    with pytest.raises(il.LossyEncodeError):
        il.get_codec(wire).encode_request(request, strict=True)


@pytest.mark.parametrize("wire", ["openai-chat", "openai-responses"])
@pytest.mark.parametrize("media_type", ["image/png", "image/jpeg", "image/webp", "image/gif"])
def test_the_image_types_openai_takes_pass(wire: str, media_type: str) -> None:
    image = il.Image(il.MediaSource.from_base64(media_type, "AAAA"))
    request = il.Request(model="gpt-4.1", messages=[il.Message(role="user", parts=[il.Text("what is it?"), image])])
    encoded = il.get_codec(wire).encode_request(request)
    assert encoded.warnings == [] and f"data:{media_type};base64,AAAA" in str(encoded.body)
