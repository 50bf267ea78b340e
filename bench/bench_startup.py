"""Start-up: what ``import interlingua`` and loading codecs add over ``from pydantic import BaseModel``
(not a test; just prints). Issue 46's targets: the core within +20 ms, the core with any one codec
within +40 ms.

Each statement runs in a fresh interpreter; every round runs each statement once, in turn, so a
burst of load from another process lands on all of them alike; a figure is the median of 11
rounds minus the floor's median. Times are CPU times (the machine is shared: wall time counts the
waits). The in-process lines time the statement inside an interpreter that has the floor already
(no interpreter start-up or tear-down in them), which is steadier.
``--instructions`` counts instructions instead (callgrind, one run each, ``PYTHONHASHSEED=0``;
about half a minute a statement): what the load on a shared machine does not move.
``--profile`` prints ``-X importtime``'s largest modules above the floor (self time, one run: a
pointer to where the time goes, not a measure).
``--python PY`` (repeatable) measures other installs in the same run, a column each, their
statements interleaved with this interpreter's in every round: before and after side by side. A
codec an install lacks is left out of its column.

Run: ``python bench/bench_startup.py [--instructions] [--profile] [--python PY ...]``
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile

ROUNDS = 11
FLOOR = "from pydantic import BaseModel"
CODECS = ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse", "cohere-chat")

# What any program pays for its first pydantic model with a field, built lazily as the IR's are
# (``defer_build``): the floor does not import ``pydantic.fields`` (and with it ``pydantic.types``,
# ``annotated_types``, ``hmac``), the first field does. A reference line, so the core's figure can
# be read against what pydantic itself adds before any of our code runs.
REFERENCE = "class M(BaseModel, defer_build=True):\n    x: int"

STATEMENTS = {
    "one model with a field (reference)": REFERENCE,
    "core": "import interlingua",
    **{f"core + {name}": f"import interlingua; interlingua.get_codec({name!r})" for name in CODECS},
    "core + 6 codecs": f"import interlingua; [interlingua.get_codec(n) for n in {CODECS!r}]",
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


def _cold_ms(python: str, code: str) -> float:
    """CPU time (user + system) of a fresh interpreter running ``code``: on a shared machine a
    process's CPU time moves far less than its wall time, which counts the time it waited."""
    child = subprocess.Popen([python, "-c", code], env=_ENV)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, code)
    return (usage.ru_utime + usage.ru_stime) * 1e3


def _inside_ms(python: str, code: str) -> float:
    script = _IN_PROCESS.format(floor=FLOOR, code=code)
    out = subprocess.run([python, "-c", script], check=True, env=_ENV, capture_output=True, text=True)
    return float(out.stdout)


def statements(python: str) -> dict[str, str]:
    """The statements ``python``'s install can run: a codec it lacks is left out."""
    probe = "import interlingua; print(' '.join(interlingua.codecs()))"
    found = subprocess.run([python, "-c", probe], check=True, env=_ENV, capture_output=True, text=True).stdout.split()
    return {label: code for label, code in STATEMENTS.items() if not label.startswith("core + ") or _runs(label, found)}


def _runs(label: str, installed: list[str]) -> bool:
    name = label.removeprefix("core + ")
    return (name == "6 codecs" and set(CODECS) <= set(installed)) or name in installed


def measure(pythons: list[str], rounds: int = ROUNDS) -> dict[str, dict[str, tuple[float, float]]]:
    """Per install, per statement: (cold ms over the floor's process, ms inside a process that
    has the floor). Every round runs every install's statements once, in turn."""
    runs = {python: statements(python) for python in pythons}
    for python, table in runs.items():
        for code in table.values():
            _cold_ms(python, f"{FLOOR}\n{code}")  # write the bytecode caches, as any install does
    cold: dict[str, dict[str, list[float]]] = {python: {"floor": []} for python in runs}
    inside: dict[str, dict[str, list[float]]] = {python: {} for python in runs}
    for python, table in runs.items():
        cold[python].update({label: [] for label in table})
        inside[python].update({label: [] for label in table})
    for _ in range(rounds):
        for python, table in runs.items():
            cold[python]["floor"].append(_cold_ms(python, FLOOR))
            for label, code in table.items():
                cold[python][label].append(_cold_ms(python, f"{FLOOR}\n{code}"))
                inside[python][label].append(_inside_ms(python, code))
    median = statistics.median
    return {
        python: {label: (median(cold[python][label]) - median(cold[python]["floor"]), median(inside[python][label]))
                 for label in table}
        for python, table in runs.items()
    }


def instructions(python: str) -> dict[str, int]:
    """Instructions (callgrind's total) of a fresh interpreter running each statement, minus the
    floor's; string hashing is seeded so two versions count the same work alike."""

    def count(code: str) -> int:
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "callgrind.out")
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, "-c", code]
            subprocess.run(command, check=True, env={**_ENV, "PYTHONHASHSEED": "0"}, capture_output=True)
            with open(out, encoding="utf-8") as file:
                return next(int(line.split()[1]) for line in file if line.startswith("summary:"))

    table = statements(python)
    for code in table.values():  # write the bytecode caches first, as any install does
        subprocess.run([python, "-c", f"{FLOOR}\n{code}"], check=True, env=_ENV)
    floor = count(FLOOR)
    return {label: count(f"{FLOOR}\n{code}") - floor for label, code in table.items()}


def profile(code: str = STATEMENTS["core + 6 codecs"], top: int = 25) -> None:
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


def _columns(pythons: list[str], rows: dict[str, dict[str, str]]) -> None:
    """One row per statement, one column per install (``-``: not installed there)."""
    for i, python in enumerate(pythons):
        print(f"  [{i}] {python}")
    print(f"  {'':<36}" + "".join(f"{f'[{i}]':>24}" for i in range(len(pythons))))
    for label in STATEMENTS:
        print(f"  {label:<36}" + "".join(f"{rows[python].get(label, '-'):>24}" for python in pythons))


def main() -> None:
    args = sys.argv[1:]
    pythons = [sys.executable, *(args[i + 1] for i, arg in enumerate(args) if arg == "--python")]
    if "--instructions" in args:
        print(f"instructions over `{FLOOR}` (callgrind, PYTHONHASHSEED=0), millions")
        counts = {python: instructions(python) for python in pythons}
        _columns(pythons, {python: {k: f"+{v / 1e6:.1f}" for k, v in c.items()} for python, c in counts.items()})
        return
    print(f"CPU ms over `{FLOOR}`, medians of {ROUNDS} rounds: cold process; inside a process that has the floor")
    found = measure(pythons)
    _columns(pythons, {python: {k: f"+{c:.1f}; {i:.1f}" for k, (c, i) in t.items()} for python, t in found.items()})
    if "--profile" in args:
        profile()


if __name__ == "__main__":
    main()
