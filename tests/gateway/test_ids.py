"""Tool call ids across the gateway: encoded without a table where they fit, stored where they
do not, and given back to the upstream by another gateway process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import interlingua as il
from interlingua.gateway import MemoryIdStore, SqliteIdStore, ToolIdMap
from interlingua.gateway._ids import ENCODED, STORED, decode_id, encode_id

from . import callers
from .conftest import GATEWAY_KEY, UPSTREAMS, Running, free_port
from .vendor import Answer

ANTHROPIC_IDS = il.get_codec("anthropic-messages").rules.tool_ids  # type: ignore[attr-defined]
CHAT_IDS = il.get_codec("openai-chat").rules.tool_ids  # type: ignore[attr-defined]


@given(st.text(max_size=80))
def test_an_encoded_id_decodes_to_its_original_in_an_alphanumeric_alphabet(original: str) -> None:
    encoded = encode_id(original)
    assert decode_id(encoded) == original
    assert encoded[len(ENCODED) :].isalnum() and encoded.isascii()


def test_an_id_the_caller_takes_passes_unchanged_and_one_it_refuses_is_encoded() -> None:
    ids = ToolIdMap(MemoryIdStore())
    assert ids.outward("toolu_01Abc", ANTHROPIC_IDS.accepts) == "toolu_01Abc"
    refused = "fc.lookup/7#1"
    encoded = ids.outward(refused, ANTHROPIC_IDS.accepts)
    assert encoded == encode_id(refused) and ANTHROPIC_IDS.accepts(encoded)
    assert ToolIdMap(MemoryIdStore()).inward(encoded) == refused  # another map, no table: stateless


def test_an_id_too_long_to_encode_is_stored_and_found_only_where_the_store_is() -> None:
    store = MemoryIdStore()
    long_id = "call." + "x" * 40
    stored = ToolIdMap(store).outward(long_id, CHAT_IDS.accepts)
    assert stored.startswith(STORED) and CHAT_IDS.accepts(stored) and len(stored) <= 40
    assert ToolIdMap(store).inward(stored) == long_id
    assert ToolIdMap(MemoryIdStore()).inward(stored) == stored  # not known here: left as it came


def test_ids_the_gateway_did_not_make_are_left_alone() -> None:
    ids = ToolIdMap()
    assert [ids.inward(i) for i in ("call_1", f"{ENCODED}!!", ENCODED, f"{STORED}zz")] == [
        "call_1",
        f"{ENCODED}!!",
        ENCODED,
        f"{STORED}zz",
    ]


def test_a_sqlite_store_is_shared_by_two_opened_stores(tmp_path: Path) -> None:
    SqliteIdStore(str(tmp_path / "ids.db")).put("k", "original")
    assert SqliteIdStore(str(tmp_path / "ids.db")).get("k") == "original"
    assert SqliteIdStore(str(tmp_path / "ids.db")).get("other") is None


# --- two gateway processes ------------------------------------------------------------------------


def start_gateway(config: Path, env: dict[str, str]) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    command = [sys.executable, "-m", "interlingua.cli", "serve", "--config", str(config), "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    import socket

    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(process.stderr.read().decode() if process.stderr else "the gateway exited")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return f"http://127.0.0.1:{port}", process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the gateway process did not start")


@pytest.fixture(scope="module")
def two_gateways(running: Running, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Two `interlingua serve` processes on one config, sharing one SQLite id store."""
    tmp_path = tmp_path_factory.mktemp("gateways")
    upstream = running.upstreams["openai-responses"].url + "/v1"
    config = tmp_path / "gateway.toml"
    config.write_text(
        f'[gateway]\nkeys_env = "GW_KEYS"\nid_store = "{tmp_path / "ids.sqlite"}"\n\n'
        f'[[route]]\nmatch = "via-openai-responses"\ncodec = "openai-responses"\nbase_url = "{upstream}"\n'
        f'api_key_env = "GW_UPSTREAM"\nmodel = "gpt-4o"\n'
    )
    env = {**os.environ, "GW_KEYS": GATEWAY_KEY, "GW_UPSTREAM": "sk-upstream"}
    first, a = start_gateway(config, env)
    try:
        second, b = start_gateway(config, env)
    except BaseException:
        a.kill()
        raise
    yield first, second
    for process in (a, b):
        process.terminate()
        process.wait(10)


def with_call_ids(body: dict[str, Any], call_id: str) -> dict[str, Any]:
    output = [{**item, "call_id": call_id} if item.get("type") == "function_call" else item for item in body["output"]]
    return {**body, "output": output}


@pytest.mark.parametrize(
    ("caller", "upstream_id", "made"),
    [
        pytest.param("anthropic-messages", "fc.lookup/2024-06-01#17", ENCODED, id="encoded"),
        pytest.param("openai-chat", "fc.lookup/2024-06-01#17.weather.forecast.hourly", STORED, id="stored"),
    ],
)
def test_the_next_turn_through_another_gateway_process_gives_the_upstream_its_own_id(
    gw: Running, two_gateways: tuple[str, str], caller: str, upstream_id: str, made: str
) -> None:
    first, second = two_gateways
    server = gw.upstreams["openai-responses"]
    server.answer = Answer(json=with_call_ids(UPSTREAMS["openai-responses"].body(), upstream_id))

    calls = callers.ask(caller, callers.client(caller, first, GATEWAY_KEY), "via-openai-responses")
    assert [i[: len(made)] for i, _, _ in calls] == [made]
    callers.answer(caller, callers.client(caller, second, GATEWAY_KEY), "via-openai-responses", calls)

    sent = server.received[-1].body
    assert [item["call_id"] for item in sent["input"] if "call_id" in item] == [upstream_id, upstream_id]
    assert json.dumps(sent).count(made) == 0
