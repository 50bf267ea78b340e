"""Benchmark of the openai-responses codec (not a test): run ``python bench/bench_openai_responses.py``.

Workload: a 40-message agent transcript (13 tool calls, 7 tool results of about 2 KB, 2 small
images, 3 tool schemas) as a Responses request body; the recorded reasoning and web-search
streams. Ratios are against ``orjson.loads(orjson.dumps(body))`` timed in the same run.
Targets (PERF.md / issue 5): request round trip under 10x (aim 2.5x), stream under 6 us/event.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import orjson

from interlingua import MediaSource, Message, Request, Text, Tool, ToolResult, ToolUse, accumulate, parse_sse
from interlingua.testing import real_fixtures
from interlingua_openai.responses import OpenAIResponsesCodec

CODEC = OpenAIResponsesCodec()
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def transcript() -> Request:
    schema = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"]}
    tools = [Tool(name=f"tool_{i}", description=f"Tool number {i}", input_schema=schema) for i in range(3)]
    messages: list[Message] = [Message.system("You are a careful agent. " * 10)]
    from interlingua import Image

    messages.append(Message.user("Look at these.", Image(MediaSource.from_base64("image/png", PNG))))
    calls = 0
    while len(messages) < 40:
        turn = len(messages)
        uses = [ToolUse(f"call_{calls + k}", f"tool_{k % 3}", {"q": f"query {turn} {k}", "n": k}) for k in range(2)]
        calls += 2
        messages.append(Message.assistant(Text(f"Step {turn}: calling tools."), *uses))
        if calls <= 14:
            messages.append(Message.tool(*(ToolResult(u.id, u.name, "result line. " * 80) for u in uses[:1])))
            messages.append(Message.tool(*(ToolResult(u.id, u.name, "ok") for u in uses[1:])))
        else:
            messages.append(Message.user(f"Continue with step {turn}."))
    messages[-1] = Message.user("Last one.", Image(MediaSource.from_url("https://example.com/a.png")))
    return Request(model="gpt-5", messages=messages[:40], tools=tools, max_tokens=2000)


def timed(fn: Callable[[], Any], repeat: int = 7, number: int = 50) -> float:
    """Median microseconds per call."""
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
    raw = orjson.dumps(body)
    baseline = timed(lambda: orjson.loads(orjson.dumps(body)))
    decode = timed(lambda: CODEC.decode_request(body))
    decoded = CODEC.decode_request(body)
    encode = timed(lambda: CODEC.encode_request(decoded))
    both = timed(lambda: CODEC.encode_request(CODEC.decode_request(orjson.loads(raw))))
    print(f"transcript: {len(request.messages)} messages, {len(raw) / 1024:.1f} KB Responses body")
    print(f"orjson loads(dumps) baseline   {baseline:8.1f} us")
    print(f"decode_request                 {decode:8.1f} us  {decode / baseline:5.2f}x")
    print(f"encode_request                 {encode:8.1f} us  {encode / baseline:5.2f}x")
    print(f"bytes -> IR -> body round trip {both:8.1f} us  {both / baseline:5.2f}x  (target < 10x)")
    for path in real_fixtures("openai-responses", "stream", "*.sse.txt"):
        data = path.read_bytes()
        events = list(parse_sse([data]))
        per = timed(lambda data=data: accumulate(CODEC.decode_stream(parse_sse([data]))), number=20)
        decode_only = timed(lambda events=events: list(CODEC.decode_stream(events)), number=20)
        print(
            f"stream {path.name:36s} {len(events):4d} events: bytes->Response {per / len(events):5.2f} us/event, "
            f"decode only {len(events) / decode_only * 1e6:,.0f} events/s"
        )


if __name__ == "__main__":
    main()
