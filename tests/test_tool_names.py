"""Tool names and call ids a target refuses cross every wire and come back as given
(interlingua._tool_names, interlingua._tool_ids): MCP servers' tools, namespaced as an MCP host
names them (``github/search_issues``), run a tool round on every wire over FakeVendor, answer
and stream, with each body held to the wire's oracle; a body encoded in one process decodes to
the same names and ids in another."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interlingua as il
from interlingua._tool_names import ToolNames, original_name
from interlingua.testing import FakeVendor, Reply

WIRES = ["anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse", "cohere-chat"]
SETTINGS = {"bedrock-converse": {"aws_region": "us-east-1"}}
MCP = Path(__file__).resolve().parents[1] / "fixtures" / "schemas" / "mcp"
SERVERS = sorted(p.stem for p in MCP.glob("*.json"))


def _names(wire: str) -> ToolNames:
    names = il.get_codec(wire).rules.names  # type: ignore[attr-defined]  # every codec here is a CodecBase
    assert names is not None, f"{wire} states no tool-name rule"
    return names


def _mcp_tools(server: str) -> list[il.Tool]:
    """The server's tools as an MCP host offers them to a model: ``server/tool``."""
    listed = json.loads((MCP / f"{server}.json").read_text())["tools"]
    return [il.Tool.from_mcp(t).model_copy(update={"name": f"{server}/{t['name']}"}) for t in listed]


@pytest.mark.parametrize("wire", WIRES)
@settings(max_examples=150, deadline=None)
@given(name=st.text(min_size=1, max_size=40))
def test_any_name_goes_out_in_a_form_the_wire_takes_and_reads_back(wire: str, name: str) -> None:
    names = _names(wire)
    sent = names.encode(name)
    assert names.accepts(sent) and original_name(sent) == name
    if names.accepts(name) and "_x" not in name:
        assert sent == name  # a name the target takes goes as it is


@pytest.mark.parametrize(
    ("wire", "name", "sent"),
    [
        ("anthropic-messages", "github/search_issues", "github_x2fsearch_issues"),
        ("openai-responses", "fs.read-file", "fs_x2eread-file"),
        ("gemini", "1password/get", "_x31password_x2fget"),
        ("gemini", "fs.read_file", "fs.read_file"),  # Gemini takes dots
        ("cohere-chat", "get-weather", "get_x2dweather"),  # Cohere takes no hyphen
        ("bedrock-converse", "天気", "_xe5_xa4_xa9_xe6_xb0_x97"),
        ("openai-chat", "tool_x2fa", "tool_x5fx2fa"),  # taken, but it would read back as tool/a
        ("openai-chat", "run_xdebug", "run_xdebug"),  # taken, and reads back as itself (0xde alone is no UTF-8)
    ],
)
def test_names_as_sent(wire: str, name: str, sent: str) -> None:
    assert _names(wire).encode(name) == sent and original_name(sent) == name


def test_a_name_too_long_once_escaped_is_cut_with_a_digest_and_read_back_in_this_process() -> None:
    name = "mcp__workspace__" + "a" * 60 + "/tool"
    sent = _names("openai-chat").encode(name)
    assert len(sent) == 64 and sent.startswith("mcp__workspace__aaa") and original_name(sent) == name


def test_two_tools_that_would_go_out_under_one_name_are_an_encode_error() -> None:
    # Two names whose cut forms share their first 56 characters and their 36-bit digest (found by
    # trying suffixes; at random two of a request's long names collide once in ~10^10 pairs).
    head = "mcp__workspace_server__" + "a" * 50 + "/tool_"
    tools = [il.Tool(name=head + suffix) for suffix in ("438572", "719932")]
    request = il.Request(model="m", messages=[il.Message.user("hi")], tools=tools)
    with pytest.raises(il.EncodeError) as err:
        il.get_codec("anthropic-messages").encode_request(request)
    assert err.value.path == "tools[1].name" and "would both be sent as" in err.value.reason
    il.get_codec("gemini").encode_request(request)  # 128 characters: Gemini takes both escaped, uncut


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("declared", [False, True], ids=["calls-only", "tools-too"])
def test_names_on_calls_and_results_go_out_escaped_once_with_or_without_the_tool_declared(
    wire: str, declared: bool
) -> None:
    # The encode reads the calls' and results' names in its walk of the turn rules: a name only
    # a call and its result hold is sent escaped too, and one a tool also holds is escaped once.
    name = "github/search"
    call = il.ToolUse(id="call_1", name=name, input={"q": "bug"})
    messages = [
        il.Message.user("Find the bug"),
        il.Message(role="assistant", parts=[call]),
        il.Message(role="tool", parts=[il.ToolResult(tool_use_id="call_1", name=name, content="3 issues")]),
    ]
    tools = [il.Tool(name=name, input_schema={"type": "object"})] if declared else []
    codec = il.get_codec(wire)
    body = codec.encode_request(il.Request(model="m-1", max_tokens=20, messages=messages, tools=tools)).body
    sent = _names(wire).encode(name)
    assert sent != name and name not in _all_names(body) and sent in _all_names(body)
    back = codec.decode_request(body, model="m-1")
    calls = [p for m in back.messages for p in m.parts if isinstance(p, il.ToolUse)]
    assert [(c.name, c.input) for c in calls] == [(name, {"q": "bug"})]
    results = [p for m in back.messages for p in m.parts if isinstance(p, il.ToolResult)]
    assert [r.name for r in results] == [name]  # wires that send no result name take the call's


