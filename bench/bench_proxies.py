"""Gateways side by side, in front of one loopback upstream, in one run (not a test; just prints):
``interlingua serve`` on asyncio, on uvloop (``--uvloop``, when uvloop is installed), with its
OpenTelemetry on (``[gateway] telemetry = true``: with the API's default providers, the
instrumentation's own cost; and with the SDK's, spans recorded and batched to an exporter that
drops them, metrics aggregated), and LiteLLM's proxy when it is installed (in this Python, or the one
``--litellm-python`` names, e.g. a venv of its own: its dependencies are many).

Each serves OpenAI Chat (``/v1/chat/completions``) from the same upstream, a small asyncio server
replaying a real recorded openai-chat tool-call stream (bench_gateway.py's), and is driven by the
same client (interlingua's AsyncClient on openai-chat, each stream accumulated to its answer).
Measured per gateway, rounds interleaved so none always goes first: the gateway process's CPU
per stream (user + system, at concurrency 10), the added latency per streamed request at
concurrency 1 (median, against the upstream called directly), its memory (RSS after the runs and
its peak), and the seconds from start to accepting connections.

Run: ``python bench/bench_proxies.py [--rounds 3] [--streams 200] [--litellm-python PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import interlingua as il

sys.path.insert(0, str(Path(__file__).parent))
from bench_gateway import cpu_s, free_port, rss_kib, start_upstream

WIRE = "openai-chat"
REQUEST = il.Request(model="gpt-4o", messages=[il.Message.user("Use the tools.")])


@dataclass
class Gateway:
    label: str
    command: list[str]
    env: dict[str, str]
    port: int
    key: str = "sk-bench"
    process: subprocess.Popen[bytes] | None = None
    started_s: float = 0.0
    cpu_ms: list[float] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)

    def start(self, timeout: float = 180.0) -> None:
        import socket

        begun = time.perf_counter()
        self.process = subprocess.Popen(
            self.command, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        while time.perf_counter() - begun < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.label} exited at start: {self.command}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                self.started_s = time.perf_counter() - begun
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"{self.label} did not start within {timeout:g} s")

    def pids(self) -> list[int]:
        """The process and its children (LiteLLM's CLI may serve from a child)."""
        assert self.process is not None
        found = [self.process.pid]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        if children.exists():
            found += [int(pid) for pid in children.read_text().split()]
        return found

    def cpu(self) -> float:
        return sum(cpu_s(pid) for pid in self.pids())

    def memory(self) -> tuple[float, float]:
        """(RSS, peak RSS) in MB over the process and its children."""
        rss = peak = 0
        for pid in self.pids():
            status = dict(
                line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
            )
            rss += rss_kib(pid)[0]
            peak += int(status["VmHWM"].split()[0])
        return rss / 1024, peak / 1024

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()


SDK_SETUP = """
from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

class Dropped(SpanExporter):
    def export(self, spans):
        return SpanExportResult.SUCCESS

provider = TracerProvider()
provider.add_span_processor(BatchSpanProcessor(Dropped()))
trace.set_tracer_provider(provider)
metrics.set_meter_provider(MeterProvider(metric_readers=[InMemoryMetricReader()]))
"""
"""The gateway process's global providers for the "telemetry, SDK" run (a sitecustomize): spans
recorded and batched to an exporter that drops them, metrics aggregated in memory."""


def interlingua_gateway(
    label: str, upstream: int, folder: Path, *, uvloop: bool, telemetry: bool, sdk: bool = False
) -> Gateway:
    port = free_port()
    config = folder / f"{label.replace(' ', '-')}.toml"
    config.write_text(
        f"[gateway]\nopen = true\n{'telemetry = true' if telemetry else ''}\n\n"
        f'[[route]]\nmatch = "*"\ncodec = "{WIRE}"\nbase_url = "http://127.0.0.1:{upstream}/v1"\n'
        'api_key_env = "BENCH_UPSTREAM_KEY"\n'
    )
    command = [sys.executable, "-m", "interlingua.cli", "serve", "--config", str(config), "--port", str(port)]
    command += ["--log-level", "warning", "--keep-alive", "120", *(["--uvloop"] if uvloop else [])]
    env = {**os.environ, "BENCH_UPSTREAM_KEY": "sk-bench"}
    if sdk:
        setup = folder / "otel-sdk"
        setup.mkdir()
        (setup / "sitecustomize.py").write_text(SDK_SETUP)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(setup), env.get("PYTHONPATH", "")]))
    return Gateway(label, command, env, port)


