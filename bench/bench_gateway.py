"""Gateway overhead: streams through ``interlingua serve`` against direct AsyncClient streams to
the same loopback upstream, in one run, rounds interleaved (not a test; just prints).

The upstream is a small asyncio HTTP/1.1 server (a subprocess) replaying a real recorded
openai-chat tool-call stream; the gateway is ``interlingua serve`` (a subprocess, one worker)
routing an anthropic-messages caller to it. Measured: added latency per streamed request at
concurrency 1, the throughput ratio (gateway / direct) at 100 and 1,000 concurrent streams,
and memory and OS threads per open stream in the gateway process.

Run: ``python bench/bench_gateway.py [--max-concurrency 1000] [--rounds 3]``. With ``--baseline
PATHS`` (source folders of another checkout, joined by ``:``, put first on the second gateway's
``PYTHONPATH``), the gateway process CPU per stream of this tree and of that one, rounds
interleaved in one run, comes first.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import interlingua as il
from interlingua.testing import real_fixtures_dir

CALLER, UPSTREAM = "anthropic-messages", "openai-chat"
STREAM = "tool-call-stream.sse.txt"

UPSTREAM_SERVER = r'''
import asyncio, sys
sse = open(sys.argv[2], "rb").read().rstrip(b"\n") + b"\n\n"
hold = float(sys.argv[3])
cut = sse.rfind(b"\n\n", 0, len(sse) - 2) + 2 if hold else len(sse)  # holding: the last event waits
async def handle(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
            writer.write(b"%x\r\n%s\r\n" % (cut, sse[:cut]))
            await writer.drain()
            if hold:
                await asyncio.sleep(hold)
                writer.write(b"%x\r\n%s\r\n" % (len(sse) - cut, sse[cut:]))
            writer.write(b"0\r\n\r\n")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()
async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", int(sys.argv[1]), backlog=4096)
    async with server:
        await server.serve_forever()
asyncio.run(main())
'''


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"a server exited: {process.args}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("a server did not start")


def start_upstream(hold: float) -> tuple[int, subprocess.Popen[bytes]]:
    port = free_port()
    stream = real_fixtures_dir() / UPSTREAM / "stream" / STREAM
    process = subprocess.Popen([sys.executable, "-c", UPSTREAM_SERVER, str(port), str(stream), str(hold)])
    wait_for(port, process)
    return port, process


def start_gateway(upstream_port: int, folder: Path, pythonpath: str = "") -> tuple[int, subprocess.Popen[bytes]]:
    port = free_port()
    config = folder / "gateway.toml"
    config.write_text(
        f'[gateway]\nopen = true\n\n[[route]]\nmatch = "*"\ncodec = "{UPSTREAM}"\nbase_url = "http://127.0.0.1:{upstream_port}/v1"\n'
        'api_key_env = "BENCH_UPSTREAM_KEY"\nmodel = "gpt-4o"\n'
    )
    env = {**os.environ, "BENCH_UPSTREAM_KEY": "sk-bench"}
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [pythonpath, env.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "interlingua.cli", "serve", "--config", str(config), "--port", str(port)]
    # A long keep-alive: 1,000 queued streams leave pooled connections idle for longer than 5 s.
    process = subprocess.Popen([*command, "--log-level", "warning", "--keep-alive", "120"], env=env)
    wait_for(port, process)
    return port, process


REQUEST = il.Request(model="gpt-4o", messages=[il.Message(role="user", parts=[il.Text(text="Use the tools.")])])


async def run_streams(client: il.AsyncClient, total: int, concurrency: int) -> float:
    """Seconds for ``total`` streams, ``concurrency`` at a time, each accumulated to its Response."""
    gate = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with gate, client.stream(REQUEST) as events:
            answer = await events.response()
            assert answer.stop_reason == "tool_use", answer.stop_reason

    start = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(total)))
    return time.perf_counter() - start


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(gateway_port: int, upstream_port: int, levels: list[int], rounds: int, pid: int) -> None:
    import httpx2

    limits = httpx2.Limits(max_connections=None, max_keepalive_connections=2000)
    http = httpx2.AsyncClient(limits=limits, timeout=120)
    direct = il.AsyncClient(UPSTREAM, api_key="k", base_url=f"http://127.0.0.1:{upstream_port}/v1", http_client=http)
    via = il.AsyncClient(CALLER, api_key="k", base_url=f"http://127.0.0.1:{gateway_port}", http_client=http)
    await run_streams(direct, 20, 10)
    await run_streams(via, 20, 10)  # warm: imports, codec loads, connections
    for level in levels:
        total = max(level * 3, 60) if level > 1 else 100
        ratios, direct_s, via_s = [], [], []
        gateway_cpu = caller_cpu = direct_cpu = 0.0
        for _ in range(rounds):
            mine = time.process_time()
            d = await run_streams(direct, total, level)
            direct_cpu += time.process_time() - mine
            mine, theirs = time.process_time(), cpu_s(pid)
            v = await run_streams(via, total, level)
            caller_cpu += time.process_time() - mine
            gateway_cpu += cpu_s(pid) - theirs
            ratios.append(d / v)
            direct_s.append(d)
            via_s.append(v)
        d, v = statistics.median(direct_s), statistics.median(via_s)
        print(
            f"concurrency {level:>5}: direct {total / d:8.1f} streams/s, gateway {total / v:8.1f} streams/s, "
            f"throughput ratio {statistics.median(ratios):.2f}"
            + (f", added latency {(v - d) / total * 1000:.2f} ms/request" if level == 1 else "")
        )
        per = 1000 / (total * rounds)
        print(
            f"{'':19}CPU ms per stream: client direct {direct_cpu * per:.2f}, client via gateway "
            f"{caller_cpu * per:.2f}, gateway process {gateway_cpu * per:.2f}"
        )
    await http.aclose()


async def compare_cpu(gateways: list[tuple[str, int, int]], rounds: int, total: int = 200, level: int = 10) -> None:
    """Gateway process CPU per stream of each gateway (label, port, pid), rounds interleaved."""
    import httpx2

    http = httpx2.AsyncClient(limits=httpx2.Limits(max_connections=None), timeout=120)
    clients = [
        il.AsyncClient(CALLER, api_key="k", base_url=f"http://127.0.0.1:{port}", http_client=http)
        for _, port, _ in gateways
    ]
    for client in clients:
        await run_streams(client, 40, 10)  # warm
    spent = [0.0] * len(gateways)
    for round_ in range(rounds):
        order = list(enumerate(zip(clients, gateways, strict=True)))
        for index, (client, (_, _, pid)) in order if round_ % 2 == 0 else order[::-1]:  # neither always first
            before = cpu_s(pid)
            await run_streams(client, total, level)
            spent[index] += cpu_s(pid) - before
    per = 1000 / (total * rounds)
    shown = ", ".join(f"{label} {cpu * per:.3f}" for (label, _, _), cpu in zip(gateways, spent, strict=True))
    print(f"gateway process CPU ms per stream (concurrency {level}, {total} x {rounds} rounds): {shown}")
    await http.aclose()


def rss_kib(pid: int) -> tuple[int, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]), int(fields["Threads"])


async def hold_open(gateway_port: int, pid: int, count: int) -> None:
    """``count`` streams held open mid-way (the upstream holds its end back): the gateway
    process's memory and thread count against its idle figures."""
    import httpx2

    idle_rss, idle_threads = rss_kib(pid)
    http = httpx2.AsyncClient(limits=httpx2.Limits(max_connections=None), timeout=120)
    via = il.AsyncClient(CALLER, api_key="k", base_url=f"http://127.0.0.1:{gateway_port}", http_client=http)
    streams = [via.stream(REQUEST) for _ in range(count)]
    await asyncio.gather(*(s.__aenter__() for s in streams))
    await asyncio.sleep(1.0)
    rss, threads = rss_kib(pid)
    print(
        f"{count} open streams: gateway RSS +{(rss - idle_rss) / count:.1f} KiB per stream, "
        f"threads {idle_threads} idle -> {threads} ({(threads - idle_threads) / count:.2f} per stream)"
    )
    await asyncio.gather(*(s.aclose() for s in streams))
    await http.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-concurrency", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--open", type=int, default=200, help="streams held open for the memory figure")
    parser.add_argument("--baseline", default="", help="source folders of another checkout, ':'-joined")
    parser.add_argument("--compare-only", action="store_true", help="with --baseline: only the CPU comparison")
    args = parser.parse_args()
    levels = [level for level in (1, 100, 1000) if level <= args.max_concurrency]
    # 1,000 streams through the gateway hold 2,000 sockets in it: lift the file limit (inherited).
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as folder:
        upstream_port, upstream = start_upstream(hold=0.0)
        (Path(folder) / "held").mkdir()
        gateway_port, gateway = start_gateway(upstream_port, Path(folder))
        held_port, held = start_upstream(hold=30.0)
        held_gateway_port, held_gateway = start_gateway(held_port, Path(folder) / "held")
        processes = [gateway, held_gateway, upstream, held]
        try:
            if args.baseline:
                (Path(folder) / "baseline").mkdir()
                base_port, base = start_gateway(upstream_port, Path(folder) / "baseline", args.baseline)
                processes.append(base)
                pair = [("this tree", gateway_port, gateway.pid), ("baseline", base_port, base.pid)]
                asyncio.run(compare_cpu(pair, args.rounds))
                if args.compare_only:
                    return
            asyncio.run(measure(gateway_port, upstream_port, levels, args.rounds, gateway.pid))
            asyncio.run(hold_open(held_gateway_port, held_gateway.pid, args.open))
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()


if __name__ == "__main__":
    main()
