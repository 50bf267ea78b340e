"""Run the real entry point (``python -m interlingua.cli``) in a subprocess, as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CLI_FIXTURES = FIXTURES / "cli"


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)

    def lines(self) -> list[Any]:
        return [json.loads(line) for line in self.stdout.splitlines()]


def run_cli(*args: str | Path, stdin: bytes | None = None, cwd: Path = ROOT) -> Run:
    done = subprocess.run(
        [sys.executable, "-m", "interlingua.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=120,
    )
    return Run(done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.fixture
def cli() -> Any:
    return run_cli
