"""Batch result lines (fixtures/cli/batch-results, bodies from the recorded corpus): each vendor's
line becomes every other vendor's with the same id, an answer as the target's answer, a failure in
the target's error shape, with a warning for what the target's line cannot hold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interlingua import DecodeError, Response, Text, ToolUse, get_codec
from interlingua._batch import ResultFormat, ResultLine
from interlingua.cli import results
from interlingua.cli.conversion import Converter
from interlingua.testing import validate_wire

from .conftest import CLI_FIXTURES, run_cli

FILES = CLI_FIXTURES / "batch-results"
FORMAT_OF_FILE = {
    "anthropic-batch-result": "anthropic batch result",
    "openai-batch-output": "openai batch output",
    "gemini-batch-result": "gemini batch result",
    "vertex-batch-prediction": "vertex batch prediction",
    "bedrock-batch-record": "bedrock batch record",
}
TARGETS = ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse")


def _lines() -> list[Any]:
    found = []
    for path in sorted(FILES.glob("*.jsonl")):
        for number, raw in enumerate(path.read_text().splitlines(), 1):
            found.append(pytest.param(path.stem, json.loads(raw), id=f"{path.stem}:{number}"))
    return found


LINES = _lines()


def _format(name: str) -> ResultFormat:
    return next(f for _, f in results.formats() if f.name == name)


def _read(name: str, line: Any) -> ResultLine:
    return _format(name).read(line)


def _answer(wire: str, body: Any) -> list[Any]:
    """What an answer says, vendor-neutrally: its texts and its calls (id, name, input)."""
    response: Response = get_codec(wire).decode_response(body)
    said: list[Any] = []
    for part in response.message.parts:
        if isinstance(part, Text) and part.text:
            said.append(part.text)
        elif isinstance(part, ToolUse):
            said.append((part.name, part.input))
    return said


def _wire(body: Any, fallback: str) -> str:
    return results._wire_of(None, body, fallback)


def test_every_fixture_file_is_read_as_its_format() -> None:
    assert sorted(p.stem for p in FILES.glob("*.jsonl")) == sorted(FORMAT_OF_FILE)
    for stem, line in (p.values for p in LINES):
        found = results.find(line)
        assert found is not None and found[1].name == FORMAT_OF_FILE[stem], (stem, line)
        assert found[2].startswith(f"{FORMAT_OF_FILE[stem]} line (")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("stem", "line"), LINES)
def test_a_result_line_becomes_the_targets_with_its_id_answer_or_failure(stem: str, line: Any, target: str) -> None:
    source = _read(FORMAT_OF_FILE[stem], line)
    converted = Converter(target).convert(line)
    target_format = results.target_format(target, _format(FORMAT_OF_FILE[stem]))
    assert converted.envelope == FORMAT_OF_FILE[stem] and converted.result
    back = target_format.read(converted.output)
    labels = [(w.path, getattr(w, "part_type", None)) for w in converted.warnings]
    # The id: kept, or (a line format without ids) reported.
    if target_format.name == "vertex batch prediction":
        assert back.id is None
        assert (source.id is None) == (("id", "batch_id") not in labels)
    else:
        assert back.id == source.id
    # The repeated request: converted where the target's line repeats it, else reported.
    if source.request is not None and target_format.request:
        assert back.request is not None and validate_wire(target, "request", back.request) == []
    assert (source.request is not None and not target_format.request) == any(
        kind == "batch_request" and path in ("request", "modelInput") for path, kind in labels
    ) or (source.request is None and target_format.request)
    if source.failure is None:
        assert back.failure is None and back.response is not None
        wire = _wire(source.response, "")
        if wire != target:  # (a recorded body may hold fields newer than the installed SDK's types)
            assert validate_wire(target, "response", back.response) == []
        assert _answer(target, back.response) == _answer(wire, source.response)
        return
    assert back.response is None and back.failure is not None
    kept_message = back.failure.message in (source.failure.message, source.failure.kind)
    assert kept_message != any(kind == "batch_message" for _, kind in labels), labels
    if source.failure.status is not None and target_format.name != "vertex batch prediction":
        kept_status = back.failure.status == source.failure.status
        assert kept_status != any(kind == "batch_status" for _, kind in labels), labels
    kept_kind = back.failure.kind == source.failure.kind
    assert kept_kind != any(kind == "batch_result" for _, kind in labels), labels


@pytest.mark.parametrize(("stem", "line"), LINES)
def test_a_line_converted_to_its_own_format_comes_back_as_it_was(stem: str, line: Any) -> None:
    """The envelope round-trips exactly (the vendor's own ids and times too); the bodies as their
    codec re-encodes them (a body's exact round trip is the codec's business, in the corpus tests)."""
    source = _read(FORMAT_OF_FILE[stem], line)
    own = _format(FORMAT_OF_FILE[stem]).body_wire or ""
    wire = _wire(source.response, own) if source.response is not None else own
    owners = {n for n in TARGETS if any(f.name == FORMAT_OF_FILE[stem] for f in get_codec(n).batching.results)}
    if wire not in owners:
        pytest.skip("a record of another wire's bodies (Claude's InvokeModel record) is written as Converse")
    converted = Converter(wire).convert(line)
    back = _read(FORMAT_OF_FILE[stem], converted.output)
    assert (back.id, back.failure, back.own, back.format) == (source.id, source.failure, source.own, source.format)
    assert set(converted.output) == set(line)
    if source.response is not None:
        codec = get_codec(wire)
        assert back.response == codec.encode_response(codec.decode_response(source.response)).body
    assert not any(getattr(w, "part_type", "").startswith("batch_") for w in converted.warnings)


def test_a_failure_the_target_cannot_name_is_written_as_an_error_with_a_warning() -> None:
    expired = {"custom_id": "late", "result": {"type": "expired"}}
    assert Converter("openai-chat").convert(expired).output == {
        "custom_id": "late",
        "response": None,
        "error": {"code": "batch_expired", "message": ""},
    }
    converted = Converter("gemini").convert(expired)
    assert converted.output == {"key": "late", "error": {"message": "expired"}}
    assert [(w.path, w.message) for w in converted.warnings] == [("error", "an expired request is written as an error")]


def test_a_line_two_formats_fit_names_the_other() -> None:
    both = {"key": "k1", "request": {"contents": []}, "response": {"candidates": []}}
    found = results.find(both)
    assert found is not None
    assert "fits too: pass --from to choose" in found[2]
    other = found[2].split("; ")[1].removesuffix(" fits too: pass --from to choose")
    assert {found[1].name, other} == {"gemini batch result", "vertex batch prediction"}


def test_request_lines_are_not_result_lines() -> None:
    for raw in (CLI_FIXTURES / "mixed-lines.jsonl").read_text().splitlines():
        assert results.find(json.loads(raw)) is None


@pytest.mark.parametrize(
    ("line", "path"),
    [
        ({"custom_id": "x", "result": {"type": "done"}}, "result.type"),
        ({"custom_id": "x", "result": {"type": "succeeded"}}, "result.message"),
        ({"custom_id": "x", "response": {"status_code": "200", "body": {}}}, "response.status_code"),
        ({"recordId": "r", "modelInput": {}, "error": {"errorCode": "bad"}}, "error.errorCode"),
    ],
)
def test_a_malformed_result_line_is_a_decode_error_at_its_path(line: Any, path: str) -> None:
    with pytest.raises(DecodeError) as caught:
        Converter("gemini").convert(line)
    assert caught.value.path == path and caught.value.codec


def test_the_cli_converts_a_result_file_and_says_what_it_read(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    run = run_cli("convert", FILES / "openai-batch-output.jsonl", "--to", "anthropic-messages", "-o", out)
    assert run.code == 0, run.stderr
    lines = [json.loads(raw) for raw in out.read_text().splitlines()]
    assert [line["custom_id"] for line in lines] == [
        "parallel-tool-calls-turn1",
        "function-call-turn1",
        "model-not-found",
        "request-expired",
        "request-cancelled",
    ]
    assert [line["result"]["type"] for line in lines] == ["succeeded", "succeeded", "errored", "expired", "canceled"]
    assert lines[2]["result"]["error"]["error"]["type"] == "not_found_error"  # its HTTP 404
    assert run.stderr.splitlines()[1] == "read: 5 openai batch output"


def test_inspect_draws_a_result_lines_answer_or_its_failure() -> None:
    answered = run_cli("inspect", FILES / "bedrock-batch-record.jsonl", "--line", "3")
    assert answered.code == 0, answered.stderr
    assert answered.stdout.splitlines()[0] == (
        "anthropic-messages response (in a bedrock batch record line (modelOutput, recordId)), batch id 'CALL0000003'"
    )
    assert "tool_use retrieve_entity_info id=toolu_0167cfEnoQaPviGdVXA95zcu" in answered.stdout
    failed = run_cli("inspect", FILES / "openai-batch-output.jsonl", "--line", "3")
    assert failed.stdout.splitlines() == [
        "batch id 'model-not-found' (openai batch output line (custom_id, error, response))",
        "└── errored",
        "    ├── status: 404",
        "    ├── code: invalid_request_error",
        "    └── message: The requested model 'gpt-5.2-proo' does not exist.",
    ]
