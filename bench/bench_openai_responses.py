"""Benchmark of the openai-responses codec (not a test): run ``python bench/bench_openai_responses.py``.

Workload (PERF.md): a 40-message agent transcript (13 tool calls, each answered, 7 results of
about 2 KB, 2 small images, 3 tool schemas) as a Responses request body; real recorded responses
and streams. Ratios are against baselines timed in the same rounds: the cases of a table take
turns within each round and a ratio is the median of the per-round ratios (other processes' load
drifts over seconds, so it weighs on both sides of a ratio; alike for CPU load, not for memory
contention: see ``_timing``).

- decode_request + encode_request against ``orjson.loads(orjson.dumps(body))`` (issue 5: under
  10x; PERF.md: 2.5x for a cross-vendor conversion), and encode_request against a plain-dict
  restructure of the same body (PERF.md: at most 1.5x). The core's share is printed apart: the
  building the IR objects decode builds (``maker``, one per shape), and encode's check of the turn
  rules (``normalize_request``, one walk of the transcript, ``encode_with_rules``).
- decode_response against the SDK's ``Response.model_validate`` of the same body (PERF.md: no
  slower). The installed SDK requires ``usage.input_tokens_details.cache_write_tokens``, which
  the recorded bodies predate, so both sides read a copy with it set to 0.
- streams, raw bytes -> accumulated Response per event (PERF.md: at most 6 us), with the core's
  SSE framing and the codec's own decode shown apart; the recorded streams are short, so a long
  one made from a recording (one delta repeated) shows the cost of a delta and its linearity.
"""

from __future__ import annotations

import copy
import statistics
from collections.abc import Callable
from functools import partial
from typing import Any

import orjson
from _timing import interleaved_us, ratio
from pydantic import BaseModel

from interlingua import (
    Image,
    MediaSource,
    Message,
    Request,
    Text,
    Tool,
    ToolResult,
    ToolUse,
    accumulate,
    parse_sse,
)
from interlingua.kit import maker, normalize_request
from interlingua.testing import load_body, real_fixture, real_fixtures, real_fixtures_dir
from interlingua_openai.responses import OpenAIResponsesCodec

CODEC = OpenAIResponsesCodec()
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
RESPONSES = ("function-call-turn1", "reasoning-with-function-calls-turn1", "web-search-url-citations")


def transcript() -> Request:
    schema = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"]}
    tools = [Tool(name=f"tool_{i}", description=f"Tool number {i}", input_schema=schema) for i in range(3)]
    png = MediaSource.from_base64("image/png", PNG)
    messages: list[Message] = [
        Message.system("You are a careful agent. " * 10),
        Message.user("Look at this.", Image(png)),
    ]
    for k in range(13):
        call = ToolUse(f"call_{k:02d}AbCdEfGhIjKlMnOpQr", f"tool_{k % 3}", {"q": f"query {k}", "n": k})
        messages.append(Message.assistant(Text(f"Step {k}: calling a tool."), call))
        output = "result line. " * 155 if k % 2 == 0 else "ok"  # 7 results of about 2 KB
        messages.append(Message.tool(ToolResult(call.id, call.name, output)))
        if k % 3 == 2:
            messages.append(Message.user(f"Continue with step {k + 1}."))
    while len(messages) < 39:
        messages.append(Message.assistant("Noted; the change looks right. " * 4))
        if len(messages) < 39:
            messages.append(Message.user("Go on."))
    messages.append(Message.user("Last one.", Image(MediaSource.from_url("https://example.com/a.png"))))
    assert len(messages) == 40, len(messages)
    return Request(model="gpt-5", messages=messages, tools=tools, max_tokens=2000)


def restructure(body: dict[str, Any]) -> dict[str, Any]:
    """The floor for encode: the same body rebuilt as new plain dicts, key by key, no IR."""
    items = []
    for item in body["input"]:
        kind = item.get("type", "message")
        if kind == "function_call":
            keys = ("type", "call_id", "name", "arguments")
            items.append({key: item[key] for key in keys})
        elif kind == "function_call_output":
            items.append({"type": kind, "call_id": item["call_id"], "output": item["output"]})
        else:
            content = item["content"]
            blocks = content if isinstance(content, str) else [dict(block) for block in content]
            items.append({"role": item["role"], "content": blocks})
    tools = [dict(tool) for tool in body["tools"]]
    return {"model": body["model"], "input": items, "tools": tools, "max_output_tokens": body["max_output_tokens"]}


def us(samples: dict[str, list[float]], name: str) -> float:
    return statistics.median(samples[name])


def ir_constructs(request: Request) -> Callable[[], None]:
    """A function building the same objects (classes and fields set) as ``request`` holds, each
    with the core's ``maker`` for its shape made beforehand: what decode cannot do for less."""
    calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []

    def visit(value: Any) -> Any:
        if isinstance(value, BaseModel):
            values = {key: visit(getattr(value, key)) for key in value.model_fields_set}
            calls.append((maker(type(value), *values), tuple(values.values())))
        elif isinstance(value, list):
            for item in value:
                visit(item)
        return value

    visit(request)

    def build() -> None:
        for make, args in calls:
            make(*args)  # positionally: a keyword dict per call would count against the floor

    return build


