"""openai-chat costs, as ratios against baselines timed in the same rounds (not a test; just prints).

- PERF.md's workload, a 40-message agent transcript (13 tool calls, each answered as the API
  requires, 7 of the results ~2 KB, 2 small images, 3 tool schemas): decode_request,
  encode_request and the round trip, against the orjson round trip of the same body (issue:
  round trip under 10x; PERF.md: 2.5x, and encode at most 1.5x a plain-dict restructure, about
  1.2x orjson). Beside it, the same transcript with its six short results missing (a log the API
  would refuse): encode_request's turn rules (the core's ``normalize_request``) repair it on
  every encode, and that share is printed apart.
- decode_response of each recorded completion, against the SDK's own ``ChatCompletion.model_validate``
  (PERF.md: no slower).
- Issue 28's two answers, a text answer (``parallel-tool-calls-turn2``) and a two-tool-call answer
  (``parallel-tool-calls-turn1``): decode_response against ``ChatCompletion.model_validate`` of
  the same dict (target: at most the SDK). ``--instructions NAME N ours|sdk`` runs one of them N
  times inside ``functools.reduce`` instead, for callgrind's
  ``--toggle-collect=functools_reduce`` (instructions that the machine's load does not move).
- The largest recorded stream from raw SSE bytes to an accumulated Response, per event (PERF.md: at
  most 6 us), beside the SSE framing alone (httpx2) and framing + ``orjson.loads``.

The cases of a table take turns within each round and each ratio is the median of per-round
ratios: other processes' load drifts over seconds, so it weighs on both sides of a ratio (alike for
CPU load, not for memory contention: see ``_timing``).

Run: ``python bench/bench_openai_chat.py``
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

import orjson
from _timing import interleaved_us, ratio

import interlingua as il
from interlingua.kit import normalize_request
from interlingua.testing import load_body, read_stream_file, real_fixtures, real_fixtures_dir
from interlingua_openai.chat import OpenAIChatCodec

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==" * 4


def transcript(*, answer_all: bool = True) -> dict[str, Any]:
    """The workload; ``answer_all=False`` leaves the six short results out (a broken log)."""
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["path"],
    }
    tools = [
        {"type": "function", "function": {"name": n, "description": f"{n} a file", "parameters": schema}}
        for n in ("read", "grep", "list")
    ]
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a careful coding agent. " * 20}]
    for turn in range(13):
        if len(messages) >= 39:
            break
        if turn in (2, 8):
            messages.append(
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Look at this screenshot."},
                        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
                    ],
                }
            )
        else:
            messages.append(
                {"role": "user", "content": f"Step {turn}: please continue with the refactor of module {turn}."}
            )
        call_id = f"call_{turn:02d}AbCdEfGhIjKlMnOpQrSt"
        messages.append(
            {
                "role": "assistant",
                "content": "Reading the file.",
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {
                            "name": "read",
                            "arguments": json.dumps({"path": f"src/mod{turn}.py", "limit": 200}),
                        },
                    }
                ],
            }
        )
        if turn % 2 == 0:
            messages.append(
                {"role": "tool", "tool_call_id": call_id, "content": ("def f(x):\n    return x * 2\n" * 75)[:2000]}
            )
        elif answer_all:
            messages.append({"role": "tool", "tool_call_id": call_id, "content": "ok"})
    while len(messages) < 40:
        role = "assistant" if messages[-1]["role"] != "assistant" else "user"
        messages.append({"role": role, "content": "Noted; the change looks right. " * 30})
    return {
        "model": "gpt-4o",
        "messages": messages[:40],
        "tools": tools,
        "tool_choice": "auto",
        "max_completion_tokens": 4096,
    }


def timed(cases: dict[str, tuple[Callable[[], object], int]], rounds: int = 9) -> dict[str, tuple[float, float]]:
    """Each case's median microseconds and its median per-round ratio to the first case (the
    baseline)."""
    runs = interleaved_us(cases, rounds=rounds)
    base = next(iter(cases))
    return {name: (statistics.median(runs[name]), ratio(runs, name, base)) for name in cases}


def requests(codec: OpenAIChatCodec) -> None:
    body = transcript()
    request = codec.decode_request(body)
    broken = codec.decode_request(transcript(answer_all=False))
    got = timed(
        {
            "orjson loads(dumps)": (lambda: orjson.loads(orjson.dumps(body)), 100),
            "decode_request": (lambda: codec.decode_request(body), 30),
            "encode_request": (lambda: codec.encode_request(request), 30),
            "decode + encode": (lambda: codec.encode_request(codec.decode_request(body)), 30),
            "encode_request, 6 results missing": (lambda: codec.encode_request(broken), 30),
            "  of which the turn rules": (
                lambda: normalize_request(broken, codec.rules, codec=codec.name, reasoning="drop"),
                30,
            ),
        }
    )
    print(f"transcript: {len(body['messages'])} messages, {len(orjson.dumps(body)) / 1024:.1f} KB")
    notes = {
        "decode + encode": "  (issue: < 10x; PERF.md: 2.5x)",
        "encode_request, 6 results missing": "  (the turn rules add an error result for each)",
        "  of which the turn rules": "  (core normalize_request)",
    }
    for name, (us, factor) in got.items():
        print(f"{name:35s} {us:8.1f} us  {factor:5.2f}x{notes.get(name, '')}")


def responses(codec: OpenAIChatCodec) -> None:
    from openai.types.chat import ChatCompletion

    for path in real_fixtures("openai-chat", "response"):
        answer = load_body(path)
        got = timed(
            {
                "sdk": (partial(ChatCompletion.model_validate, answer), 300),
                "ours": (partial(codec.decode_response, answer), 300),
            }
        )
        (sdk, _), (ours, factor) = got["sdk"], got["ours"]
        print(f"decode_response {path.stem:40s} {ours:6.1f} us; SDK model_validate {sdk:6.1f} us  {factor:5.2f}x")


ANSWERS = {"text": "parallel-tool-calls-turn2", "two tool calls": "parallel-tool-calls-turn1"}


def answers(codec: OpenAIChatCodec) -> None:
    """Issue 28's pair, each beside the SDK's ``model_validate`` in the same rounds."""
    from openai.types.chat import ChatCompletion

    for label, name in ANSWERS.items():
        answer = load_body(real_fixtures_dir() / "openai-chat" / "response" / f"{name}.json")
        got = timed(
            {
                "sdk": (partial(ChatCompletion.model_validate, answer), 300),
                "ours": (partial(codec.decode_response, answer), 300),
            },
            rounds=15,
        )
        (sdk, _), (ours, factor) = got["sdk"], got["ours"]
        print(f"decode_response, {label:14s} {ours:6.1f} us; SDK model_validate {sdk:6.1f} us  {factor:5.2f}x (<= 1)")


def instructions(name: str, n: int, side: str) -> None:
    """``n`` decodes of one recorded answer inside ``functools.reduce``, for callgrind's toggle."""
    import functools

    from openai.types.chat import ChatCompletion

    answer = load_body(real_fixtures_dir() / "openai-chat" / "response" / f"{name}.json")
    decode: Callable[[Any], object] = (
        ChatCompletion.model_validate if side == "sdk" else OpenAIChatCodec().decode_response
    )
    for _ in range(20):  # warm: makers compiled, caches filled
        decode(answer)
    functools.reduce(lambda acc, _: decode(answer), range(n), None)


