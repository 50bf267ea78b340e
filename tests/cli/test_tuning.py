"""Fine-tuning lines through ``interlingua convert``: every tuning format read and written back
exactly, the losses between formats reported at their paths, detection, and a dataset run.

The lines in fixtures/tuning/<format>/ are the vendors' documented examples: OpenAI's supervised
fine-tuning guide (weights, tool calls) and its DPO guide; Vertex AI's supervised, function
calling and preference tuning pages; Bedrock's "Prepare data for fine-tuning text-to-text
models" and the Nova 2.0 SFT page (reasoning content); TRL's dataset_formats.md (tool calling,
Harmony ``thinking``, preference). Each module of the formats cites its page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interlingua import DecodeError
from interlingua.cli.conversion import Converter
from interlingua.cli.tuning import HF, detect_tuning, read_example, tuning_file, write_example
from interlingua.testing import validate_wire

from .conftest import FIXTURES, run_cli

TUNING = FIXTURES / "tuning"
LINES = sorted(TUNING.glob("*/*.json"))


def _line(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _lossy(warnings: list[Any]) -> list[tuple[str, str]]:
    return [(w.path, w.kind) for w in warnings]


@pytest.mark.parametrize("path", LINES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_tuning_line_is_detected_and_written_back_exactly(path: Path) -> None:
    wire = path.parent.name
    line = _line(path)
    detected = detect_tuning(line, None)
    assert detected is not None and detected.wire == wire, detected
    converted = Converter(target=wire).convert(line)
    assert (converted.output, converted.warnings) == (line, [])


WEIGHTED = TUNING / "openai-chat" / "weighted-multi-turn.json"
OPENAI_PAIR = TUNING / "openai-chat" / "preference-pair.json"
OPENAI_TOOLS = TUNING / "openai-chat" / "tool-call-turn.json"
HF_TOOLS = TUNING / "hf-messages" / "tool-calling.json"
HF_COLUMNS = TUNING / "hf-messages" / "thinking-and-columns.json"
HF_PAIR = TUNING / "hf-messages" / "preference-pair.json"
GEMINI_PAIR = TUNING / "gemini" / "preference-pair.json"
RECORD = TUNING / "bedrock-converse" / "conversation-record.json"
HF_EXTRAS = TUNING / "hf-messages" / "image-blocks-and-extra-keys.json"


@pytest.mark.parametrize(
    ("path", "target", "lost"),
    [
        # the weight-0 turn would be trained on: each format without weights says so, at the turn
        (WEIGHTED, "gemini", [("messages[2].weight", "unsupported_setting")]),
        (WEIGHTED, "bedrock-converse", [("messages[2].weight", "unsupported_setting")]),
        (WEIGHTED, HF, [("messages[2].weight", "unsupported_setting")]),
        # preference pairs cross whole where the target has them, lose the rejected turn where not
        (OPENAI_PAIR, "gemini", []),
        (OPENAI_PAIR, HF, [("parallel_tool_calls", "unsupported_setting")]),
        (GEMINI_PAIR, "bedrock-converse", [("rejected", "unsupported_setting")]),
        # Nova's tuning does not take tool sections; Gemini's does; parallel_tool_calls has no home
        (HF_TOOLS, "bedrock-converse", [("toolConfig", "unsupported_setting")]),
        (HF_TOOLS, "gemini", []),
        (OPENAI_TOOLS, HF, [("parallel_tool_calls", "unsupported_setting")]),
        # a block by path and a message key this reader does not map cross to no other format
        (
            HF_EXTRAS,
            "openai-chat",
            [
                ("messages[0].parts[2]", "lossy_encode"),
                ("messages[1].provider_echoes[0].data.wire.reasoning_content", "lossy_encode"),
            ],
        ),
        # a dataset's own columns only its format writes back; thinking has no OpenAI line
        (
            HF_COLUMNS,
            "openai-chat",
            [
                ("messages[2].parts[0]", "lossy_encode"),
                ("id", "unsupported_setting"),
                ("source", "unsupported_setting"),
            ],
        ),
    ],
    ids=lambda value: value.stem if isinstance(value, Path) else str(value),
)
def test_what_a_target_format_cannot_hold_is_reported_at_its_path(
    path: Path, target: str, lost: list[tuple[str, str]]
) -> None:
    converted = Converter(target=target).convert(_line(path))
    assert _lossy(converted.warnings) == lost
    written = tuning_file(target)
    assert written is not None and written.sniff(converted.output) is not None  # the target's own tuning line


@pytest.mark.parametrize(
    ("path", "via"),
    [
        (GEMINI_PAIR, "openai-chat"),
        (GEMINI_PAIR, HF),
        (HF_PAIR, "openai-chat"),
        (HF_PAIR, "gemini"),
        (RECORD, "gemini"),
        (RECORD, "openai-chat"),
    ],
    ids=lambda value: value.stem if isinstance(value, Path) else str(value),
)
def test_a_lossless_detour_through_another_format_comes_back_equal(path: Path, via: str) -> None:
    source = path.parent.name
    there = Converter(target=via).convert(_line(path))
    back = Converter(target=source, source=via).convert(there.output)
    assert (back.output, back.warnings) == (_line(path), [])


def test_weights_cross_to_the_example_and_back_on_their_turns() -> None:
    line = _line(WEIGHTED)
    example = read_example(line, detect_tuning(line, None))  # type: ignore[arg-type]
    assert dict(example.weights) == {2: 0, 4: 1}
    assert all(not message.provider_echoes for message in example.request.messages)  # the weight left the echo
    assert write_example(example, "openai-chat") == (line, [])


def test_a_tool_answer_by_id_takes_its_call_and_one_by_name_the_oldest_call_left() -> None:
    line = {
        "messages": [
            {"role": "user", "content": "Two lookups."},
            {"role": "assistant", "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "find", "arguments": {"q": "x"}}},
                {"id": "b", "type": "function", "function": {"name": "find", "arguments": {"q": "y"}}},
            ]},
            {"role": "tool", "tool_call_id": "b", "content": "y found"},
            {"role": "tool", "name": "find", "content": "x found"},
        ]
    }
    request = read_example(line, detect_tuning(line, HF)).request  # type: ignore[arg-type]
    answers = [(part.tool_use_id, part.name) for message in request.messages[2:] for part in message.parts]
    assert answers == [("b", "find"), ("a", "find")]


def test_a_tool_answer_by_name_goes_to_the_oldest_unanswered_call_of_that_name() -> None:
    line = {
        "messages": [
            {"role": "user", "content": "Lights on in two rooms."},
            {"role": "assistant", "tool_calls": [
                {"type": "function", "function": {"name": "light", "arguments": {"room": "hall"}}},
                {"type": "function", "function": {"name": "light", "arguments": {"room": "den"}}},
            ]},
            {"role": "tool", "name": "light", "content": "hall on"},
            {"role": "tool", "name": "light", "content": "den on"},
        ]
    }
    body = Converter(target="openai-chat").convert(line).output
    calls = [call["id"] for call in body["messages"][1]["tool_calls"]]
    answers = [message["tool_call_id"] for message in body["messages"][2:]]
    assert answers == calls and len(set(calls)) == 2


def test_plain_messages_are_an_openai_line_and_the_runner_up_is_named() -> None:
    plain = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]}
    detected = detect_tuning(plain, None)
    assert detected is not None and detected.wire == "openai-chat"
    assert detected.reason.endswith("hf-messages fits too: pass --from to choose")
    assert not detected.certain
    assert detect_tuning({"model": "m", "messages": []}, None) is None  # a request, not a tuning line
    converse = {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}  # Converse, no modelId
    assert detect_tuning(converse, None) is None


@pytest.mark.parametrize(
    ("wire", "line", "path"),
    [
        ("openai-chat", {"input": {"messages": []}, "preferred_output": "yes"}, "preferred_output"),
        ("gemini", {"contents": [], "completions": [{"score": 2, "completion": {}}]}, "completions[0].score"),
        (HF, {"messages": [{"role": "hacker", "content": "x"}]}, "messages[0].role"),
        (HF, {"messages": [], "tools": "{not json"}, "tools"),
    ],
    ids=["openai-output-not-a-list", "gemini-score", "hf-role", "hf-tools-string"],
)
def test_a_malformed_tuning_line_is_a_decode_error_at_its_path(wire: str, line: dict[str, Any], path: str) -> None:
    with pytest.raises(DecodeError) as err:
        Converter(target="anthropic-messages", source=wire).convert(line)
    assert err.value.path == path


def test_a_dataset_of_mixed_tuning_lines_converts_with_a_report(tmp_path: Path) -> None:
    source = tmp_path / "train.jsonl"
    source.write_text("".join(path.read_text(encoding="utf-8").strip() + "\n" for path in LINES), encoding="utf-8")
    out, report = tmp_path / "nova.jsonl", tmp_path / "report.jsonl"
    run = run_cli("convert", source, "--to", "bedrock-converse", "-o", out, "--report", report)
    assert run.code == 0, run.stderr
    lines = [json.loads(text) for text in out.read_text().splitlines()]
    assert len(lines) == len(LINES) and all(line["schemaVersion"] == "bedrock-conversation-2024" for line in lines)
    entries = [json.loads(text) for text in report.read_text().splitlines()]
    kinds = {(entry["line"], warning["path"]) for entry in entries for warning in entry["warnings"]}
    numbered = {path: number for number, path in enumerate(LINES, 1)}
    assert (numbered[WEIGHTED], "messages[2].weight") in kinds
    assert (numbered[GEMINI_PAIR], "rejected") in kinds
    assert (numbered[HF_TOOLS], "toolConfig") in kinds


def _requests(wire: str, line: dict[str, Any]) -> list[dict[str, Any]]:
    """The request bodies a tuning line holds, as the vendor's SDK types them: the line without
    its tuning-only keys (a weight, the schema version, the pair's outputs), with a model where
    the body carries one."""
    if wire == "openai-chat":
        if "input" in line:
            prompt = line["input"]
            return [
                {**prompt, "model": "gpt-4.1", "messages": [*prompt["messages"], *line[key]]}
                for key in ("preferred_output", "non_preferred_output")
            ]
        messages = [{k: v for k, v in message.items() if k != "weight"} for message in line["messages"]]
        return [{**line, "model": "gpt-4.1", "messages": messages}]
    if wire == "gemini":
        prompt = {key: value for key, value in line.items() if key != "completions"}
        turns = [entry["completion"] for entry in line.get("completions", [])]
        return [{**prompt, "contents": [*prompt["contents"], turn]} for turn in turns] or [prompt]
    return [{key: value for key, value in line.items() if key != "schemaVersion"}]


@pytest.mark.parametrize("target", ["openai-chat", "gemini", "bedrock-converse"])
@pytest.mark.parametrize("path", LINES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_written_tuning_line_holds_requests_the_vendor_sdk_types_accept(path: Path, target: str) -> None:
    written = Converter(target=target).convert(_line(path)).output
    for body in _requests(target, written):
        assert validate_wire(target, "request", body) == []
