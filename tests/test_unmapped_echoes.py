"""An echo key marked ``unmapped`` (a meaning no IR field holds) is reported dropped by every
codec of another provider, at its path in the IR, in a request and in an answer; strict refuses
it; the codec of that provider takes it silently."""

from __future__ import annotations

import pytest

import interlingua as il
from interlingua import LossyEncodeError, Message, ProviderEcho, Request, Response, Text

CODECS = il.codecs()

CLIP = ProviderEcho(provider="acme", data={"clip": {"start": "1s"}, "sig": "x"}, unmapped=["clip"])
"""A made-up provider's echo: ``clip`` carries meaning, ``sig`` is a replay token."""


def _request(echo: ProviderEcho) -> Request:
    marked = Text("what is in the clip?", provider_echoes=[echo])
    return Request(model="m", max_tokens=64, messages=[Message.user("hi", marked)])


@pytest.mark.parametrize("name", CODECS)
def test_every_codec_reports_another_providers_unmapped_key_at_its_path(name: str) -> None:
    codec = il.get_codec(name)
    paths = [w.path for w in codec.encode_request(_request(CLIP)).warnings]
    assert paths.count("messages[0].parts[1].provider_echoes[0].data.clip") == 1
    assert not any(path.endswith(".sig") for path in paths)  # a replay token goes without a word
    with pytest.raises(LossyEncodeError):
        codec.encode_request(_request(CLIP), strict=True)

    answer = Response(message=Message.assistant(Text("a cat", provider_echoes=[CLIP])), stop_reason="end_turn")
    answered = codec.encode_response(answer)
    assert "message.parts[0].provider_echoes[0].data.clip" in [w.path for w in answered.warnings]


@pytest.mark.parametrize("name", CODECS)
def test_a_codec_takes_its_own_providers_unmapped_keys_silently(name: str) -> None:
    codec = il.get_codec(name)
    own = CLIP.model_copy(update={"provider": codec.provider})
    written = getattr(codec, "writes_unmapped", None)
    if written is not None:  # codecs sharing a provider name the keys each one writes
        own = own.model_copy(update={"unmapped": sorted(written)[:1]})
    paths = [w.path for w in codec.encode_request(_request(own)).warnings]
    assert not any(".provider_echoes" in path for path in paths)


@pytest.mark.parametrize("name", CODECS)
def test_an_encode_reports_marked_echoes_on_messages_parts_and_inside_results_in_transcript_order(name: str) -> None:
    # The encode finds marked echoes in its one walk of the transcript; what it reports is what
    # ``WarningSink.unmapped_echoes`` reports of the same messages, in the same order.
    call = il.ToolUse(id="call_1", name="clip_tool", input={})
    result = il.ToolResult(
        tool_use_id="call_1", name="clip_tool", content=[Text("1s in", provider_echoes=[CLIP])], provider_echoes=[CLIP]
    )
    messages = [
        Message(role="user", parts=[Text("cut the clip")], provider_echoes=[CLIP]),
        Message(role="assistant", parts=[call]),
        Message(role="tool", parts=[result]),
    ]
    codec = il.get_codec(name)
    paths = [w.path for w in codec.encode_request(Request(model="m", max_tokens=64, messages=messages)).warnings]
    marked = [path for path in paths if path.endswith(".data.clip")]
    assert marked == [
        "messages[0].provider_echoes[0].data.clip",
        "messages[2].parts[0].provider_echoes[0].data.clip",
        "messages[2].parts[0].content[0].provider_echoes[0].data.clip",
    ]
    reference = il.WarningSink(name)
    reference.unmapped_echoes(messages, own=codec.provider)
    warnings = codec.encode_request(Request(model="m", max_tokens=64, messages=messages)).warnings
    assert [w for w in warnings if w.path in marked] == reference.warnings
