"""Every caller wire x upstream wire, through the gateway, with the official SDK clients."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import check_rules, read_stream_file, validate_wire

from . import callers
from .conftest import GATEWAY_KEY, UPSTREAMS, WIRES, Running
from .vendor import Answer

PAIRS = [pytest.param(c, u, id=f"{c}->{u}") for c, u in itertools.product(WIRES, WIRES)]


def expected_calls(wire: str, response: il.Response) -> list[tuple[str, dict[str, Any]]]:
    return [(p.name, p.input) for p in response.message.parts if isinstance(p, il.ToolUse)]


def named(calls: list[callers.Call]) -> list[tuple[str, dict[str, Any]]]:
    return [(name, args) for _, name, args in calls]


def wire_ids(contents: list[dict[str, Any]], key: str) -> list[str | None]:
    return [p[key].get("id") for c in contents for p in c["parts"] if key in p]


@pytest.mark.parametrize(("caller", "upstream"), PAIRS)
def test_a_plain_call_answers_with_the_upstreams_tool_calls(gw: Running, caller: str, upstream: str) -> None:
    recorded = UPSTREAMS[upstream].body()
    gw.upstreams[upstream].answer = Answer(json=recorded)
    sdk = callers.client(caller, gw.url, GATEWAY_KEY)

    calls = callers.ask(caller, sdk, f"via-{upstream}")

    assert named(calls) == expected_calls(upstream, il.get_codec(upstream).decode_response(recorded))
    sent = gw.upstreams[upstream].received[-1].body
    assert validate_wire(upstream, "request", sent) == []
    assert sent.get("model", UPSTREAMS[upstream].model) == UPSTREAMS[upstream].model


@pytest.mark.parametrize(("caller", "upstream"), PAIRS)
def test_a_streamed_call_accumulates_in_the_sdk_to_the_upstreams_tool_calls(
    gw: Running, caller: str, upstream: str
) -> None:
    path = UPSTREAMS[upstream].stream_path()
    gw.upstreams[upstream].answer = Answer(sse=path.read_bytes())
    sdk = callers.client(caller, gw.url, GATEWAY_KEY)

    calls = callers.ask(caller, sdk, f"via-{upstream}", stream=True)

    recorded = il.accumulate(il.get_codec(upstream).decode_stream(read_stream_file(path)))
    assert named(calls) == expected_calls(upstream, recorded)
    assert validate_wire(upstream, "request", gw.upstreams[upstream].received[-1].body) == []


@pytest.mark.parametrize(("caller", "upstream"), PAIRS)
def test_a_tool_round_gives_the_upstream_back_its_own_call_ids(gw: Running, caller: str, upstream: str) -> None:
    recorded = UPSTREAMS[upstream].body()
    gw.upstreams[upstream].answer = Answer(json=recorded)
    sdk = callers.client(caller, gw.url, GATEWAY_KEY)
    calls = callers.ask(caller, sdk, f"via-{upstream}")
    accepts = il.get_codec(caller).rules.tool_ids  # type: ignore[attr-defined]
    assert accepts is None or all(accepts.accepts(i) for i, _, _ in calls if i)

    callers.answer(caller, sdk, f"via-{upstream}", calls)

    codec = il.get_codec(upstream)
    sent = gw.upstreams[upstream].received[-1].body
    assert validate_wire(upstream, "request", sent) == []
    assert check_rules(upstream, sent, model=UPSTREAMS[upstream].model) == []
    if upstream == "gemini":
        # Its calls had no id; the ids made up for the caller come back paired (Gemini takes
        # ids on calls and responses alike), or none does when the caller is Gemini itself.
        given = [i for i, _, _ in calls]
        assert wire_ids(sent["contents"], "functionCall") == wire_ids(sent["contents"], "functionResponse")
        assert wire_ids(sent["contents"], "functionCall") in (given, [None] * len(given))
        return
    made = [p.id for p in codec.decode_response(recorded).message.parts if isinstance(p, il.ToolUse)]
    parts = [p for m in codec.decode_request(sent).messages for p in m.parts]
    assert [p.id for p in parts if isinstance(p, il.ToolUse)] == made
    assert [p.tool_use_id for p in parts if isinstance(p, il.ToolResult)] == made
