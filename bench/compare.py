"""Every bench against a baseline install, in one run (not a test; just prints).

Install the baseline commit in a second venv once (``git worktree add ../base <commit>``, then a
venv with ``pip install -r requirements-dev.txt`` from there), and any change's effect is one
command away::

    python bench/compare.py --base /path/to/base-venv                 # every bench_*.py
    python bench/compare.py --base /path/to/base-venv short_streams   # the ones named
    python bench/compare.py --base /path/to/base-venv --callgrind short_streams

Each bench script runs under the baseline's interpreter and under this one, taking turns for
``--rounds`` rounds (so load from other processes lands on both alike). The scripts are the same
files, from this checkout; only the installed interlingua differs. A bench prints lines of
figures; lines are paired by their text with the figures taken out, and for each pair the first
figure is shown for both sides, with ours over the baseline's (medians over the rounds; below 1
is faster when the figure is a time or a ratio to a floor). ``--callgrind`` counts each script's
instructions instead (valgrind, ``PYTHONHASHSEED=0``, one run each): steady on a loaded machine,
but about 50x slower, so name short benches.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SKIPPED = ("bench_transport.py",)  # needs a local server of its own; run it by hand
_FIGURE = re.compile(r"[-+]?(\d[\d,]*(?:\.\d+)?)(?:x|ms|us|M|%)?,?")
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def scripts(names: list[str]) -> list[Path]:
    found = sorted(p for p in HERE.glob("bench_*.py") if p.name not in SKIPPED)
    if not names:
        return found
    chosen = [p for p in found if any(p.stem in (n, f"bench_{n}") for n in names)]
    missing = set(names) - {p.stem for p in chosen} - {p.stem.removeprefix("bench_") for p in chosen}
    if missing:
        raise SystemExit(f"no bench named {sorted(missing)}; there are {[p.stem for p in found]}")
    return chosen


def _figure(token: str) -> float | None:
    """A standalone figure (``12.5``, ``+60.3``, ``8.4x``, ``1,010``), or None for a word."""
    match = _FIGURE.fullmatch(token)
    return float(match.group(1).replace(",", "")) if match else None


def figures(output: str) -> dict[str, list[float]]:
    """Each line's figures, keyed by the line's words (a name such as ``base64`` or ``~2`` is a
    word: only whitespace-separated figures count)."""
    out: dict[str, list[float]] = {}
    for line in output.splitlines():
        tokens = line.replace("(", " ").replace(")", " ").split()
        found = [(token, _figure(token)) for token in tokens]
        values = [value for _, value in found if value is not None]
        if values:
            out.setdefault(" ".join(token if value is None else "#" for token, value in found), values)
    return out


def run(python: str, script: Path) -> str:
    done = subprocess.run([python, str(script)], cwd=HERE, env=_ENV, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{script.name} failed under {python}:\n{done.stderr[-2000:]}")
    return done.stdout


def instructions(python: str, script: Path) -> int:
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, str(script)]
        subprocess.run(command, cwd=HERE, env={**_ENV, "PYTHONHASHSEED": "0"}, check=True, capture_output=True)
        with open(out, encoding="utf-8") as file:
            return next(int(line.split()[1]) for line in file if line.startswith("summary:"))


def compare(base: str, script: Path, rounds: int) -> None:
    sides: dict[str, list[dict[str, list[float]]]] = {"base": [], "ours": []}
    for _ in range(rounds):
        sides["base"].append(figures(run(base, script)))
        sides["ours"].append(figures(run(sys.executable, script)))
    print(f"== {script.name}  (each figure: ours/base, medians of {rounds} runs; the line as ours printed it)")
    for key, values in sides["ours"][0].items():
        runs = [run_[key] for side in sides.values() for run_ in side if key in run_]
        if len(runs) != 2 * rounds or len({len(r) for r in runs}) != 1:
            continue
        was = [statistics.median(run_[key][i] for run_ in sides["base"]) for i in range(len(values))]
        now = [statistics.median(run_[key][i] for run_ in sides["ours"]) for i in range(len(values))]
        ratios = " ".join(f"{n / w:5.2f}" if w else "    -" for w, n in zip(was, now, strict=True))
        pieces = key.split("#")
        line = pieces[0] + "".join(f"{n:g}{rest}" for n, rest in zip(now, pieces[1:], strict=True))
        print(f"  [{ratios}]  {line[:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the baseline venv (or its python)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead of timing")
    parser.add_argument("benches", nargs="*", help="short names (short_streams) or file stems; default: all")
    args = parser.parse_args()
    base = Path(args.base)
    python = str(base / "bin" / "python") if base.is_dir() else str(base)
    for script in scripts(args.benches):
        if args.callgrind:
            was, now = instructions(python, script), instructions(sys.executable, script)
            print(f"== {script.name}: {was / 1e6:,.1f} M -> {now / 1e6:,.1f} M instructions, {now / was:.3f}x")
        else:
            compare(python, script, args.rounds)


if __name__ == "__main__":
    main()
