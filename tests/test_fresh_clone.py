"""The README's first commands, run as written in a new virtual environment of a copy of the clone:
``pip install -r requirements-dev.txt && interlingua demo``, then the test command. CI runs it
once (``.ci/run`` sets ``INTERLINGUA_FRESH_CLONE=1``); elsewhere it is skipped, for one reason.

To fit in about a minute it borrows the third-party packages of the running environment (a
``.pth`` line: they are on the path, pip sees them as installed) and adds ``--no-deps`` to the
install (and ``--no-build-isolation``: the build backend, hatchling, is in requirements-dev.txt), so
what it installs afresh is exactly the project's own packages, from the copy; the
demo then proves them: the console script, the codecs found by their entry points, the bundled
dataset shipped as package data, the gateway and the fake vendor. The test command is the README's
``pytest``, narrowed to the tests that need no corpus and run quickly (the full run is CI's own)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUDGET = 90.0

pytestmark = pytest.mark.skipif(
    os.environ.get("INTERLINGUA_FRESH_CLONE") != "1", reason="the fresh-clone run is CI's (INTERLINGUA_FRESH_CLONE=1)"
)


def _readme_commands() -> list[str]:
    """The shell block under the README's "Try it" heading, one command a line."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Try it") :]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_first_commands_work_in_a_fresh_environment(tmp_path: Path) -> None:
    started = time.monotonic()
    install_and_demo, test = _readme_commands()
    assert install_and_demo == "pip install -r requirements-dev.txt && interlingua demo" and test == "pytest"
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    clone = tmp_path / "clone"
    for name in listed:
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "_borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(venv)}
    env.pop("PYTHONPATH", None)

    def sh(command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", command], cwd=clone, env=env, capture_output=True, text=True, timeout=300)

    pip = "pip install --no-deps --no-build-isolation -q"  # the build backend is borrowed too
    done = sh(install_and_demo.replace("pip install", pip))
    assert done.returncode == 0, done.stderr[-3000:]
    where = sh("python -c 'import interlingua as a, interlingua_openai as b; print(a.__file__, b.__file__)'")
    assert where.stdout.count(str(clone)) == 2, where.stdout  # the copy's packages, not the borrowed ones
    n = len((ROOT / "src/interlingua/cli/demo_requests.jsonl").read_text().splitlines())  # the bundled dataset
    assert f"{n} of {n} unchanged" in done.stdout and f"converted {n} of {n} lines" in done.stdout
    assert "<- the SDK got: 'Paris." in done.stdout
    tested = sh(f"{test} -q -p no:cacheprovider tests/test_readme.py")
    assert tested.returncode == 0, tested.stdout[-3000:]
    assert re.search(r"\d+ passed", tested.stdout)
    took = time.monotonic() - started
    print(f"\nthe README's first commands in a fresh environment: {took:.0f} s")
    assert took < BUDGET * 2  # a hard stop well above the budget: a shared machine varies
