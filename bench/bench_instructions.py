"""Instruction counts of the conversion rows, every case in one callgrind run (not a test; just prints).

Timed ratios on a shared machine move with its load; instruction counts do not (within about 1%
with ``PYTHONHASHSEED`` fixed). This script runs itself under ``valgrind --tool=callgrind`` with
``--toggle-collect=functools_reduce --dump-before=functools_reduce``: each case runs N times
inside its own ``functools.reduce`` (after two warm-up calls outside it: makers compiled, caches
filled), so each dump holds one case's instructions alone. Printed per call, and as a ratio to
orjson's ``loads(dumps)`` of the chat body (the issue 46 table's unit).

The cases: the conversion bench's 40-message chat transcript decoded and encoded as each
installed wire, each encode alone, chat ``decode_request`` alone; the same transcript with two
parallel calls per assistant turn (each result in its own tool message, as chat sends them)
converted to each wire (Gemini and Bedrock want a turn's results in one message); and the
parallel transcript encoded as gemini from a request already in Gemini's shape (decoded from
the gemini body). Wires a baseline install lacks are left out, so the same file measures an
older checkout: ``python bench/bench_instructions.py --python /path/to/base-venv/bin/python``.

Run: ``python bench/bench_instructions.py [--python PY] [--base PY] [-k WORDS] [N]`` (N calls per
case, default 20; ``-k``: only the cases whose name holds WORDS, beside the floor; ``--base``: a
baseline install's interpreter, measured in the same run and printed beside, with the change)
"""

from __future__ import annotations

import copy
import functools
import glob
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
WIRES = ("anthropic-messages", "openai-responses", "gemini", "bedrock-converse", "cohere-chat")


def parallel(body: dict[str, Any]) -> dict[str, Any]:
    """The chat transcript with a second call in every assistant turn that calls, answered by a
    tool message of its own right after the first call's result."""
    out = copy.deepcopy(body)
    messages: list[dict[str, Any]] = []
    second: dict[str, Any] | None = None
    for message in out["messages"]:
        if second is not None and message["role"] != "tool":
            messages.append({"role": "tool", "tool_call_id": second["id"], "content": "3 matches"})
            second = None
        messages.append(message)
        if message["role"] == "assistant" and message.get("tool_calls"):
            first = message["tool_calls"][0]
            second = {**first, "id": first["id"] + "B", "function": {**first["function"], "name": "grep"}}
            message["tool_calls"].append(second)
    if second is not None:
        messages.append({"role": "tool", "tool_call_id": second["id"], "content": "3 matches"})
    out["messages"] = messages
    return out


def _installed(il: Any, wire: str) -> bool:
    try:
        il.get_codec(wire)
    except Exception:  # an older checkout without that codec (its error type has moved)
        return False
    return True


def cases() -> dict[str, Any]:
    """Each case's step, in the order they run."""
    import orjson

    import interlingua as il
    from interlingua.testing import load_script

    body: dict[str, Any] = load_script(HERE / "bench_openai_chat.py").transcript()
    chat = il.get_codec("openai-chat")
    installed = [w for w in WIRES if _installed(il, w)]
    request = chat.decode_request(body)
    both = parallel(body)
    steps: dict[str, Any] = {
        "orjson loads(dumps) of the chat body": functools.partial(lambda b: orjson.loads(orjson.dumps(b)), body),
        "chat decode_request": functools.partial(chat.decode_request, body),
    }
    for wire in installed:
        codec = il.get_codec(wire)
        steps[f"chat -> {wire}"] = functools.partial(lambda c, b: c.encode_request(chat.decode_request(b)), codec, body)
        steps[f"{wire} encode alone"] = functools.partial(codec.encode_request, request)
    # Issue 46 item 1's first candidate, its floor: the same IR validated by pydantic-core in
    # compiled code from plain dicts already in the IR's shape (what a wire schema with aliases
    # validating straight into IR classes could reach at best; the wire's own shape costs more).
    dumped = request.model_dump(mode="json", exclude_defaults=True)
    steps["IR from its own dump, Request.model_validate (compiled)"] = functools.partial(
        type(request).model_validate, dumped
    )
    for wire in installed:
        codec = il.get_codec(wire)
        steps[f"chat, parallel calls -> {wire}"] = functools.partial(
            lambda c, b: c.encode_request(chat.decode_request(b)), codec, both
        )
    gemini = il.get_codec("gemini")
    parallel_request = chat.decode_request(both)
    steps["gemini encode alone, parallel calls"] = functools.partial(gemini.encode_request, parallel_request)
    shaped = gemini.decode_request(gemini.encode_request(parallel_request).body)
    steps["gemini encode alone, parallel calls already in Gemini's shape"] = functools.partial(
        gemini.encode_request, shaped
    )
    return steps


