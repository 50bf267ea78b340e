"""anthropic-messages costs, as ratios against baselines timed in the same run (not a test).

- encode_request / decode_request of a realistic 41-message agent transcript (alternating turns
  ending on the user's make an odd count) (3 tools, 13 tool
  calls, ~2 KB tool results, a signed thinking turn, an image), against
  ``orjson.loads(orjson.dumps(body))`` of the same body (issue target: under 10x).
- decode_response of recorded responses, against the SDK's own ``Message.model_validate``
  (PERF.md target: no slower).
- a recorded stream, raw bytes -> accumulated Response, per event (PERF.md target: <= 6 us).

Run: ``python bench/bench_anthropic_messages.py``
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import orjson

import interlingua as il
from interlingua.testing import load_body, real_fixtures
from interlingua_anthropic import AnthropicMessagesCodec

CODEC = AnthropicMessagesCodec()
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def transcript() -> dict[str, Any]:
    tools = [
        {
            "name": name,
            "description": f"{name} a thing in the workspace",
            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        }
        for name in ("read_file", "search", "run_tests")
    ]
    messages: list[dict[str, Any]] = [
        {
            "role": "user",
            "content": [
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG * 40}},
                {"type": "text", "text": "Here is the failing screen. Find the bug and fix it."},
            ],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "Let me look at the code."}]},
        {"role": "user", "content": "Go ahead."},
    ]
    result = "line of tool output that is fairly typical of a test run\n" * 36
    thinking = {"type": "thinking", "thinking": "I should look at the code first. " * 20, "signature": "EqQB" * 80}
    for turn in range(13):
        call_id = f"toolu_01{turn:04d}abcdef"
        call = {
            "type": "tool_use",
            "id": call_id,
            "name": tools[turn % 3]["name"],
            "input": {"path": f"src/m{turn}.py"},
        }
        lead = [thinking] if turn in (0, 12) else []
        text = {"type": "text", "text": f"Step {turn}: checking the next file."}
        messages.append({"role": "assistant", "content": [*lead, text, call]})
        reply = result if turn % 2 == 0 else "ok"
        messages.append(
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": reply}]}
        )
        if turn < 6:
            messages.append({"role": "assistant", "content": [{"type": "text", "text": "Noted; continuing."}]})
            messages.append({"role": "user", "content": "go on"})
    assert len(messages) == 41, len(messages)  # alternating turns that end on a user turn: odd
    return {
        "model": "claude-sonnet-4-5-20250929",
        "max_tokens": 8192,
        "system": [{"type": "text", "text": "You are a careful coding agent.", "cache_control": {"type": "ephemeral"}}],
        "messages": messages,
        "tools": tools,
        "thinking": {"type": "enabled", "budget_tokens": 4096},
    }


def timeit(fn: Callable[[], object], number: int) -> float:
    """Median microseconds per call over 7 runs of ``number`` calls."""
    runs = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(runs)


def main() -> None:
    body = transcript()
    request = CODEC.decode_request(body)
    assert CODEC.encode_request(request).body == body
    size = len(orjson.dumps(body))
    floor = timeit(lambda: orjson.loads(orjson.dumps(body)), 2000)
    encode = timeit(lambda: CODEC.encode_request(request), 500)
    decode = timeit(lambda: CODEC.decode_request(body), 500)
    print(f"transcript: {len(body['messages'])} messages, {size / 1024:.0f} KB")
    print(f"  orjson loads(dumps)      {floor:8.1f} us")
    print(f"  encode_request           {encode:8.1f} us  {encode / floor:5.2f}x  (target < 10x)")
    print(f"  decode_request           {decode:8.1f} us  {decode / floor:5.2f}x")
    print(f"  decode + encode          {encode + decode:8.1f} us  {(encode + decode) / floor:5.2f}x")

    from anthropic.types import Message

    for stem in ("thinking-with-tool-use-turn1", "web-search-server-tool", "code-execution-20250825"):
        response = load_body(next(p for p in real_fixtures("anthropic-messages", "response") if p.stem == stem))
        own = timeit(lambda r=response: CODEC.decode_response(r), 500)
        sdk = timeit(lambda r=response: Message.model_validate(r), 500)
        rfloor = timeit(lambda r=response: orjson.loads(orjson.dumps(r)), 2000)
        print(
            f"decode_response {stem}: {own:7.1f} us  vs SDK model_validate {sdk:7.1f} us "
            f"({own / sdk:4.2f}x)  vs orjson {own / rfloor:4.1f}x"
        )

    path = next(
        p for p in real_fixtures("anthropic-messages", "stream") if p.name.startswith("web-search-server-tool-stream")
    )
    raw = path.read_bytes()
    events = len(list(il.parse_sse([raw])))
    stream = timeit(lambda: il.accumulate(CODEC.decode_stream(il.parse_sse([raw]))), 50)
    json_only = timeit(lambda: [orjson.loads(e.data) for e in il.parse_sse([raw])], 50)
    print(f"stream {path.name}: {events} events, {stream / events:5.2f} us/event bytes->Response (target <= 6)")
    print(f"  framing + json alone {json_only / events:5.2f} us/event")


if __name__ == "__main__":
    main()