def litellm_gateway(python: str, upstream: int, folder: Path) -> Gateway:
    port = free_port()
    config = folder / "litellm.yaml"
    config.write_text(
        "model_list:\n  - model_name: gpt-4o\n    litellm_params:\n      model: openai/gpt-4o\n"
        f"      api_base: http://127.0.0.1:{upstream}/v1\n      api_key: sk-bench\n"
    )
    command = [python, "-m", "litellm.proxy.proxy_cli", "--config", str(config), "--port", str(port)]
    command += ["--host", "127.0.0.1", "--num_workers", "1"]
    # its price table from the package, not the network; no telemetry of its own; a master key,
    # which it requires to start (the callers present it)
    key = "sk-" + secrets.token_hex(32)
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_LOG": "ERROR", "LITELLM_TELEMETRY": "False"}
    return Gateway("litellm proxy", command, {**env, "LITELLM_MASTER_KEY": key}, port, key=key)


def has_litellm(python: str) -> bool:
    probe = subprocess.run([python, "-c", "import litellm.proxy.proxy_cli"], capture_output=True, timeout=120)
    return probe.returncode == 0


async def one(client: il.AsyncClient) -> float:
    begun = time.perf_counter()
    async with client.stream(REQUEST) as events:
        answer = await events.response()
    assert answer.stop_reason == "tool_use", answer.stop_reason
    return time.perf_counter() - begun


async def many(client: il.AsyncClient, total: int, concurrency: int) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def gated() -> None:
        async with gate:
            await one(client)

    await asyncio.gather(*(gated() for _ in range(total)))


async def measure(gateways: list[Gateway], upstream: int, rounds: int, streams: int, sequential: int) -> list[float]:
    import httpx2

    http = httpx2.AsyncClient(limits=httpx2.Limits(max_connections=None), timeout=120)
    direct = il.AsyncClient(WIRE, api_key="k", base_url=f"http://127.0.0.1:{upstream}/v1", http_client=http)
    clients = [
        il.AsyncClient(WIRE, api_key=g.key, base_url=f"http://127.0.0.1:{g.port}/v1", http_client=http)
        for g in gateways
    ]
    for client in [direct, *clients]:
        await many(client, 40, 10)  # warm: imports, first requests, connections
    direct_ms: list[float] = []
    for round_ in range(rounds):
        order = list(zip(gateways, clients, strict=True))
        for gateway, client in order if round_ % 2 == 0 else order[::-1]:
            before = gateway.cpu()
            await many(client, streams, 10)
            gateway.cpu_ms.append((gateway.cpu() - before) * 1000 / streams)
            for _ in range(sequential):
                direct_ms.append(await one(direct) * 1000)
                gateway.latency_ms.append(await one(client) * 1000)
    await http.aclose()
    return direct_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--streams", type=int, default=200, help="streams per round for the CPU figure")
    parser.add_argument("--sequential", type=int, default=30, help="streams per round for the latency figure")
    parser.add_argument("--litellm-python", default=sys.executable, help="a Python that has litellm[proxy]")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        upstream, upstream_process = start_upstream(hold=0.0)
        gateways = [interlingua_gateway("interlingua serve", upstream, folder, uvloop=False, telemetry=False)]
        try:
            import uvloop  # noqa: F401

            gateways.append(interlingua_gateway("interlingua --uvloop", upstream, folder, uvloop=True, telemetry=False))
        except ImportError:
            print("uvloop is not installed: interlingua serve --uvloop not measured")
        gateways.append(interlingua_gateway("interlingua +telemetry", upstream, folder, uvloop=False, telemetry=True))
        try:
            import opentelemetry.sdk  # noqa: F401

            label = "interlingua +telemetry SDK"
            gateways.append(interlingua_gateway(label, upstream, folder, uvloop=False, telemetry=True, sdk=True))
        except ImportError:
            print("opentelemetry-sdk is not installed: telemetry with a recording SDK not measured")
        if has_litellm(args.litellm_python):
            gateways.append(litellm_gateway(args.litellm_python, upstream, folder))
        else:
            print(f"litellm[proxy] is not importable by {args.litellm_python}: LiteLLM's proxy not measured")
        try:
            for gateway in gateways:
                gateway.start()
            direct = asyncio.run(measure(gateways, upstream, args.rounds, args.streams, args.sequential))
            base = statistics.median(direct)
            print(f"upstream direct: {base:.2f} ms per stream (median of {len(direct)})")
            print(f"{'gateway':28} {'CPU ms/stream':>14} {'added ms':>9} {'RSS MB':>7} {'peak MB':>8} {'start s':>8}")
            for gateway in gateways:
                rss, peak = gateway.memory()
                added = statistics.median(gateway.latency_ms) - base
                cpu = statistics.median(gateway.cpu_ms)
                print(
                    f"{gateway.label:28} {cpu:14.2f} {added:9.2f} {rss:7.0f} {peak:8.0f} {gateway.started_s:8.2f}"
                )
        finally:
            for gateway in gateways:
                gateway.stop()
            upstream_process.terminate()
            upstream_process.wait(10)


if __name__ == "__main__":
    main()