def run(n: int, only: str | None) -> None:
    """Inside valgrind: each case warmed twice, then n calls in one ``functools.reduce``; a last
    empty reduce dumps the last case. ``only``: the floor and the cases whose name holds it."""
    steps = cases()
    if only is not None:
        floor = next(iter(steps))
        steps = {name: step for name, step in steps.items() if name == floor or only in name}
    print("\n".join(steps))
    sys.stdout.flush()
    for step in steps.values():
        step()
        step()
        functools.reduce(lambda acc, _, s=step: s(), range(n), None)
    functools.reduce(lambda acc, _: None, range(1), None)


def measure(python: str, n: int, only: str | None = None) -> list[tuple[str, float]]:
    """Per-call instructions of each case, under ``python`` (this file, that interpreter)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "cg.out")
        command = [
            "valgrind",
            "--tool=callgrind",
            "--toggle-collect=functools_reduce",
            "--dump-before=functools_reduce",
            f"--callgrind-out-file={out}",
            python,
            str(Path(__file__).resolve()),
            "--inside",
            str(n),
            *(["-k", only] if only else []),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, cwd=HERE, env=env, check=True, capture_output=True, text=True)
        names = done.stdout.split("\n")[: done.stdout.count("\n")]
        counts = []
        for path in sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1])):
            with open(path, encoding="utf-8") as file:
                counts.append(next(int(line.split()[1]) for line in file if line.startswith("summary:")))
    # A numbered dump is made before each reduce: the last len(names) hold the cases (earlier
    # ones, what reduce calls at import time did); the final dummy reduce is in the exit dump.
    counts = counts[-len(names) :]
    return [(name, count / n) for name, count in zip(names, counts, strict=True)]


def main() -> None:
    args = sys.argv[1:]
    if "--inside" in args:
        run(int(args[args.index("--inside") + 1]), args[args.index("-k") + 1] if "-k" in args else None)
        return
    python = args[args.index("--python") + 1] if "--python" in args else sys.executable
    base = args[args.index("--base") + 1] if "--base" in args else None
    only = args[args.index("-k") + 1] if "-k" in args else None
    named = ("--python", "--base", "-k")
    rest = [a for i, a in enumerate(args) if a not in named and (i == 0 or args[i - 1] not in named)]
    n = int(rest[0]) if rest else 20
    found = measure(python, n, only)
    floor = found[0][1]
    print(f"instructions per call ({n} calls a case, PYTHONHASHSEED=0), x orjson loads(dumps) of the chat body")
    if base is None:
        for name, count in found:
            print(f"  {name:66s} {count / 1e6:7.3f} M  {count / floor:6.2f}x")
        return
    was = dict(measure(base, n, only))
    was_floor = next(iter(was.values()))
    print(f"  {'case':66s} {'base':>16s}  {'this install':>16s}  change")
    for name, count in found:
        if name not in was:
            print(f"  {name:66s} {'-':>16s}  {count / 1e6:6.3f} M {count / floor:5.2f}x")
            continue
        before = was[name]
        print(
            f"  {name:66s} {before / 1e6:6.3f} M {before / was_floor:5.2f}x  {count / 1e6:6.3f} M {count / floor:5.2f}x"
            f"  {count / before - 1:+.1%}"
        )


if __name__ == "__main__":
    main()
