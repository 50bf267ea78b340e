"""Codecs and the CLI's converter pickle, and a plain function over a Dask bag agrees with the CLI.

The engines' adapters with the loss report (``interlingua.dist``) are tested on real clusters in
tests/dist; this is the floor they stand on: any engine can ship a codec to its workers.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

import interlingua as il
from interlingua.cli.conversion import Converter
from interlingua.cli.datasets import LineJob

from .conftest import CLI_FIXTURES, run_cli

MIXED = CLI_FIXTURES / "mixed-lines.jsonl"
AGENT_TURN = CLI_FIXTURES / "agent-turn.openai-chat.json"


def to_anthropic(line: str) -> str:
    """The CLI guide's function: pure, so any engine can ship it to workers."""
    request = il.get_codec("openai-chat").decode_request(json.loads(line))
    return il.kit.dumps(il.get_codec("anthropic-messages").encode_request(request, reasoning="drop").body)


def test_codecs_converters_and_conversion_functions_pickle() -> None:
    body = json.loads(AGENT_TURN.read_text())
    request = il.get_codec("openai-chat").decode_request(body)
    for name in il.codecs():
        codec = pickle.loads(pickle.dumps(il.get_codec(name)))
        assert (codec.name, codec.capabilities) == (name, il.get_codec(name).capabilities)
        assert codec.encode_request(request).body == il.get_codec(name).encode_request(request).body
    mistral = pickle.loads(pickle.dumps(il.get_codec("openai-chat", dialect="mistral")))
    assert mistral.provider == "mistral"
    converter = pickle.loads(pickle.dumps(Converter(target="gemini", reasoning="as_text")))
    assert converter.convert(body).output == Converter(target="gemini").convert(body).output
    job = pickle.loads(pickle.dumps(LineJob(Converter(target="gemini"), strict=True)))
    assert job(1, AGENT_TURN.read_bytes().replace(b"\n", b"")).output is not None
    assert pickle.loads(pickle.dumps(to_anthropic))(json.dumps(body)) == to_anthropic(json.dumps(body))


def test_the_dask_recipe_matches_the_cli(tmp_path: Path) -> None:
    bag = pytest.importorskip("dask.bag")
    import dask

    lines = [json.dumps(json.loads(AGENT_TURN.read_text()))] * 3 + MIXED.read_text().splitlines()[:2]
    source = tmp_path / "chats.jsonl"
    source.write_text("\n".join(lines) + "\n")
    with dask.config.set(scheduler="synchronous"):
        bag.read_text(str(source)).map(str.strip).map(to_anthropic).to_textfiles(str(tmp_path / "claude-*.jsonl"))
        convert = Converter(target="anthropic-messages")
        mixed = bag.read_text(str(MIXED)).map(lambda line: convert.convert(json.loads(line)).output).compute()
    written = [json.loads(line) for line in (tmp_path / "claude-0.jsonl").read_text().splitlines()]
    cli = run_cli("convert", source, "--to", "anthropic-messages")
    assert cli.code == 0, cli.stderr
    assert written == cli.lines()
    assert mixed == run_cli("convert", MIXED, "--to", "anthropic-messages").lines()
