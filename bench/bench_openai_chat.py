"""openai-chat costs, as ratios against baselines timed in the same run (not a test; just prints).

- A 40-message, ~35 KB agent transcript (13 tool calls, 7 tool results of ~2 KB, 2 small images,
  3 tool schemas): decode_request, encode_request, and the round trip, against the orjson round
  trip of the same body (issue target: round trip under 10x; PERF.md: encode at most 1.5x a
  plain-dict restructure, which is about 1.2x orjson).
- decode_response of a recorded completion, against the SDK's own ``ChatCompletion.model_validate``.
- Stream decode throughput: events per second from SSE events to StreamEvents (and to an
  accumulated Response) against ``json.loads`` of the same data lines (target: at least a third).

Run: ``python bench/bench_openai_chat.py``
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import orjson

import interlingua as il
from interlingua.testing import load_body, read_stream_file, real_fixtures
from interlingua_openai.chat import OpenAIChatCodec

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==" * 4


def transcript() -> dict[str, Any]:
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


def median_us(fn: Callable[[], object], loops: int) -> float:
    samples = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        samples.append((time.perf_counter() - start) / loops * 1e6)
    return statistics.median(samples)


def main() -> None:
    codec = OpenAIChatCodec()
    body = transcript()
    size = len(orjson.dumps(body))
    request = codec.decode_request(body)
    floor = median_us(lambda: orjson.loads(orjson.dumps(body)), 200)
    decode = median_us(lambda: codec.decode_request(body), 100)
    encode = median_us(lambda: codec.encode_request(request), 100)
    both = median_us(lambda: codec.encode_request(codec.decode_request(body)), 100)
    print(f"transcript: {len(body['messages'])} messages, {size / 1024:.1f} KB")
    print(f"orjson loads(dumps)       {floor:8.1f} us")
    print(f"decode_request            {decode:8.1f} us  {decode / floor:5.2f}x")
    print(f"encode_request            {encode:8.1f} us  {encode / floor:5.2f}x")
    print(f"decode + encode           {both:8.1f} us  {both / floor:5.2f}x  (target < 10x)")

    from openai.types.chat import ChatCompletion

    answer = load_body(real_fixtures("openai-chat", "response", "parallel-tool-calls-turn1*")[0])
    sdk = median_us(lambda: ChatCompletion.model_validate(answer), 2000)
    ours = median_us(lambda: codec.decode_response(answer), 2000)
    print(f"SDK ChatCompletion.model_validate {sdk:6.1f} us; decode_response {ours:6.1f} us  {ours / sdk:5.2f}x")

    events = []
    for path in real_fixtures("openai-chat", "stream"):
        events.extend(e for e in read_stream_file(path) if e.data != il.DONE)
    lines = [e.data for e in events]
    loads = median_us(lambda: [json.loads(line) for line in lines], 50) / len(lines)
    per_event = median_us(lambda: list(codec.decode_stream(events)), 50) / len(lines)
    path = max(real_fixtures("openai-chat", "stream"), key=lambda p: p.stat().st_size)
    to_response = median_us(lambda: il.accumulate(codec.decode_stream(read_stream_file(path))), 50)
    n = len(read_stream_file(path))
    rate, ours_rate = 1e6 / loads, 1e6 / per_event
    print(f"stream: {len(lines)} events; json.loads {rate:,.0f} ev/s; decode_stream {ours_rate:,.0f} ev/s")
    print(f"  decode_stream / json.loads rate: {ours_rate / rate:.2f} (target >= 0.33)")
    print(f"raw bytes -> accumulated Response: {to_response / n:.2f} us per event (PERF.md target <= 6)")


if __name__ == "__main__":
    main()
