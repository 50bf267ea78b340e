"""Every caller wire x upstream wire, through the gateway, with the official SDK clients."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import check_rules, read_stream_file, validate_wire

from . import callers
from .vendor import Answer
from .conftest import GATEWAY_KEY, UPSTREAMS, WIRES, Running

PAIRS = [pytest.param(c, u, id=f"{c}->{u}") for c, u in itertools.product(WIRES, WIRES)]


def expected_calls(wire: str, response: il.Response) -> list[tuple[str, dict[str, Any]]]:
    return [(p.name, p.input) for p in response.message.parts if isinstance(p, il.ToolUse)]


def named(calls: list[callers.Call]) -> list[tuple[str, dict[str, Any]]]:
    return [(name, args) for _, name, args in calls]


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
