"""The IR: JSON round trips for every type, constructors, helpers, and Usage arithmetic."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

import interlingua as il
from interlingua.testing import strategies as s

CONTENT_PART: TypeAdapter[Any] = TypeAdapter(il.ContentPart)


def round_trips(model: Any) -> None:
    data = model.to_json_dict()
    again = type(model).model_validate(data)
    assert again == model
    assert again.to_json_dict() == data


@settings(max_examples=300, deadline=None)
@given(s.parts())
def test_every_part_type_round_trips_through_json(part: il.ContentPart) -> None:
    data = part.to_json_dict()
    assert data["type"] == part.type
    assert CONTENT_PART.validate_python(data) == part
    round_trips(part)


@settings(max_examples=100, deadline=None)
@given(s.requests(well_formed=False))
def test_any_request_round_trips_through_json(request: il.Request) -> None:
    round_trips(request)


@settings(max_examples=100, deadline=None)
@given(s.requests())
def test_well_formed_request_round_trips_through_json_text(request: il.Request) -> None:
    assert il.Request.model_validate_json(request.model_dump_json(exclude_defaults=True)) == request


@settings(max_examples=100, deadline=None)
@given(s.responses())
def test_response_round_trips_through_json(response: il.Response) -> None:
    round_trips(response)


@given(s.usages(), s.usages(), s.usages())
def test_usage_addition_is_associative_and_sums_fields(a: il.Usage, b: il.Usage, c: il.Usage) -> None:
    assert (a + b) + c == a + (b + c)
    assert (a + b).input_tokens == a.input_tokens + b.input_tokens
    assert sum([a, b]) == a + b


def test_usage_none_means_not_reported_and_adds_as_absent() -> None:
    reported = il.Usage(input_tokens=10, cache_read_tokens=4, extra={"x": 1})
    silent = il.Usage(input_tokens=5)
    total = reported + silent
    assert total.cache_read_tokens == 4
    assert total.cache_write_tokens is None
    assert total.extra == {"x": 1}
    assert (silent + silent).cache_read_tokens is None


@given(st.sampled_from([w for w in (il.LossyEncode, il.UnsupportedSetting, il.LossyDecode)]))
def test_warnings_round_trip_inside_a_response(kind: type[il.ModelWarning]) -> None:
    extra: dict[str, Any] = {"part_type": "audio", "action": "dropped"} if kind is il.LossyEncode else {}
    if kind is il.UnsupportedSetting:
        extra = {"setting": "seed"}
    warning = kind(codec="acme", path="messages[0].parts[1]", message="no audio", **extra)
    round_trips(il.Response(warnings=[warning]))  # type: ignore[list-item]  # each kind is an AnyWarning


def test_hand_written_transcript_reads_naturally() -> None:
    request = il.Request(
        model="acme-large",
        messages=[
            il.Message.system("You are terse."),
            il.Message.user("What is in this picture?", il.Image(il.MediaSource.from_url("https://x/cat.png"))),
            il.Message.assistant(il.ToolUse("call_1", "describe", {"detail": "high"})),
            il.Message.tool(il.ToolResult("call_1", "describe", "a cat")),
        ],
        tools=[il.Tool(name="describe", input_schema={"type": "object"})],
    )
    assert request.messages[1].parts[0] == il.Text(text="What is in this picture?")
    assert request.messages[1].text == "What is in this picture?"
    assert request.to_json_dict()["messages"][2]["parts"][0] == {
        "type": "tool_use",
        "id": "call_1",
        "name": "describe",
        "input": {"detail": "high"},
    }


def test_echo_helpers_touch_only_their_provider() -> None:
    part = il.Thinking("hmm").with_echo("acme", {"signature": "a"}).with_echo("zeta", {"sig": "z"})
    replaced = part.with_echo("acme", {"signature": "b"}, model="acme-2")
    assert replaced.echo("acme") == il.ProviderEcho(provider="acme", data={"signature": "b"}, model="acme-2")
    assert replaced.echo("zeta") == part.echo("zeta")
    assert replaced.without_echo("acme").echo("acme") is None
    assert part.echo("acme") == il.ProviderEcho(provider="acme", data={"signature": "a"})  # frozen original


def test_cache_control_helper_and_frozen_models() -> None:
    part = il.Text("ctx").with_cache_control("1h")
    assert part.cache_control == il.CacheControl(ttl="1h")
    with pytest.raises(ValidationError):
        part.text = "changed"  # type: ignore[misc]  # frozen on purpose


def test_unknown_keys_and_types_are_rejected() -> None:
    with pytest.raises(ValidationError):
        CONTENT_PART.validate_python({"type": "text", "text": "a", "colour": "red"})
    with pytest.raises(ValidationError):
        CONTENT_PART.validate_python({"type": "hologram"})


def test_media_source_constructors() -> None:
    assert il.MediaSource.from_base64("image/png", "AAAA").to_json_dict() == {
        "type": "base64",
        "media_type": "image/png",
        "data": "AAAA",
    }
    assert il.MediaSource.from_text("hello").to_json_dict() == {"type": "text", "text": "hello"}
    assert il.MediaSource.from_file_id("file-1", provider="acme").type == "file"


def test_construct_never_shares_a_default_between_instances() -> None:
    from interlingua import Response, Text
    from interlingua.kit import construct

    first, second = construct(Response), construct(Response)
    assert first.usage == second.usage and first.usage is not second.usage
    assert first.message is not second.message and first.usage.extra is not second.usage.extra
    assert construct(Text, text="a").citations is not construct(Text, text="b").citations
