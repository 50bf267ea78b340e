"""``interlingua serve`` as an operator meets it: a config or an address it cannot serve is one
line and an exit before serving; the access line is the gateway's own, keys redacted and fields
escaped; the google-genai client's default path (``/v1``) is served."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import GATEWAY_KEY, UPSTREAMS, Running, free_port
from .vendor import Answer

ROUTE = '[[route]]\nmatch = "*"\ncodec = "gemini"\n'


def serve(config: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "interlingua.cli", "serve", "--config", str(config), *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env or dict(os.environ))


@pytest.mark.parametrize(
    ("text", "extra", "line"),
    [
        (f'[gateway]\nopen = true\n{ROUTE.replace("gemini", "anthropic")}', (), "codec 'anthropic' is not installed"),
        (f'[gateway]\nopen = true\n{ROUTE}api_key_env = "NOT_SET_ANYWHERE_39"\n', (), "NOT_SET_ANYWHERE_39 is not set"),
        (ROUTE, (), "[gateway]: no keys_env; set it, or open = true to let anyone call"),
        (f"[gateway]\nopen = true\n{ROUTE}", ("--port", "99999"), "--port 99999: a TCP port is 1 to 65535"),
    ],
    ids=["unknown-codec", "unset-key-variable", "no-keys", "bad-port"],
)
def test_what_cannot_be_served_is_one_line_and_exit_2_before_serving(
    tmp_path: Path, text: str, extra: tuple[str, ...], line: str
) -> None:
    config = tmp_path / "gateway.toml"
    config.write_text(text)

    done = serve(config, *extra)

    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and line in done.stderr, done.stderr


def test_a_port_in_use_is_one_line_and_not_the_lossy_exit(tmp_path: Path) -> None:
    config = tmp_path / "gateway.toml"
    config.write_text(f"[gateway]\nopen = true\n{ROUTE}")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        done = serve(config, "--port", str(port))

    assert done.returncode == 1  # 3 is the CLI's "strict and lossy"
    assert done.stderr == f"interlingua serve: 127.0.0.1:{port} is in use\n"


@pytest.fixture
def served(gw: Running, tmp_path: Path):  # type: ignore[no-untyped-def]
    """``interlingua serve`` in front of the gemini upstream, its stderr kept for the log tests; on
    uvloop's event loop (``--uvloop``) where uvloop is installed, as the dev requirements have it."""
    upstream = gw.upstreams["gemini"]
    upstream.answer = Answer(json=UPSTREAMS["gemini"].body())
    config = tmp_path / "gateway.toml"
    config.write_text(
        f'[gateway]\nkeys_env = "GW_KEYS"\n[[route]]\nmatch = "*"\ncodec = "gemini"\nbase_url = "{upstream.url}"\n'
        f'api_key_env = "GW_UPSTREAM"\nmodel = "{UPSTREAMS["gemini"].model}"\n'
    )
    port = free_port()
    command = [sys.executable, "-m", "interlingua.cli", "serve", "--config", str(config), "--port", str(port)]
    command += ["--uvloop"] if importlib.util.find_spec("uvloop") else []
    env = {**os.environ, "GW_KEYS": GATEWAY_KEY, "GW_UPSTREAM": "sk-upstream"}
    output = tmp_path / "output.txt"
    with output.open("wb") as sink:  # stdout and stderr both: uvicorn writes its access lines to stdout
        process = subprocess.Popen(command, env=env, stdout=sink, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, output.read_text()
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", (process, output)
    process.terminate()
    process.wait(10)


def test_serve_runs_on_uvloop_when_asked(served) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("uvloop")
    import httpx2

    url, (process, _) = served

    assert httpx2.get(f"{url}/v1/models", headers={"authorization": f"Bearer {GATEWAY_KEY}"}).status_code == 200
    maps = Path(f"/proc/{process.pid}/maps").read_text()
    assert "/uvloop/loop." in maps, "the gateway process has not loaded uvloop's loop"


def test_uvloop_asked_but_not_installed_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "gateway.toml"
    config.write_text(f"[gateway]\nopen = true\n{ROUTE}")
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "uvloop.py").write_text("raise ImportError('blocked for the test')\n")  # found first, fails
    done = serve(config, "--uvloop", env={**os.environ, "PYTHONPATH": str(blocked)})
    assert done.returncode == 2 and "uvloop is not installed" in done.stderr, done.stderr


def _log_of(running: tuple[subprocess.Popen[bytes], Path]) -> str:
    process, output = running
    process.terminate()
    process.wait(10)
    return output.read_text()


def test_the_google_genai_clients_default_path_is_served_and_the_key_in_the_query_is_not_logged(served) -> None:  # type: ignore[no-untyped-def]
    from google import genai

    url, process = served
    client = genai.Client(api_key=GATEWAY_KEY, http_options={"base_url": url})  # its default version: /v1

    answer = client.models.generate_content(model="gemini-x", contents="hi")

    assert [call.name for call in answer.function_calls or []]
    import httpx2

    sent = httpx2.post(f"{url}/v1beta/models/gemini-x:generateContent?key={GATEWAY_KEY}", json={"contents": []})
    assert sent.status_code == 200
    log = _log_of(process)
    served = f"upstream=gemini/{UPSTREAMS['gemini'].model} status=200"
    assert f"POST /v1/models/gemini-x:generateContent model=gemini-x {served}" in log
    assert "POST /v1beta/models/gemini-x:generateContent?key=<redacted> model=gemini-x" in log
    assert GATEWAY_KEY not in log and "sk-upstream" not in log
    assert '"POST /v1' not in log  # uvicorn's own access line ("... - "POST /path HTTP/1.1" 200) is off


def test_a_model_with_cr_lf_cannot_forge_a_log_line(served) -> None:  # type: ignore[no-untyped-def]
    import httpx2

    url, process = served
    forged = "gemini-x\r\n2026-01-01 00:00:00 INFO POST /v1/messages model=admin status=200"
    body = {"model": forged, "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}]}

    httpx2.post(f"{url}/v1/messages", json=body, headers={"x-api-key": GATEWAY_KEY})

    lines = [line for line in _log_of(process).splitlines() if " INFO " in line]
    assert len(lines) == 1, lines
    assert 'model="gemini-x\\r\\n2026-01-01 00:00:00 INFO POST /v1/messages model=admin status=200"' in lines[0]


def test_the_docs_google_genai_example_runs_as_written(served, gw: Running) -> None:  # type: ignore[no-untyped-def]
    page = (Path(__file__).parents[2] / "docs" / "guide" / "gateway.md").read_text()
    [example] = [block for block in page.split("```py\n")[1:] if "from google import genai" in block]
    code = example.split("```")[0]
    url, running = served
    asked = len(gw.upstreams["gemini"].received)

    exec(code.replace('"my-team-key"', repr(GATEWAY_KEY)).replace("http://127.0.0.1:8000", url), {})

    assert len(gw.upstreams["gemini"].received) == asked + 1
    assert "POST /v1/models/claude-haiku-4-5:generateContent model=claude-haiku-4-5" in _log_of(running)
