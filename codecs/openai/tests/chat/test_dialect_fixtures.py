"""Every dialect's documented request and answer (fixtures/openai-chat/dialects/<dialect>/): each
decodes to its recorded IR under its own dialect and goes back to the same body (invariant 1);
reasoning arrives as Thinking where the host has a reasoning field; a stream beside them
accumulates to what its answer decodes to (invariant 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua import Thinking, ToolUse, accumulate, parse_sse
from interlingua.testing import assert_request_round_trip, assert_response_round_trip, load_body
from interlingua_openai.chat import OpenAIChatCodec, dialects

ROOT = Path(__file__).resolve().parents[4] / "fixtures" / "openai-chat" / "dialects"
FOLDERS = sorted(p for p in ROOT.iterdir() if p.is_dir())
CASES = [(folder, kind) for folder in FOLDERS for kind in ("request", "response")]


def _ir(path: Path) -> object:
    return json.loads(path.with_name(path.stem + ".ir.json").read_text())


def test_every_dialect_but_openais_own_has_its_fixtures() -> None:
    # The first five had theirs before (real corpus, test_dialects.py); every host added since has a folder.
    older = {"openai", "deepseek", "vllm", "openrouter", "mistral"}
    assert {folder.name for folder in FOLDERS} == set(dialects()) - older


@pytest.mark.parametrize(("folder", "kind"), CASES, ids=[f"{f.name}-{k}" for f, k in CASES])
def test_a_dialect_fixture_decodes_to_its_ir_and_round_trips(folder: Path, kind: str) -> None:
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["dialect"] == folder.name and meta["source"].startswith("https://")
    codec = OpenAIChatCodec(dialect=folder.name)
    path = folder / f"{kind}.json"
    body = load_body(path)
    if kind == "request":
        decoded = codec.decode_request(body).to_json_dict()
        assert_request_round_trip(codec, body)
        messages = codec.decode_request(body).messages
        parts = [part for message in messages if message.role == "assistant" for part in message.parts]
    else:
        response = codec.decode_response(body)
        decoded = response.to_json_dict()
        assert_response_round_trip(codec, body)
        parts = list(response.message.parts)
    assert decoded == _ir(path)
    field = codec.dialect.reasoning_field
    wire = body["messages"] if kind == "request" else [c["message"] for c in body["choices"]]
    sent = [m[field] for m in wire if field and field in m]
    assert [p.text for p in parts if isinstance(p, Thinking)] == sent  # the host's reasoning field is Thinking


def test_ollamas_parallel_calls_all_at_index_zero_stay_two_calls() -> None:
    codec = OpenAIChatCodec(dialect="ollama")
    events = list(parse_sse([(ROOT / "ollama" / "stream.sse").read_bytes()]))
    streamed = accumulate(codec.decode_stream(events))
    calls = [p for p in streamed.message.parts if isinstance(p, ToolUse)]
    expected = [("call_h3llo0py", "hello.py"), ("call_w0rld0py", "world.py")]
    assert [(c.id, c.input["filePath"]) for c in calls] == expected
    answer = codec.decode_response(load_body(ROOT / "ollama" / "stream.response.json"))
    assert streamed.model_copy(update={"warnings": []}) == answer.model_copy(update={"warnings": []})
    # written back, each call has its own index
    chunks = [json.loads(e.data) for e in codec.encode_stream(codec.decode_stream(events)) if e.data != "[DONE]"]
    indexes = [c["index"] for chunk in chunks for ch in chunk["choices"] for c in ch["delta"].get("tool_calls", [])]
    assert sorted(set(indexes)) == [0, 1]
