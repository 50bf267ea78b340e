"""The CLI on JSONL datasets: lines per second with --jobs 1 and 2, against orjson round trips
of the same lines in the same run, and peak memory (RSS) staying flat from 10k to 100k lines.

- Throughput: ``interlingua convert data.jsonl --to anthropic-messages`` on N copies of the
  CLI guide's agent turn (fixtures/cli/agent-turn.openai-chat.json, one line each), timed as a
  subprocess the way a user runs it. Process start-up (``interlingua --help``) is timed too
  and shown apart, so the per-line rate is the conversion's own. The baseline is
  ``orjson.dumps(orjson.loads(line))`` over the same file, line by line, in this process.
- Memory: the peak RSS of a 10k-line and a 100k-line run of fixtures/cli/mixed-lines.jsonl
  (every line kind); a streaming run keeps them about equal.

- Per core and on engines: lines per second per core for one process, ``--jobs 2`` and each
  installed engine (``--engine dask|ray|spark`` on a local cluster of two workers), with the
  scaling ratio against ``--jobs 1``. An engine's start-up (the same run on a one-line file) is
  taken off, as the process start-up is, so the rate is the conversion's own.

Run: ``python bench/bench_cli.py`` (about a minute on two cores); ``--engines`` adds the engines
(a few minutes: each starts a cluster several times).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
AGENT_TURN = ROOT / "fixtures" / "cli" / "agent-turn.openai-chat.json"
MIXED = ROOT / "fixtures" / "cli" / "mixed-lines.jsonl"
THROUGHPUT_LINES = 6_000


def write_lines(path: Path, lines: list[str], count: int) -> None:
    with path.open("w") as out:
        for i in range(count):
            out.write(lines[i % len(lines)] + "\n")


def cli(*args: str) -> float:
    """Seconds for one CLI run (output discarded); fails loudly if the run fails."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "interlingua.cli", *args],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def orjson_round_trips(path: Path) -> float:
    start = time.perf_counter()
    with path.open("rb") as lines, open("/dev/null", "wb") as out:
        for line in lines:
            out.write(orjson.dumps(orjson.loads(line)) + b"\n")
    return time.perf_counter() - start


PEAK = (
    "import resource, subprocess, sys;"
    "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def peak_rss_mb(*args: str) -> float:
    """Peak RSS of the largest process of one CLI run (the parent or a worker), in MB."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, sys.executable, "-m", "interlingua.cli", *args],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout) / 1024


def engines(data: Path, line: str, one: float) -> None:
    """Each installed engine on a local cluster of two workers: rate, per core, scaling."""
    import importlib.util

    one_line = data.with_name("one.jsonl")
    one_line.write_text(line + "\n")
    for engine, module in (("dask", "distributed"), ("ray", "ray"), ("spark", "pyspark")):
        if importlib.util.find_spec(module) is None:
            print(f"--engine {engine}: not installed (pip install 'interlingua[{engine}]')")
            continue
        start = min(cli("convert", str(one_line), "--to", "anthropic-messages", "--engine", engine) for _ in range(2))
        total = min(cli("convert", str(data), "--to", "anthropic-messages", "--engine", engine) for _ in range(2))
        rate = THROUGHPUT_LINES / max(total - start, 1e-9)
        print(
            f"convert --engine {engine:<6} {rate:9,.0f} lines/s, {rate / 2:,.0f} per core; scaling x{rate / one:.2f} "
            f"on 2 (start-up {start:.1f} s taken off)"
        )


def main() -> None:
    agent_line = json.dumps(json.loads(AGENT_TURN.read_text()), separators=(",", ":"))
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "agent.jsonl"
        write_lines(data, [agent_line], THROUGHPUT_LINES)
        startup = min(cli("--help") for _ in range(3))
        floor = min(orjson_round_trips(data) for _ in range(3))
        floor_rate = THROUGHPUT_LINES / floor
        size = data.stat().st_size / THROUGHPUT_LINES
        print(f"{THROUGHPUT_LINES:,} lines of {size / 1024:.1f} KB (openai-chat -> anthropic-messages)")
        print(f"process start-up (interlingua --help)  {startup * 1000:7.0f} ms")
        print(f"orjson loads+dumps per line            {floor_rate:9,.0f} lines/s")
        rates = {}
        for jobs in ("1", "2"):
            total = min(cli("convert", str(data), "--to", "anthropic-messages", "--jobs", jobs) for _ in range(2))
            rate = rates[jobs] = THROUGHPUT_LINES / max(total - startup, 1e-9)
            print(
                f"convert --jobs {jobs}                        {rate:9,.0f} lines/s  "
                f"({floor_rate / rate:5.1f}x orjson's time; {total:.2f} s wall with start-up)"
            )
        per_core = f"--jobs 1 {rates['1']:,.0f}, --jobs 2 {rates['2'] / 2:,.0f} lines/s"
        print(f"per core: {per_core}; scaling x{rates['2'] / rates['1']:.2f} on 2")
        if "--engines" in sys.argv:
            engines(data, agent_line, rates["1"])

        mixed = MIXED.read_text().splitlines()
        peaks = {}
        for count in (10_000, 100_000):
            path = Path(tmp) / f"mixed-{count}.jsonl"
            write_lines(path, mixed, count)
            peaks[count] = peak_rss_mb("convert", str(path), "--to", "gemini", "-o", "/dev/null")
            print(f"peak RSS, {count:>7,} mixed lines, --jobs 1  {peaks[count]:7.1f} MB")
        growth = peaks[100_000] / peaks[10_000]
        print(f"100k / 10k peak RSS: {growth:.2f} (flat is 1.0; 10x the lines)")
        jobs2 = peak_rss_mb(
            "convert", str(Path(tmp) / "mixed-100000.jsonl"), "--to", "gemini", "-o", "/dev/null", "--jobs", "2"
        )
        print(f"peak RSS, 100,000 mixed lines, --jobs 2  {jobs2:7.1f} MB (largest single process)")


if __name__ == "__main__":
    main()
