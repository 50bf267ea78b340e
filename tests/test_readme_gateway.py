"""The README's gateway quick start, run as written (on free ports instead of 9100 and 8000): the
fake vendor, the config, the gateway, and the official openai SDK's call through it, which prints
the fake's answer. Both servers then stop on Ctrl-C. The commands run on the PATH's ``interlingua`` and ``python``,
as a user's would."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Serve a gateway") :]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(port: int, process: subprocess.Popen[str], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port} after {seconds} s")


def test_the_gateway_quick_start_runs_against_the_fake_vendor(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("openai")
    fake, config, serve, call = _commands()
    assert fake.startswith("interlingua fake --wire anthropic-messages --port 9100")
    assert serve.startswith("interlingua serve --config gateway.toml --port 8000")
    vendor_port, gateway_port = _free_port(), _free_port()

    def ported(command: str) -> str:
        return command.replace("9100", str(vendor_port)).replace("8000", str(gateway_port))

    running: list[subprocess.Popen[str]] = []
    try:
        for command, port in ((fake, vendor_port), (serve, gateway_port)):
            if command is serve:
                subprocess.run(["bash", "-c", ported(config)], cwd=tmp_path, check=True)
            process = subprocess.Popen(
                ["bash", "-c", f"exec {ported(command)}"],
                cwd=tmp_path,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            running.append(process)
            _wait_for(port, process)
        answer = subprocess.run(
            ["bash", "-c", ported(call)], cwd=tmp_path, capture_output=True, text=True, timeout=120
        )
        assert answer.returncode == 0, answer.stderr
        assert answer.stdout == "Paris.\n"
    finally:
        for process in running:
            process.send_signal(signal.SIGINT)
        outputs = [process.communicate(timeout=30) for process in running]
    assert "POST /v1/messages model=claude-sonnet-4-6 answer" in outputs[0][1]
    assert "model=claude-sonnet-4-6" in outputs[1][1] and "status=200" in outputs[1][1]
