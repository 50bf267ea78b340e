"""Cross-vendor conversion, as ratios against orjson timed in the same rounds (not a test; just prints).

PERF.md's conversion rows: the 40-message OpenAI-chat agent transcript (13 tool calls, 7 results
of about 2 KB, 2 small images, 3 tool schemas) decoded as chat and encoded as another wire, against
orjson's ``loads(dumps)`` of the chat body (targets: decode + encode at most 5x; encode alone at
most pydantic-ai's 3.3x for Gemini, 4.9x for Anthropic, 4.4x for Responses, each measured from its
own types). Then every pair of wires: the same transcript written as the source wire's body,
decoded by the source codec and encoded by the target's, against orjson of the source body.

Cases take turns within each round (``_timing``); ``gc.freeze()`` first, as PERF.md's runs do.
``--instructions SOURCE TARGET N`` runs N conversions only (TARGET ``orjson``: the floor of the
source body), for ``valgrind --tool=callgrind --toggle-collect=functools_reduce``: on a loaded
machine a ratio of times is not to be trusted (a short orjson batch fits in a time slice, a long
conversion is preempted), a ratio of instruction counts is.

Run: ``python bench/bench_conversions.py [--pairs]``
"""

from __future__ import annotations

import functools
import gc
import sys
from pathlib import Path
from typing import Any

import orjson
from _timing import interleaved_us, ratio

import interlingua as il
from interlingua.testing import load_script

SOURCE = "openai-chat"
WIRES = ("openai-chat", "anthropic-messages", "openai-responses", "gemini", "bedrock-converse", "cohere-chat")


def chat_body() -> dict[str, Any]:
    body: dict[str, Any] = load_script(Path(__file__).with_name("bench_openai_chat.py")).transcript()
    return body


def bodies() -> dict[str, dict[str, Any]]:
    """The transcript as each wire's own request body (what a caller of that vendor would send)."""
    request = il.get_codec(SOURCE).decode_request(chat_body())
    return {wire: il.get_codec(wire).encode_request(request).body for wire in WIRES}


def _convert(source: il.Codec, target: il.Codec, body: dict[str, Any]) -> object:
    return target.encode_request(source.decode_request(body))


def _floor(body: dict[str, Any]) -> object:
    return orjson.loads(orjson.dumps(body))


def from_chat() -> None:
    body = chat_body()
    chat = il.get_codec(SOURCE)
    request = chat.decode_request(body)
    cases: dict[str, Any] = {"orjson": functools.partial(_floor, body)}
    for wire in WIRES[1:]:
        codec = il.get_codec(wire)
        cases[f"{wire} decode + encode"] = functools.partial(_convert, chat, codec, body)
        cases[f"{wire} encode"] = functools.partial(codec.encode_request, request)
    runs = interleaved_us(cases, rounds=15, number=10)
    print(f"{SOURCE} request ({len(orjson.dumps(body)) / 1024:.1f} KB) -> each wire, x orjson loads(dumps)")
    for wire in WIRES[1:]:
        both = ratio(runs, f"{wire} decode + encode", "orjson")
        alone = ratio(runs, f"{wire} encode", "orjson")
        print(f"  -> {wire:20s} decode + encode {both:5.2f}x   encode alone {alone:5.2f}x")


def pairs() -> None:
    found = bodies()
    codecs = {wire: il.get_codec(wire) for wire in WIRES}
    cases: dict[str, Any] = {}
    for source, body in found.items():
        cases[f"{source} orjson"] = functools.partial(_floor, body)
        for target in WIRES:
            cases[f"{source} -> {target}"] = functools.partial(_convert, codecs[source], codecs[target], body)
    runs = interleaved_us(cases, rounds=9, number=5)
    print("every pair, decode (row) + encode (column), x orjson of the row's body")
    print(" " * 20 + "".join(f"{w[:12]:>13s}" for w in WIRES))
    worst = 0.0
    for source in WIRES:
        row = [ratio(runs, f"{source} -> {target}", f"{source} orjson") for target in WIRES]
        worst = max(worst, *row)
        print(f"{source:20s}" + "".join(f"{r:12.2f}x" for r in row))
    print(f"worst pair {worst:.2f}x (PERF.md target: every pair at most 5x)")


def main() -> None:
    if "--instructions" in sys.argv:
        source, target, n = sys.argv[sys.argv.index("--instructions") + 1 :][:3]
        body = bodies()[source]
        if target == "orjson":
            step: Any = functools.partial(_floor, body)
        else:
            step = functools.partial(_convert, il.get_codec(source), il.get_codec(target), body)
        functools.reduce(lambda acc, _: step(), range(int(n)), None)
        return
    gc.collect()
    gc.freeze()
    from_chat()
    if "--pairs" in sys.argv:
        pairs()


if __name__ == "__main__":
    main()
