"""A tool result whose name is not its call's (issue 23's last silent drop): the targets whose
results answer a call by id alone report the lost name at ``messages[i].parts[j].name``; Gemini
sends it as ``functionResponse.name``; Responses sends ``name`` where the item it decoded had one."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua as il

NO_NAME = ("anthropic-messages", "openai-chat")

CLOSED = {"type": "object", "additionalProperties": False}  # strict mode: objects are closed
LOOKUP = {"type": "function", "name": "lookup", "parameters": CLOSED, "strict": True}


def responses_body(output_name: str | None) -> dict[str, Any]:
    output: dict[str, Any] = {"type": "function_call_output", "call_id": "call_1", "output": "42"}
    if output_name is not None:
        output["name"] = output_name
    return {
        "model": "gpt-5",
        "tools": [LOOKUP],
        "input": [
            {"role": "user", "content": "hi"},
            {"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": "{}"},
            output,
        ],
    }


def gemini_body(response_name: str) -> dict[str, Any]:
    return {
        "tools": [{"functionDeclarations": [{"name": "lookup", "parametersJsonSchema": {"type": "object"}}]}],
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"id": "c1", "name": "lookup", "args": {}}, "thoughtSignature": "c2ln"}],
            },
            # With its call's id: without one, Gemini pairs a response with the open call of its name.
            {
                "role": "user",
                "parts": [{"functionResponse": {"id": "c1", "name": response_name, "response": {"result": "42"}}}],
            },
        ],
    }


def lost_name(codec: str, path: str, name: str, called: str) -> il.LossyEncode:
    return il.LossyEncode(
        codec=codec,
        path=path,
        message=f"a result answers its call by id here, with no name of its own: {name!r} goes as {called!r}'s",
        part_type="tool_result",
        action="dropped",
    )


def transcript(*messages: il.Message) -> il.Request:
    return il.Request(model="m", messages=[il.Message(role="user", parts=[il.Text("hi")]), *messages])


def call(call_id: str, name: str) -> il.Message:
    return il.Message(role="assistant", parts=[il.ToolUse(call_id, name, {})])


def result(call_id: str, name: str) -> il.Message:
    return il.Message(role="tool", parts=[il.ToolResult(call_id, name, "42")])


@pytest.mark.parametrize("target", NO_NAME)
def test_a_responses_output_named_unlike_its_call_is_reported_where_results_have_no_name(target: str) -> None:
    request = il.get_codec("openai-responses").decode_request(responses_body("search"))
    encoded = il.get_codec(target).encode_request(request)
    assert encoded.warnings == [lost_name(target, "messages[2].parts[0].name", "search", "lookup")]
    assert "search" not in str(encoded.body)  # the result goes as lookup's, by its id


@pytest.mark.parametrize("target", NO_NAME)
def test_strict_refuses_the_lost_name(target: str) -> None:
    request = il.get_codec("openai-responses").decode_request(responses_body("search"))
    with pytest.raises(il.LossyEncodeError) as raised:
        il.get_codec(target).encode_request(request, strict=True)
    assert raised.value.warnings == [lost_name(target, "messages[2].parts[0].name", "search", "lookup")]


@pytest.mark.parametrize("output_name", [None, "lookup"])
@pytest.mark.parametrize("target", [*NO_NAME, "gemini", "openai-responses"])
def test_a_result_named_as_its_call_gives_no_warning(target: str, output_name: str | None) -> None:
    request = il.get_codec("openai-responses").decode_request(responses_body(output_name))
    warnings = il.get_codec(target).encode_request(request).warnings
    assert [w for w in warnings if w.path.startswith("messages")] == []


@pytest.mark.parametrize("output_name", [None, "lookup", "search"])
def test_responses_round_trips_a_named_output_without_a_warning(output_name: str | None) -> None:
    codec = il.get_codec("openai-responses")
    body = responses_body(output_name)
    encoded = codec.encode_request(codec.decode_request(body))
    assert (encoded.body, encoded.warnings) == (body, [])


def test_gemini_sends_a_response_name_unlike_its_call_as_it_is() -> None:
    codec = il.get_codec("gemini")
    body = gemini_body("search")
    request = codec.decode_request(body)
    assert request.messages[2].parts[0] == il.ToolResult("c1", "search", {"result": "42"})
    encoded = codec.encode_request(request)
    assert (encoded.body, encoded.warnings) == (body, [])


@pytest.mark.parametrize("target", [*NO_NAME, "openai-responses"])
def test_a_gemini_response_named_unlike_its_call_is_reported_elsewhere(target: str) -> None:
    request = il.get_codec("gemini").decode_request(gemini_body("search"))
    warnings = il.get_codec(target).encode_request(request).warnings
    # Beside it, the JSON response is reported as sent as text (tool_result.json).
    assert [w for w in warnings if w.path.endswith(".name")] == [
        lost_name(target, "messages[2].parts[0].name", "search", "lookup")
    ]


@pytest.mark.parametrize("target", NO_NAME)
def test_a_result_answers_the_latest_call_with_its_id(target: str) -> None:
    """Servers that number calls per turn reuse ids: each result is held to the call before it."""
    request = transcript(call("c1", "lookup"), result("c1", "lookup"), call("c1", "search"), result("c1", "lookup"))
    assert il.get_codec(target).encode_request(request).warnings == [
        lost_name(target, "messages[4].parts[0].name", "lookup", "search")
    ]


def test_a_moved_result_is_reported_once_for_the_move_and_once_for_its_name() -> None:
    """The repair path: both at the request as given (the core's merge keeps message order; of
    two warnings at one part, it puts the one about a field first)."""
    late = il.Message(role="user", parts=[il.Text("wait")])
    request = transcript(call("c1", "lookup"), late, result("c1", "search"))
    warnings = il.get_codec("anthropic-messages").encode_request(request).warnings
    assert [(type(w).__name__, w.path) for w in warnings] == [
        ("LossyEncode", "messages[3].parts[0].name"),
        ("LossyEncode", "messages[3].parts[0]"),
    ]
    assert warnings[0] == lost_name("anthropic-messages", "messages[3].parts[0].name", "search", "lookup")
    assert warnings[1].message == "moved up to follow its call"


def test_an_orphan_result_has_no_call_to_differ_from() -> None:
    request = transcript(result("c9", "search"))
    warnings = il.get_codec("openai-chat").encode_request(request).warnings
    assert [w.path for w in warnings] == ["messages[1].parts[0]"]  # sent as text, with its name
