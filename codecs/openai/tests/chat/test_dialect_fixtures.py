"""Every dialect's documented request and answer (fixtures/openai-chat/dialects/<dialect>/): each
decodes to its recorded IR under its own dialect and goes back to the same body (invariant 1);
reasoning arrives as Thinking where the host has a reasoning field; a stream beside them
accumulates to what its answer decodes to (invariant 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua import Thinking, ToolUse, accumulate, parse_sse
from interlingua.testing import (
    assert_request_round_trip,
    assert_response_round_trip,
    corpus_missing,
    load_body,
    pydantic_ai_fixtures_dir,
    skip_without_corpus,
)
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


# --- recorded traffic: the pydantic-ai corpus's calls to these hosts, under their dialects ----------


def _host(url: str) -> str:
    return url.split("://", 1)[-1].split("/", 1)[0]


HOSTS = {_host(d.base_url): name for name, d in dialects().items() if "{" not in d.base_url and name != "openai"}


def _recorded() -> list[tuple[str, Path]]:
    """(dialect, case) for each accepted pydantic-ai openai-chat call to a host a dialect names."""
    if corpus_missing("pydantic-ai") is not None:
        return []
    found = []
    for meta_file in sorted((pydantic_ai_fixtures_dir() / "openai-chat").glob("*/meta.json")):
        meta = json.loads(meta_file.read_text())
        name = HOSTS.get(meta.get("host", ""))
        if name is not None and 200 <= meta["status"] < 300 and (meta_file.parent / "response.json").exists():
            found.append((name, meta_file.parent))
    return found


RECORDED = _recorded()


def test_the_corpus_holds_calls_to_the_new_hosts() -> None:
    skip_without_corpus("pydantic-ai")
    assert {"groq", "cerebras", "gemini-openai"} <= {name for name, _ in RECORDED}


@pytest.mark.parametrize(("dialect", "case"), RECORDED, ids=[f"{d}-{c.name}" for d, c in RECORDED])
def test_a_recorded_call_round_trips_under_its_hosts_dialect(dialect: str, case: Path) -> None:
    codec = OpenAIChatCodec(dialect=dialect)
    assert_request_round_trip(codec, load_body(case / "request.json"))
    answer = load_body(case / "response.json")
    assert_response_round_trip(codec, answer)
    field = codec.dialect.reasoning_field
    said = [c["message"][field] for c in answer.get("choices", []) if field and c["message"].get(field)]
    thoughts = [p.text for p in codec.decode_response(answer).message.parts if isinstance(p, Thinking)]
    assert thoughts == said
