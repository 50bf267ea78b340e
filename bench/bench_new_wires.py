"""Benchmark of the bedrock-converse and cohere-chat codecs (not a test): run
``python bench/bench_new_wires.py``.

Workload: the gemini bench's 40-message agent transcript (13 tool calls, 7 tool results of about
2 KB, 2 small images, 3 tool schemas), written as each wire's request body. Each codec's round
trip (decode + encode) is timed against the orjson round trip (``loads(dumps(body))``) of its
own body in the same run, interleaved; gemini's is timed beside them, as the existing codecs'
reference (issue 30: "within the range of the existing codecs"), and each round trip is also
given as a ratio to gemini's in the same rounds, which a loaded machine moves less than a ratio
to orjson (docs/performance.md). ``--instructions WIRE N`` runs N round trips of one wire
inside ``functools.reduce``, for ``valgrind --tool=callgrind --toggle-collect=functools_reduce``
to count (``PYTHONHASHSEED`` fixed).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import orjson
from _timing import interleaved_us, ratio

import interlingua as il
from interlingua.testing import load_script

WIRES = ("gemini", "bedrock-converse", "cohere-chat")


def bodies() -> dict[str, tuple[il.Codec, dict[str, object]]]:
    request = load_script(Path(__file__).with_name("bench_gemini.py")).transcript()
    found = {}
    for wire in WIRES:
        codec = il.get_codec(wire)
        body = codec.encode_request(request).body
        decode = codec.decode_request
        again = codec.encode_request(decode(body, model=request.model) if wire != "cohere-chat" else decode(body)).body
        assert again == body, wire  # the round trip is exact on its own body
        found[wire] = (codec, body)
    return found


def _round_trip(codec: il.Codec, body: dict[str, object]) -> object:
    return codec.encode_request(codec.decode_request(body))


def main() -> None:
    found = bodies()
    if "--instructions" in sys.argv:
        wire, n = sys.argv[sys.argv.index("--instructions") + 1 :][:2] if len(sys.argv) > 3 else (WIRES[1], "30")
        codec, body = found[wire]
        functools.reduce(lambda acc, _: _round_trip(codec, body), range(int(n)), None)
        return
    cases = {}
    for wire, (codec, body) in found.items():
        cases[f"{wire} orjson"] = functools.partial(lambda b: orjson.loads(orjson.dumps(b)), body)
        cases[f"{wire} decode + encode"] = functools.partial(_round_trip, codec, body)
    runs = interleaved_us(cases, rounds=15, number=10)
    for wire, (_, body) in found.items():
        size = len(orjson.dumps(body))
        times = ratio(runs, f"{wire} decode + encode", f"{wire} orjson")
        beside = ratio(runs, f"{wire} decode + encode", "gemini decode + encode")
        print(f"{wire:17s} {size:7d} bytes  decode + encode {times:5.1f}x orjson, {beside:4.2f}x gemini's")


if __name__ == "__main__":
    main()