def streams(codec: OpenAIChatCodec) -> None:
    """The largest recorded stream, rendered to SSE bytes once, then framed (httpx2), parsed,
    decoded and accumulated per run; beside it the framing alone and framing + orjson."""
    path = max(real_fixtures("openai-chat", "stream"), key=lambda p: p.stat().st_size)
    raw = b"".join(il.render_sse(read_stream_file(path)))
    chunks = [raw[i : i + 4096] for i in range(0, len(raw), 4096)]
    events = list(il.parse_sse(chunks))
    n = len(events)
    got = timed(
        {
            "SSE framing alone": (lambda: list(il.parse_sse(chunks)), 10),
            "framing + orjson.loads": (lambda: [orjson.loads(e.data) for e in il.parse_sse(chunks)], 10),
            "decode_stream of events": (lambda: list(codec.decode_stream(events)), 10),
            "raw bytes -> Response": (lambda: il.accumulate(codec.decode_stream(il.parse_sse(chunks))), 10),
        }
    )
    print(f"stream {path.name}: {n} events, {len(raw) / 1024:.0f} KB (per event; x = over the framing alone)")
    for name, (us, factor) in got.items():
        note = "  (PERF.md target <= 6 us)" if name.startswith("raw") else ""
        print(f"  {name:26s} {us / n:5.2f} us  {factor:5.2f}x{note}")


def main() -> None:
    real_fixtures_dir()  # the recorded corpus is read below: absent, stop here with its one line
    if "--instructions" in sys.argv:
        name, n, side = sys.argv[sys.argv.index("--instructions") + 1 :][:3]
        instructions(name, int(n), side)
        return
    codec = OpenAIChatCodec()
    requests(codec)
    answers(codec)
    responses(codec)
    streams(codec)


if __name__ == "__main__":
    main()
