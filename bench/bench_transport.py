"""Transport overhead: Client.send and Client.stream against a bare httpx2 POST of the same body
to the same local server, in one run (not a test; just prints).

PERF.md target: at least 70% of bare httpx2's request rate. The server is the transport tests'
vendor server (stdlib, in this process), answering a real recorded body.

Run: ``python bench/bench_transport.py [codec-name]`` (default: openai-chat).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import httpx2

import interlingua as il
from interlingua.testing import load_body, real_fixtures_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "transport"))
from vendor_server import Answer, VendorServer

CASES = {
    "anthropic-messages": ("", "thinking-with-tool-use-turn1", "tool-use-stream"),
    "openai-chat": ("/v1", "parallel-tool-calls-turn1", "tool-call-stream"),
    "openai-responses": ("/v1", "function-call-turn1", "reasoning-function-call-stream"),
    "gemini": ("", "text-basic", "thinking-stream"),
}
N = 300


def rate(fn: object, n: int = N) -> float:
    assert callable(fn)
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        runs.append(n / (time.perf_counter() - start))
    return statistics.median(runs)


def main() -> None:
    wire = sys.argv[1] if len(sys.argv) > 1 else "openai-chat"
    prefix, send_case, stream_case = CASES[wire]
    root = real_fixtures_dir() / wire
    server = VendorServer()
    codec = il.get_codec(wire)
    request = codec.decode_request(load_body(root / "request" / f"{send_case}.json"))
    if not request.model:
        request = request.model_copy(update={"model": "bench-model"})
    client = il.Client(codec, api_key="bench", base_url=server.url + prefix, max_retries=0)
    prepared = codec.http_request(request, stream=False, endpoint=il.Endpoint(server.url + prefix, "bench"))
    bare = httpx2.Client()
    body = il.kit.dumps(prepared.json).encode()

    server.answer = Answer(json=load_body(root / "response" / f"{send_case}.json"))
    bare_rate = rate(lambda: bare.post(prepared.url, headers=dict(prepared.headers), content=body).json())
    ours = rate(lambda: client.send(request))
    print(
        f"{wire} send: bare httpx2 {bare_rate:7.0f} req/s, Client.send {ours:7.0f} req/s "
        f"= {ours / bare_rate:.0%} (target >= 70%)"
    )

    stream_bytes = (root / "stream" / f"{stream_case}.sse.txt").read_bytes()
    server.answer = Answer(sse=stream_bytes, chunk=4096)
    stream_request = codec.decode_request(load_body(root / "request" / f"{stream_case}.json"))
    if not stream_request.model:
        stream_request = stream_request.model_copy(update={"model": "bench-model"})
    sprepared = codec.http_request(stream_request, stream=True, endpoint=il.Endpoint(server.url + prefix, "bench"))
    sbody = il.kit.dumps(sprepared.json).encode()
    events = sum(1 for _ in codec.decode_stream(il.parse_sse([stream_bytes])))

    def bare_stream() -> None:
        with bare.stream("POST", sprepared.url, headers=dict(sprepared.headers), content=sbody) as response:
            for _ in httpx2.EventSource(response):
                pass

    def our_stream() -> None:
        with client.stream(stream_request) as stream:
            stream.response()

    bare_streams = rate(bare_stream, 100)
    our_streams = rate(our_stream, 100)
    print(
        f"{wire} stream ({events} events): bare httpx2 SSE {bare_streams * events:7.0f} events/s, "
        f"Client.stream + accumulate {our_streams * events:7.0f} events/s = {our_streams / bare_streams:.0%}"
    )
    server.close()


if __name__ == "__main__":
    main()