def sdk_readable(body: dict[str, Any]) -> dict[str, Any]:
    body = copy.deepcopy(body)
    details = (body.get("usage") or {}).get("input_tokens_details")
    if isinstance(details, dict):
        details.setdefault("cache_write_tokens", 0)
    return body


def main() -> None:
    real_fixtures_dir()  # the recorded corpus is read below: absent, stop here with its one line
    request = transcript()
    encoded = CODEC.encode_request(request)
    assert not encoded.warnings, encoded.warnings  # a transcript that keeps every API rule
    body = encoded.body
    raw = orjson.dumps(body)
    decoded = CODEC.decode_request(body)
    assert CODEC.encode_request(decoded).body == body
    got = interleaved_us(
        {
            "orjson loads(dumps) baseline": (lambda: orjson.loads(orjson.dumps(body)), 100),
            "plain-dict restructure": (lambda: restructure(body), 100),
            "decode_request": (lambda: CODEC.decode_request(body), 20),
            "  of which the IR's constructs": (ir_constructs(decoded), 20),
            "encode_request": (lambda: CODEC.encode_request(decoded), 20),
            "  of which the turn rules": (lambda: encode_core(decoded), 20),
            "bytes -> IR -> body round trip": (
                lambda: CODEC.encode_request(CODEC.decode_request(orjson.loads(raw))),
                20,
            ),
        },
        rounds=9,
    )
    base, floor = "orjson loads(dumps) baseline", "plain-dict restructure"
    notes = {
        "  of which the IR's constructs": "  (core maker of the same objects)",
        "encode_request": f"  {ratio(got, 'encode_request', floor):5.2f}x restructure (PERF.md: <= 1.5x)",
        "  of which the turn rules": "  (core normalize_request, handle check included)",
        "bytes -> IR -> body round trip": "  (issue: < 10x, PERF.md: 2.5x)",
    }
    print(f"transcript: {len(request.messages)} messages, {len(body['input'])} items, {len(raw) / 1024:.1f} KB")
    for name in got:
        print(f"{name:31s} {us(got, name):8.1f} us  {ratio(got, name, base):5.2f}x{notes.get(name, '')}")

    from openai.types.responses import Response as SDKResponse

    for stem in RESPONSES:
        answer = sdk_readable(load_body(real_fixture("openai-responses", "response", f"{stem}.json")))
        pair = interleaved_us(
            {
                "sdk": (partial(SDKResponse.model_validate, answer), 100),
                "ours": (partial(CODEC.decode_response, answer), 100),
            },
            rounds=9,
        )
        print(
            f"decode_response {stem:36s} {us(pair, 'ours'):6.1f} us; SDK model_validate {us(pair, 'sdk'):6.1f} us  "
            f"{ratio(pair, 'ours', 'sdk'):4.2f}x"
        )

    for path in real_fixtures("openai-responses", "stream", "*.sse.txt"):
        stream(path.name, list(parse_sse([path.read_bytes()])))
    long_streams()


def encode_core(request: Request) -> None:
    """What encode_request runs in the core before the codec writes a key: the turn rules, whose
    one walk also finds unresolved handles (a request that keeps them comes back as it is)."""
    normalize_request(request, CODEC.rules, codec=CODEC.name, reasoning="drop")


def stream(name: str, events: list[Any], repeat: int = 9) -> float:
    """Per event: raw bytes -> Response, the SSE framing alone, decode + accumulate alone."""
    data = "".join(f"event: {e.event}\ndata: {e.data}\n\n" for e in events).encode()
    number = max(1, 400 // len(events))
    got = interleaved_us(
        {
            "total": (lambda: accumulate(CODEC.decode_stream(parse_sse([data]))), number),
            "framing": (lambda: list(parse_sse([data])), number),
            "own": (lambda: accumulate(CODEC.decode_stream(events)), number),
        },
        repeat,
    )
    n = len(events)
    print(
        f"stream {name:47s} {n:4d} events, us/event: bytes->Response {us(got, 'total') / n:5.2f} (target <= 6); "
        f"SSE framing {us(got, 'framing') / n:5.2f}, decode+accumulate {us(got, 'own') / n:5.2f}"
    )
    return us(got, "total")


def long_streams() -> None:
    """The recorded function-call stream with its first arguments delta sent ``k`` times: the
    cost of a delta, and whether it stays linear."""
    path = real_fixture("openai-responses", "stream", "function-call-stream.sse.txt")
    events = list(parse_sse([path.read_bytes()]))
    at = [event.event for event in events].index("response.function_call_arguments.delta")
    times = {}
    for k in (100, 1000):
        longer = [*events[:at], *[events[at]] * k, *events[at + 1 :]]
        times[k] = stream(f"of that recording, its delta x{k}", longer, repeat=5)
    print(f"10x the deltas: {times[1000] / times[100]:.1f}x the time (PERF.md: at most 12x)")


if __name__ == "__main__":
    main()
