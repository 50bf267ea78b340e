"""anthropic-messages costs, as ratios against baselines timed in the same run (not a test).

- encode_request / decode_request of a realistic 41-message agent transcript (alternating turns
  that end on the user's make the count odd; 3 tools, 13 tool calls, ~2 KB tool results, two
  signed thinking blocks, an image), against ``orjson.loads(orjson.dumps(body))`` of the same
  body. Each function runs one batch per round and the ratios are medians of per-round ratios,
  so CPU load from other processes hits both sides of a ratio alike (memory contention does not:
  see ``_timing``). Beside them: the core's ``maker`` (one
  per shape, made beforehand) building the same IR objects with nothing else (decode's floor, and
  its share of decode), and the core's check of the turn rules (``normalize_request`` of a
  transcript that keeps them: one walk of the IR, the verdict ``encode_with_rules`` asks).
- decode_response of recorded responses, against the SDK's own ``Message.model_validate``
  (PERF.md target: no slower).
- a recorded stream, raw bytes -> accumulated Response, per event (PERF.md target: <= 6 us).

Run: ``python bench/bench_anthropic_messages.py``
"""

from __future__ import annotations

import statistics
from typing import Any

import orjson
from _timing import interleaved_us, median_us, ratio
from pydantic import BaseModel

import interlingua as il
from interlingua.kit import maker, normalize_request
from interlingua.testing import load_body, real_fixtures, real_fixtures_dir
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


def constructions(value: Any) -> list[tuple[type[BaseModel], dict[str, Any]]]:
    """Every IR instance in ``value`` (innermost first) with the fields it was given: what decode
    builds, to be built again with nothing else (the core's ``maker``, the floor)."""
    found: list[tuple[type[BaseModel], dict[str, Any]]] = []

    def walk(item: Any) -> None:
        if isinstance(item, BaseModel):
            fields = {name: getattr(item, name) for name in item.model_fields_set}
            for field in fields.values():
                walk(field)
            found.append((type(item), fields))
        elif isinstance(item, list | tuple):
            for element in item:
                walk(element)
        elif isinstance(item, dict):
            for element in item.values():
                walk(element)

    walk(value)
    return found


def main() -> None:
    real_fixtures_dir()  # the recorded corpus is read below: absent, stop here with its one line
    body = transcript()
    request = CODEC.decode_request(body)
    assert CODEC.encode_request(request).body == body
    built = constructions(request)
    size = len(orjson.dumps(body))

    shaped = [(maker(cls, *fields), tuple(fields.values())) for cls, fields in built]

    def construct_only() -> None:
        for make, args in shaped:
            make(*args)  # positionally: a keyword dict per call would count against the floor

    runs = interleaved_us(
        {
            "orjson loads(dumps)": lambda: orjson.loads(orjson.dumps(body)),
            "encode_request": lambda: CODEC.encode_request(request),
            "turn check alone": lambda: normalize_request(request, CODEC.rules, codec=CODEC.name, reasoning="drop"),
            "decode_request": lambda: CODEC.decode_request(body),
            f"makers alone ({len(built)} objects)": construct_only,
            "decode + encode": lambda: CODEC.encode_request(CODEC.decode_request(body)),
        }
    )
    print(f"transcript: {len(body['messages'])} messages, {size / 1024:.0f} KB (medians of per-round ratios to orjson)")
    for label, values in runs.items():
        print(f"  {label:<32} {statistics.median(values):8.1f} us  {ratio(runs, label, 'orjson loads(dumps)'):5.2f}x")
    share = ratio(runs, f"makers alone ({len(built)} objects)", "decode_request")
    print(f"  building the IR objects (the core's makers) is {share:.0%} of decode_request")
    share = ratio(runs, "turn check alone", "encode_request")
    print(f"  the core's turn check (normalize_request, nothing to fix) is {share:.0%} of encode_request")

    from anthropic.types import Message

    for stem in ("thinking-with-tool-use-turn1", "web-search-server-tool", "code-execution-20250825"):
        response: dict[str, Any] = load_body(
            next(p for p in real_fixtures("anthropic-messages", "response") if p.stem == stem)
        )
        own = median_us(lambda: CODEC.decode_response(response), 500)  # noqa: B023  # timed within this iteration
        sdk = median_us(lambda: Message.model_validate(response), 500)  # noqa: B023
        rfloor = median_us(lambda: orjson.loads(orjson.dumps(response)), 2000)  # noqa: B023
        print(
            f"decode_response {stem}: {own:7.1f} us  vs SDK model_validate {sdk:7.1f} us "
            f"({own / sdk:4.2f}x)  vs orjson {own / rfloor:4.1f}x"
        )

    path = next(
        p for p in real_fixtures("anthropic-messages", "stream") if p.name.startswith("web-search-server-tool-stream")
    )
    raw = path.read_bytes()
    events = len(list(il.parse_sse([raw])))
    stream = median_us(lambda: il.accumulate(CODEC.decode_stream(il.parse_sse([raw]))), 50)
    json_only = median_us(lambda: [orjson.loads(e.data) for e in il.parse_sse([raw])], 50)
    print(f"stream {path.name}: {events} events, {stream / events:5.2f} us/event bytes->Response (target <= 6)")
    print(f"  framing + json alone {json_only / events:5.2f} us/event")


if __name__ == "__main__":
    main()
