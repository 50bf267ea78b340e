"""Start-up: what ``import interlingua`` and loading codecs add over ``from pydantic import BaseModel``
(not a test; just prints). PERF.md targets: core +20 ms, core and the four codecs +40 ms.

Each statement runs in a fresh interpreter; every round runs each statement once, in turn, so a
burst of load from another process lands on all of them alike; a figure is the median of 11
rounds minus the floor's median. Times are CPU times (the machine is shared: wall time counts the
waits). The in-process lines time the statement inside an interpreter that has the floor already
(no interpreter start-up or tear-down in them), which is steadier.
``--instructions`` counts instructions instead (callgrind, one run each, ``PYTHONHASHSEED=0``;
about half a minute a statement): what the load on a shared machine does not move.
``--profile`` prints ``-X importtime``'s largest modules above the floor (self time, one run: a
pointer to where the time goes, not a measure).

Run: ``python bench/bench_startup.py [--instructions] [--profile]``
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile

ROUNDS = 11
FLOOR = "from pydantic import BaseModel"
CODECS = ("anthropic-messages", "openai-chat", "openai-responses", "gemini")

# What any program pays for its first pydantic model with a field, built lazily as the IR's are
# (``defer_build``): the floor does not import ``pydantic.fields`` (and with it ``pydantic.types``,
# ``annotated_types``, ``hmac``), the first field does. A reference line, so the core's figure can
# be read against what pydantic itself adds before any of our code runs.
REFERENCE = "class M(BaseModel, defer_build=True):\n    x: int"

STATEMENTS = {
    "one model with a field (reference)": REFERENCE,
    "core": "import interlingua",
    **{f"core + {name}": f"import interlingua; interlingua.get_codec({name!r})" for name in CODECS},
    "core + 4 codecs": f"import interlingua; [interlingua.get_codec(n) for n in {CODECS!r}]",
}

# Users import from compiled bytecode; an environment with PYTHONDONTWRITEBYTECODE set (as some
# CI images and sandboxes have) would otherwise time the compiling of every module, every run.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

_IN_PROCESS = """
import time
{floor}
start = time.process_time()
{code}
print((time.process_time() - start) * 1e3)
"""


def _cold_ms(code: str) -> float:
    """CPU time (user + system) of a fresh interpreter running ``code``: on a shared machine a
    process's CPU time moves far less than its wall time, which counts the time it waited."""
    child = subprocess.Popen([sys.executable, "-c", code], env=_ENV)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, code)
    return (usage.ru_utime + usage.ru_stime) * 1e3


def _inside_ms(code: str) -> float:
    script = _IN_PROCESS.format(floor=FLOOR, code=code)
    out = subprocess.run([sys.executable, "-c", script], check=True, env=_ENV, capture_output=True, text=True)
    return float(out.stdout)


def measure(rounds: int = ROUNDS) -> dict[str, tuple[float, float]]:
    """Per statement: (cold ms over the floor's process, ms inside a process that has the floor)."""
    for code in STATEMENTS.values():
        _cold_ms(f"{FLOOR}\n{code}")  # write the bytecode caches, as any install does
    cold: dict[str, list[float]] = {label: [] for label in ["floor", *STATEMENTS]}
    inside: dict[str, list[float]] = {label: [] for label in STATEMENTS}
    for _ in range(rounds):
        cold["floor"].append(_cold_ms(FLOOR))
        for label, code in STATEMENTS.items():
            cold[label].append(_cold_ms(f"{FLOOR}\n{code}"))
            inside[label].append(_inside_ms(code))
    floor = statistics.median(cold["floor"])
    return {label: (statistics.median(cold[label]) - floor, statistics.median(inside[label])) for label in STATEMENTS}


def instructions(
    labels: tuple[str, ...] = ("one model with a field (reference)", "core", "core + 4 codecs"),
) -> dict[str, int]:
    """Instructions (callgrind's total) of a fresh interpreter running each statement, minus the
    floor's; string hashing is seeded so two versions count the same work alike."""

    def count(code: str) -> int:
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "callgrind.out")
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", code]
            subprocess.run(command, check=True, env={**_ENV, "PYTHONHASHSEED": "0"}, capture_output=True)
            with open(out, encoding="utf-8") as file:
                return next(int(line.split()[1]) for line in file if line.startswith("summary:"))

    for label in labels:  # write the bytecode caches first, as any install does
        subprocess.run([sys.executable, "-c", f"{FLOOR}\n{STATEMENTS[label]}"], check=True, env=_ENV)
    floor = count(FLOOR)
    return {label: count(f"{FLOOR}\n{STATEMENTS[label]}") - floor for label in labels}


def profile(code: str = STATEMENTS["core + 4 codecs"], top: int = 25) -> None:
    """The modules with the largest self time that the floor does not import."""

    def importtime(statement: str) -> dict[str, int]:
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", statement], check=True, env=_ENV, capture_output=True, text=True
        )
        rows = {}
        for line in out.stderr.splitlines()[1:]:
            _, self_us, _, name = (part.strip() for part in line.replace("|", ":", 2).split(":", 3))
            rows[name] = int(self_us)
        return rows

    floor = importtime(FLOOR)
    rows = {name: us for name, us in importtime(f"{FLOOR}; {code}").items() if name not in floor}
    total = sum(rows.values())
    print(f"-X importtime, self us, the {top} largest of {len(rows)} modules above the floor ({total} us in all):")
    for name, us in sorted(rows.items(), key=lambda row: -row[1])[:top]:
        print(f"  {us:7d}  {name}")


def main() -> None:
    if "--instructions" in sys.argv:
        print(f"{sys.executable}: instructions over `{FLOOR}` (callgrind)")
        for label, count in instructions().items():
            print(f"  {label:<36} +{count / 1e6:7.1f} M")
        return
    print(f"{sys.executable}: CPU time over `{FLOOR}`, medians of {ROUNDS} rounds (ms)")
    for label, (cold, inside) in measure().items():
        print(f"  {label:<36} cold +{cold:6.1f}   inside a process with the floor {inside:6.1f}")
    if "--profile" in sys.argv:
        profile()


if __name__ == "__main__":
    main()
