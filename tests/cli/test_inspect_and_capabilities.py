"""``interlingua inspect`` and ``interlingua capabilities``, and the entry point itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import interlingua as il
from interlingua.cli import capabilities

from .conftest import CLI_FIXTURES, FIXTURES, ROOT, run_cli


def test_inspect_draws_roles_parts_reasoning_cache_and_echoes() -> None:
    run = run_cli("inspect", CLI_FIXTURES / "signed-thinking-tool-turn.transcript.json")
    assert run.code == 0, run.stderr
    assert run.stdout.splitlines() == [
        "transcript request ('format' is 'interlingua.transcript')",
        '├── metadata: {"demo.session": "demo-17"}',
        "└── messages (4)",
        "    ├── [0] system",
        '    │   └── text "You are a careful travel assistant." [cache 1h]',
        "    ├── [1] user",
        '    │   └── text "Is it raining in Bergen right now?"',
        "    ├── [2] assistant",
        '    │   ├── thinking [reasoning] "Bergen is rainy; I should check the live weather."',
        "    │   │   └── echo anthropic: signature (model claude-sonnet-4-5)",
        '    │   └── tool_use get_weather id=toolu_01Bergen input={"city": "Bergen"}',
        "    └── [3] tool",
        '        └── tool_result get_weather for=toolu_01Bergen "11C, light rain"',
    ]


def test_inspect_shows_usage_of_a_response_and_of_a_recorded_stream() -> None:
    response = run_cli("inspect", FIXTURES / "openai-chat" / "response" / "cached-and-reasoning-tokens.json")
    assert response.code == 0, response.stderr
    usage = next(line for line in response.stdout.splitlines() if "usage:" in line)
    assert usage.startswith("├── usage: input 2,048, output 300, cache read 1,920, reasoning 256")
    assert "├── stop: end_turn (raw 'stop')" in response.stdout
    stream = run_cli("inspect", FIXTURES / "gemini" / "stream" / "thought-then-signed-text.sse")
    assert stream.code == 0, stream.stderr
    lines = stream.stdout.splitlines()
    assert lines[0] == "gemini stream (data chunks with 'candidates')"
    assert '│   ├── thinking [reasoning] "Let me weigh the options."' in lines
    assert "│       └── echo gemini: thoughtSignature (model gemini-2.5-flash)" in lines
    assert "├── usage: input 12, output 33, reasoning 28, totalTokenCount 45" in lines


def test_inspect_of_a_batch_line_and_of_bad_input(tmp_path: Path) -> None:
    line = tmp_path / "one.json"
    line.write_text((CLI_FIXTURES / "mixed-lines.jsonl").read_text().splitlines()[4])
    run = run_cli("inspect", line, "--full")
    assert run.code == 0, run.stderr
    assert run.stdout.splitlines()[:3] == [
        "gemini request (gemini batch line), batch id 'req-gemini-1'",
        "├── settings",
        "│   ├── max_tokens: 50",
    ]
    bad = tmp_path / "bad.json"
    bad.write_text('{"contents": [{"role": "user", "parts": 3}]}')
    failed = run_cli("inspect", bad)
    assert (failed.code, failed.stdout) == (1, "")
    assert "cannot decode the input" in failed.stderr and "contents[0].parts" in failed.stderr


def test_capabilities_table_lists_every_codec_and_declaration() -> None:
    run = run_cli("capabilities")
    assert run.code == 0, run.stderr
    rows = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines() if line and line[0].islower()}
    names = il.codecs()
    assert run.stdout.splitlines()[0].split() == ["part", "type", *names]
    for key in (*il.PART_TYPES, *il.SETTINGS):
        assert rows[key] == [il.get_codec(name).capabilities.support(key) for name in names], key
    declared = json.loads(run_cli("capabilities", "--json", "anthropic-messages").stdout)
    assert declared["anthropic-messages"]["settings"]["seed"] == "lossy"
    assert run_cli("capabilities", "acme-chat").code == 2


def test_docs_capabilities_page_is_current() -> None:
    loaded = [(name, il.get_codec(name)) for name in il.codecs()]
    committed = (ROOT / "docs" / "capabilities.md").read_text(encoding="utf-8")
    assert committed == capabilities.markdown(loaded), "run: interlingua capabilities --markdown > docs/capabilities.md"
    assert "| `thinking` |" in committed and "### `anthropic-messages`" in committed


def test_the_script_runs_and_import_interlingua_does_not_load_the_cli() -> None:
    script = Path(sys.executable).with_name("interlingua")
    done = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "exit codes: 0 done" in done.stdout
    check = "import sys, interlingua; print(sorted(m for m in sys.modules if m.startswith('interlingua.cli')))"
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=60)
    assert loaded.stdout.strip() == "[]"
    assert run_cli("convert").code == 2  # argparse: INPUT and --to are required


def test_with_no_codec_installed_the_cli_says_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from interlingua import _registry, cli

    monkeypatch.setattr(_registry, "_entry_points", dict)
    assert cli.main(["capabilities"]) == 2
    assert capsys.readouterr().err == (
        "interlingua capabilities: no codec is installed: a codec is a package of its own: "
        "pip install ./codecs/<vendor> beside the core from a checkout\n"
    )
    assert cli.main(["convert", "-", "--to", "acme-chat"]) == 2
    assert "installed codecs: none (a codec is a package of its own" in capsys.readouterr().err


def _anthropic_body(tmp_path: Path, model: str, **settings: object) -> Path:
    body = {"model": model, "max_tokens": 1024, **settings, "messages": [{"role": "user", "content": "Hi"}]}
    path = tmp_path / f"{model}.json"
    path.write_text(json.dumps(body))
    return path


def test_inspect_names_the_settings_the_model_would_refuse(tmp_path: Path) -> None:
    run = run_cli("inspect", _anthropic_body(tmp_path, "claude-sonnet-4-5", temperature=0.5, top_p=0.9))
    assert run.code == 0, run.stderr
    assert run.stdout.splitlines()[1:4] == [
        "├── model: claude-sonnet-4-5",
        "├── model rules (claude-sonnet-4-5): the API would refuse",
        "│   └── temperature and top_p: claude-sonnet-4-5 takes only one of them",
    ]
    fine = run_cli("inspect", _anthropic_body(tmp_path, "claude-sonnet-4-5-20250929", temperature=0.5))
    assert fine.stdout.splitlines()[2] == "├── model rules (claude-sonnet-4-5): nothing refused"


def test_inspect_says_an_unknown_model_was_not_checked(tmp_path: Path) -> None:
    run = run_cli("inspect", _anthropic_body(tmp_path, "claude-acme-9", temperature=0.5, top_p=0.9))
    assert run.code == 0, run.stderr
    assert run.stdout.splitlines()[1:3] == [
        "├── model: claude-acme-9",
        "├── model rules: 'claude-acme-9' is not in the anthropic catalog, nothing checked",
    ]