def _client(fake: FakeVendor) -> il.Client:
    return il.Client(fake.wire, api_key="k", base_url=fake.base_url, settings=SETTINGS.get(fake.wire), max_retries=0)


def _all_names(value: Any) -> list[str]:
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "name" and isinstance(item, str):
                found.append(item)
            else:
                found += _all_names(item)
    elif isinstance(value, list):
        for item in value:
            found += _all_names(item)
    return found


@pytest.mark.parametrize("wire", WIRES)
def test_mcp_servers_tools_run_a_tool_round_on_every_wire_with_names_restored(wire: str) -> None:
    tools = [t for server in SERVERS for t in _mcp_tools(server)]
    question = il.Request(model="m-1", max_tokens=200, messages=[il.Message.user("Find issue 41")], tools=tools)
    names = _names(wire)
    with FakeVendor(wire, validate=True) as fake, _client(fake) as client:
        client.send(question)  # what the vendor sees: every name in a form it takes
        seen = set(_all_names(fake.received[-1].body))
        for tool in tools:
            assert names.encode(tool.name) in seen and (names.accepts(tool.name) or tool.name not in seen)
        # The model calls a tool by the name it saw; the answer and the stream give the original back.
        wire_name = names.encode("github/search_issues")
        assert wire_name in seen
        fake.reply(Reply.tool_call(wire_name, {"q": "41"}, id="call_41"), Reply.tool_call(wire_name, {"q": "41"}))
        answer = client.send(question)
        (call,) = [p for p in answer.message.parts if isinstance(p, il.ToolUse)]
        assert call.name == "github/search_issues" and call.input == {"q": "41"}
        with client.stream(question) as events:
            streamed = events.response()
        assert [p.name for p in streamed.message.parts if isinstance(p, il.ToolUse)] == ["github/search_issues"]
        # The round closes: the call and its result go back (names mapped again), the vendor answers.
        result = il.ToolResult(call.id, call.name, [il.Text("issue 41: tools from anywhere")])
        follow = question.model_copy(
            update={"messages": [*question.messages, answer.message, il.Message(role="tool", parts=[result])]}
        )
        fake.reply(Reply.text("Issue 41 is about tools."))
        final = client.send(follow)
        assert final.message.parts[0].text == "Issue 41 is about tools."  # type: ignore[union-attr]
        assert fake.problems == []
        resent = fake.requests[-1]  # the vendor's body decoded: names back as the host gave them
        assert [t.name for t in resent.tools] == [t.name for t in tools]  # type: ignore[union-attr]
        assert [p.name for m in resent.messages for p in m.parts if isinstance(p, il.ToolUse)] == [call.name]


FOREIGN_IDS = ["call.1|fc:2", "", "toolu_01A09q90qw90lq917835lq9"]
"""A call id with characters most wires refuse, an empty one (Gemini's calls may carry none), and
a plain one."""


def _transcript() -> il.Request:
    messages: list[il.Message] = [il.Message.user("go")]
    for tool_id in FOREIGN_IDS:
        messages.append(il.Message.assistant(il.ToolUse(tool_id, "github/search_issues", {"q": tool_id})))
        messages.append(il.Message.tool(il.ToolResult(tool_id, "github/search_issues", "none")))
    messages.append(il.Message.user("thanks"))
    return il.Request(model="m-1", messages=messages, tools=[il.Tool(name="github/search_issues")])


_RESUME = """
import json, sys
import interlingua as il
out = {}
for wire, body in json.load(sys.stdin).items():
    request = il.get_codec(wire).decode_request(body)
    out[wire] = [[p.id, p.name] for m in request.messages for p in m.parts if isinstance(p, il.ToolUse)]
print(json.dumps(out))
"""


def test_a_body_encoded_here_decodes_to_the_same_ids_and_names_in_a_new_process() -> None:
    wires = WIRES
    bodies = {wire: il.get_codec(wire).encode_request(_transcript()).body for wire in wires}
    for wire in wires:  # every wire rewrites the name; Anthropic, Bedrock and Responses some ids
        assert "github/search_issues" not in _all_names(bodies[wire]), wire
    done = subprocess.run(
        [sys.executable, "-c", _RESUME], input=json.dumps(bodies), capture_output=True, text=True, check=True
    )
    expected = [[tool_id, "github/search_issues"] for tool_id in FOREIGN_IDS]
    assert json.loads(done.stdout) == dict.fromkeys(wires, expected)


@pytest.mark.parametrize("wire", [w for w in WIRES if w != "cohere-chat"])  # Cohere forces no tool by name
def test_a_forced_tool_goes_out_under_the_name_its_tool_went_and_reads_back(wire: str) -> None:
    codec = il.get_codec(wire)
    request = il.Request(
        model="m-1",
        messages=[il.Message.user("find it")],
        tools=[il.Tool(name="github/search_issues")],
        tool_choice=il.ToolChoice(name="github/search_issues"),
    )
    body = codec.encode_request(request).body
    assert "github/search_issues" not in json.dumps(body) and json.dumps(body).count("github_x2fsearch_issues") == 2
    assert codec.decode_request(body).tool_choice == il.ToolChoice(name="github/search_issues")
