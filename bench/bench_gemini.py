"""Benchmark of the gemini codec (not a test): run ``python bench/bench_gemini.py``.

Workload: a 40-message agent transcript (13 tool calls, 7 tool results of about 2 KB, 2 small
images, 3 tool schemas) as a Gemini request body. Ratios are against the orjson round trip
(``loads(dumps(body))``) of the same body, timed in the same run; target: decode + encode under
10x (PERF.md aims lower). Streams: decode events per second from raw SSE bytes to a Response.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import orjson

import interlingua as il
from interlingua import Image, MediaSource, Message, Request, Text, Tool, ToolResult, ToolUse
from interlingua.testing import real_fixtures

CODEC = il.get_codec("gemini")
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==" * 8


def transcript() -> Request:
    schema = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"]}
    tools = [
        Tool(name=f"tool_{i}", description="Look something up in the index.", input_schema=schema) for i in range(3)
    ]
    messages: list[Message] = [Message.system("You are a careful research agent. " * 10)]
    calls = 0
    results = 0
    while len(messages) < 40:
        turn = len(messages)
        if turn in (1, 21):
            messages.append(
                Message.user(
                    Text("Look at this picture and find sources."), Image(MediaSource.from_base64("image/png", PNG))
                )
            )
        elif calls < 13 and turn % 3 == 2:
            batch = [
                ToolUse(f"call_{calls + k}", f"tool_{k % 3}", {"q": f"query {calls + k}", "n": 5})
                for k in range(2 if calls < 12 else 1)
            ]
            calls += len(batch)
            messages.append(Message.assistant(Text("Let me check."), *batch))
            answers = [ToolResult(c.id, c.name, ("result row " * 180) if results < 7 else "ok") for c in batch]
            results += len(batch)
            messages.append(Message.tool(*answers))
        elif turn % 2:
            messages.append(Message.user("Continue with the next item, please."))
        else:
            messages.append(Message.assistant("Here is what I found so far: " + "detail " * 40))
    return Request(model="gemini-2.5-flash", messages=messages[:40], tools=tools, max_tokens=4096)


def median_us(fn: Callable[[], Any], repeat: int = 7, number: int = 200) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(runs)


def main() -> None:
    request = transcript()
    body = CODEC.encode_request(request).body
    size = len(orjson.dumps(body))
    base = median_us(lambda: orjson.loads(orjson.dumps(body)))
    encode = median_us(lambda: CODEC.encode_request(request))
    decode = median_us(lambda: CODEC.decode_request(body))
    both = median_us(lambda: CODEC.encode_request(CODEC.decode_request(body)))
    print(f"request body: {len(request.messages)} messages, {size / 1024:.1f} KB")
    print(f"orjson loads(dumps)        {base:8.1f} us   1.00x")
    for label, value in (("encode_request", encode), ("decode_request", decode), ("decode + encode", both)):
        print(f"{label:<26} {value:8.1f} us  {value / base:5.2f}x")

    for path in real_fixtures("gemini", "stream", "*.sse.txt"):
        raw = path.read_bytes()
        chunks = [raw[i : i + 997] for i in range(0, len(raw), 997)]
        count = sum(1 for _ in CODEC.decode_stream(il.parse_sse(chunks)))
        per = median_us(lambda chunks=chunks: il.accumulate(CODEC.decode_stream(il.parse_sse(chunks))), number=50)
        name = path.name.split(".")[0]
        print(f"stream {name:<46} {count:4d} events  {per / count:6.2f} us/event  {count / per * 1e6:8.0f} events/s")


if __name__ == "__main__":
    main()
