"""The typed-errors contract (DESIGN.md invariant 5) over many mutated real inputs (not a test).

Mutates the real corpus (``shared/fixtures/real``) and the golden fixtures (``fixtures/<wire>``)
with ``interlingua.testing.mutations`` (the mutations the hypothesis test uses), driven by a
seeded ``random.Random``, no shrinking. Every decoder of the four wires gets the inputs; what
it accepts goes to every codec's encoder, whose body must also be sendable JSON. Prints, per
decoder and per encoder: tried, accepted, typed errors, and untyped exceptions by type and by
site (file:line of the raising frame), with one example input each.

Run: ``python bench/fuzz_contract.py [N] [--seed S]`` (N inputs, default 100000).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import interlingua as il
from interlingua.testing import mutations as mut

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Tally:
    tried: int = 0
    accepted: int = 0
    typed: int = 0
    pathless: int = 0  # DecodeErrors that name no path (caught by ``decoding`` as a stray error)
    deep: int = 0  # DecodeErrors for nesting past MAX_DEPTH (their path is the body's)
    untyped: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)

    def fail(self, err: BaseException, example: Any) -> None:
        frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
        site = f"{Path(frame.filename).name}:{frame.lineno}" if frame else "?"
        key = f"{type(err).__name__} at {site}"
        self.untyped[key] += 1
        if key not in self.examples:
            self.examples[key] = f"{str(err)[:160]!r} on {_short(example)}"


def _short(value: Any) -> str:
    try:
        text = json.dumps(value, default=repr)
    except ValueError:
        text = repr(value)
    except RecursionError:
        text = "<nested too deep to print>"
    return text if len(text) < 300 else text[:297] + "..."


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    codecs = {wire: il.get_codec(wire) for wire in mut.wires()}
    corpora = {wire: mut.load_corpus(wire, ROOT / "fixtures" / wire) for wire in mut.wires()}
    decoders: dict[str, Tally] = {}
    encoders: dict[str, Tally] = {}
    start = time.perf_counter()
    for i in range(args.n):
        wire = rng.choice(mut.wires())
        kind = rng.choice(mut.KINDS)
        value = mut.mutated_input(corpora[wire], kind, rng)
        if value is None:
            continue
        tally = decoders.setdefault(f"{wire} decode_{kind}", Tally())
        tally.tried += 1
        try:
            decoded = mut.decode_mutated(codecs[wire], kind, value)
        except il.InterlinguaError as err:
            tally.typed += 1
            if isinstance(err, il.DecodeError) and not err.path:
                deep = err.reason.startswith("nested more than")
                tally.deep += deep
                tally.pathless += not deep
            continue
        except Exception as err:  # the run counts what the contract forbids
            tally.fail(err, value)
            continue
        tally.accepted += 1
        if kind == "error":
            continue
        what = "request" if kind == "request" else "response"
        for name, codec in codecs.items():
            out = encoders.setdefault(f"{name} encode_{what}", Tally())
            out.tried += 1
            try:
                mut.encode_decoded(codec, decoded)
            except il.InterlinguaError:
                out.typed += 1
            except Exception as err:  # as above
                out.fail(err, value if wire == name else f"{wire} {kind}: {_short(value)}")
            else:
                out.accepted += 1
        if i and i % 10_000 == 0:
            print(f"... {i} inputs, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    print(f"{args.n} inputs (seed {args.seed}) in {elapsed:.0f} s")
    untyped = 0
    for title, tallies in (("decoders", decoders), ("encoders (of what decoders accepted)", encoders)):
        print(f"\n{title}: tried, accepted, typed errors (of them: too deep / no path), untyped")
        for name in sorted(tallies):
            t = tallies[name]
            total = sum(t.untyped.values())
            untyped += total
            split = f"({t.deep} / {t.pathless})" if title == "decoders" else ""
            print(f"  {name:42} {t.tried:7} {t.accepted:7} {t.typed:7} {split:>14} {total:5}")
            for key, count in t.untyped.most_common():
                print(f"      {count:5} {key}\n            e.g. {t.examples[key]}")
    print(f"\nuntyped exceptions: {untyped}")


if __name__ == "__main__":
    sys.setrecursionlimit(1000)  # the default: deep-nesting inputs must be refused, not outgrow it
    main()
