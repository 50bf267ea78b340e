"""Preserved thinking: a signed block bound to the models that may read it and to the prefix it was
made under is withheld from a target that would refuse or drop it, with a LossyEncode.

The cases are the vendor's documented failures: "The block is bound to a different conversation"
(a 400 after the system prompt or the tools changed, and every later block invalid with it:
https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/fix-bound-to-a-different-conversation),
and the model check ("Claude Fable 5.1 reads blocks from Claude Opus 5 ...; neither Claude Opus 5 nor
Claude Opus 5.5 reads blocks from Claude Fable 5.1"; a block from another model "replayed on Claude
Haiku 5.5 is dropped as model_binding_mismatch": the preserved-thinking pages cited in models.toml).
"""

from __future__ import annotations

import pytest

from interlingua import LossyEncode, Message, Request, Response, Text, Tool, Transcript, get_codec

CODEC = get_codec("anthropic-messages")
SYSTEM = Message(role="system", parts=[Text(text="You are terse.")])
TOOLS = [Tool(name="lookup", input_schema={"type": "object", "properties": {"q": {"type": "string"}}})]


def _answer(model: str, text: str) -> Response:
    """A Claude answer with a signed thinking block, as decoded from the Messages API."""
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [
            {"type": "thinking", "thinking": f"thinking on {text}", "signature": f"sig-{text}"},
            {"type": "text", "text": text},
        ],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    return CODEC.decode_response(body)


def _conversation(producer: str, system: Message = SYSTEM, tools: list[Tool] = TOOLS) -> Transcript:
    """Two turns answered by ``producer`` under ``system`` and ``tools``, recorded as a host does."""
    transcript = Transcript.of([system, Message(role="user", parts=[Text(text="one")])])
    asked = transcript.request(producer, tools=tools)
    transcript = transcript.add_response(_answer(producer, "first"), request=asked)
    transcript = transcript.append(Message(role="user", parts=[Text(text="two")]))
    asked = transcript.request(producer, tools=tools)
    transcript = transcript.add_response(_answer(producer, "second"), request=asked)
    return transcript.append(Message(role="user", parts=[Text(text="three")]))


def _thinking_sent(body: dict[str, object]) -> list[str]:
    messages = body["messages"]
    assert isinstance(messages, list)
    return [b["signature"] for m in messages for b in m["content"] if isinstance(b, dict) and b["type"] == "thinking"]


def test_add_response_records_the_prefix_a_block_was_made_under() -> None:
    transcript = _conversation("claude-fable-5-1")
    echo = transcript.messages[2].parts[0].echo("anthropic")
    assert echo is not None and echo.model == "claude-fable-5-1"
    from interlingua import prefix_digest

    assert echo.prefix == prefix_digest(Request(messages=[SYSTEM], tools=TOOLS))
    assert Transcript.loads(transcript.dumps()) == transcript  # the digest is kept in the file


def test_an_unchanged_prefix_replays_every_block_without_a_warning() -> None:
    encoded = CODEC.encode_request(_conversation("claude-fable-5-1").request("claude-fable-5-1", tools=TOOLS))
    assert _thinking_sent(encoded.body) == ["sig-first", "sig-second"]
    assert encoded.warnings == []


@pytest.mark.parametrize(
    "change",
    [
        {"system": Message(role="system", parts=[Text(text="You are terse. Today is Monday.")])},
        {"tools": [*TOOLS, Tool(name="fetch")]},
    ],
    ids=["system-prompt-rebuilt", "tool-added"],
)
def test_a_changed_prefix_withholds_the_block_and_every_later_one(change: dict[str, object]) -> None:
    transcript = _conversation("claude-fable-5-1")
    tools = change.get("tools", TOOLS)
    system = change.get("system", SYSTEM)
    assert isinstance(system, Message)
    replay = transcript.model_copy(update={"messages": [system, *transcript.messages[1:]]})
    encoded = CODEC.encode_request(replay.request("claude-fable-5-1", tools=tools))  # type: ignore[arg-type]
    assert _thinking_sent(encoded.body) == []
    assert [(w.path, type(w), w.part_type) for w in encoded.warnings] == [  # type: ignore[attr-defined]
        ("messages[2].parts[0]", LossyEncode, "thinking"),
        ("messages[4].parts[0]", LossyEncode, "thinking"),
    ]
    assert "made under another system prompt or toolset" in encoded.warnings[0].message
    assert "refuses every later one" in encoded.warnings[1].message


def test_a_model_that_records_the_prefix_but_does_not_check_it_gets_the_blocks() -> None:
    transcript = _conversation("claude-mythos-5-1")
    replay = transcript.request("claude-mythos-5-1", tools=[*TOOLS, Tool(name="fetch")])
    encoded = CODEC.encode_request(replay)
    assert (_thinking_sent(encoded.body), encoded.warnings) == (["sig-first", "sig-second"], [])


@pytest.mark.parametrize(
    ("producer", "target", "sent"),
    [
        ("claude-opus-5", "claude-fable-5-1", True),  # Fable 5.1 reads Opus 5's blocks
        ("claude-opus-5-5", "claude-fable-5-1", True),  # ... and Opus 5.5's
        ("claude-fable-5-1", "claude-opus-5", False),  # neither reads Fable 5.1's
        ("claude-fable-5-1", "claude-opus-5-5", False),
        ("claude-haiku-5-5", "claude-sonnet-5-5", True),  # Haiku 5.5's replay on other models
        ("claude-sonnet-5-5", "claude-haiku-5-5", False),  # but it reads no other model's
        ("claude-sonnet-4-6", "claude-opus-5", True),  # no binding on either side: replayed as before
        ("claude-fable-5-2", "claude-mythos-5-2", True),  # "Only Claude Fable 5.2 and Claude Mythos 5.2
        ("claude-fable-5-2", "claude-fable-5-1", False),  # read Claude Fable 5.2 thinking blocks"
    ],
)
def test_a_block_goes_only_to_a_model_that_reads_it(producer: str, target: str, sent: bool) -> None:
    transcript = _conversation(producer)
    encoded = CODEC.encode_request(transcript.request(target, tools=TOOLS))
    assert _thinking_sent(encoded.body) == (["sig-first", "sig-second"] if sent else [])
    paths = [w.path for w in encoded.warnings if isinstance(w, LossyEncode) and w.part_type == "thinking"]
    assert paths == ([] if sent else ["messages[2].parts[0]", "messages[4].parts[0]"])
    if not sent:
        assert "read" in encoded.warnings[0].message and producer in encoded.warnings[0].message
