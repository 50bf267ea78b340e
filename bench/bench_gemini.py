"""Benchmark of the gemini codec (not a test): run ``python bench/bench_gemini.py``.

Workload: a 40-message agent transcript (13 tool calls, 7 tool results of about 2 KB, 2 small
images, 3 tool schemas) as a Gemini request body. Ratios are against the orjson round trip
(``loads(dumps(body))``) of the same body, timed in the same run; target: decode + encode under
10x (PERF.md aims lower). encode_request is also set against a plain-dict restructure of the same
IR (PERF.md: at most 1.5x); decode_response against google-genai's own ``model_validate`` of each
real response the SDK accepts. Streams: raw SSE bytes to an accumulated Response, per event, with
the SSE framing alone beside it (the core's share).
"""

from __future__ import annotations

import statistics
from typing import Any

import orjson
from _timing import interleaved_us, median_us, ratio

import interlingua as il
from interlingua import Image, MediaSource, Message, Request, Text, Tool, ToolResult, ToolUse
from interlingua.testing import load_body, real_fixtures, real_fixtures_dir

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


def restructure(request: Request) -> dict[str, Any]:
    """The floor for encode: the same IR walked into Gemini dicts with no warnings, echoes, options
    or signatures (it only knows the part types of this transcript)."""
    system: dict[str, Any] | None = None
    contents = []
    for message in request.messages:
        parts: list[dict[str, Any]] = []
        for part in message.parts:
            if isinstance(part, Text):
                parts.append({"text": part.text})
            elif isinstance(part, ToolUse):
                parts.append({"functionCall": {"name": part.name, "args": dict(part.input), "id": part.id}})
            elif isinstance(part, ToolResult):
                answer = {"name": part.name, "id": part.tool_use_id, "response": {"output": part.content}}
                parts.append({"functionResponse": answer})
            elif isinstance(part, Image) and isinstance(part.source, il.Base64Source):
                parts.append({"inlineData": {"mimeType": part.source.media_type, "data": part.source.data}})
        if message.role == "system":
            system = {"parts": parts}
        else:
            contents.append({"role": "model" if message.role == "assistant" else "user", "parts": parts})
    declarations = [
        {"name": t.name, "description": t.description, "parametersJsonSchema": t.input_schema}
        for t in request.tools
        if isinstance(t, Tool)
    ]
    return {
        "contents": contents,
        "systemInstruction": system,
        "tools": [{"functionDeclarations": declarations}],
        "generationConfig": {"maxOutputTokens": request.max_tokens},
    }


def main() -> None:
    real_fixtures_dir()  # the recorded corpus is read below: absent, stop here with its one line
    request = transcript()
    body = CODEC.encode_request(request).body
    size = len(orjson.dumps(body))
    runs = interleaved_us(
        {
            "orjson loads(dumps)": lambda: orjson.loads(orjson.dumps(body)),
            "plain-dict restructure": lambda: restructure(request),
            "encode_request": lambda: CODEC.encode_request(request),
            "decode_request": lambda: CODEC.decode_request(body),
            "decode + encode": lambda: CODEC.encode_request(CODEC.decode_request(body)),
        }
    )
    print(f"request body: {len(request.messages)} messages, {size / 1024:.1f} KB (medians of per-round ratios)")
    for label, values in runs.items():
        print(f"{label:<26} {statistics.median(values):8.1f} us  {ratio(runs, label, 'orjson loads(dumps)'):5.2f}x")
    encode = ratio(runs, "encode_request", "plain-dict restructure")
    print(f"encode_request / restructure        {encode:5.2f}x  (PERF.md: at most 1.5x)")

    from google.genai import types as genai

    for path in real_fixtures("gemini", "response"):
        response = load_body(path)
        try:
            genai.GenerateContentResponse.model_validate(response)
        except ValueError:
            continue  # a field newer than the installed SDK: no baseline to set against
        sdk = median_us(lambda r=response: genai.GenerateContentResponse.model_validate(r), repeat=5, number=100)
        ours = median_us(lambda r=response: CODEC.decode_response(r), repeat=5, number=100)
        print(f"decode_response {path.stem:<34} {ours:6.1f} us  vs SDK model_validate {sdk:6.1f} us {ours / sdk:4.2f}x")

    for path in real_fixtures("gemini", "stream", "*.sse.txt"):
        raw = path.read_bytes()
        chunks = [raw[i : i + 997] for i in range(0, len(raw), 997)]
        count = sum(1 for _ in CODEC.decode_stream(il.parse_sse(chunks)))
        per = median_us(lambda chunks=chunks: il.accumulate(CODEC.decode_stream(il.parse_sse(chunks))), number=50)
        sse = median_us(lambda chunks=chunks: list(il.parse_sse(chunks)), number=50)
        name = path.name.split(".")[0]
        print(
            f"stream {name:<46} {count:4d} events  {per / count:6.2f} us/event  {count / per * 1e6:8.0f} events/s"
            f"  (SSE framing alone {sse / count:5.2f} us/event)"
        )


if __name__ == "__main__":
    main()
