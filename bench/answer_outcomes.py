"""The decode outcome of every recorded answer and stream, as one digest (not a test; just prints).

For a change to the response decoders, the stream decoders or the accumulator that must change
nothing: run it under the baseline's venv and this one and compare the two digests. Every JSON
file of the real, lingua and pydantic-ai corpora is given to each installed codec's
``decode_response`` (its body, where the file wraps one); every recorded stream (``.sse.txt``,
``.sse``, ``.chunks.txt``, a JSON array of chunks, bedrock's ``.eventstream(.bin)``) to each codec's
``decode_stream`` and ``accumulate``. An outcome is the Response's JSON dump, its dump of the
fields set (``exclude_unset``) and its warnings, or the error's type and message; a file a codec
refuses counts too.

Run: ``python bench/answer_outcomes.py [-v]`` (``-v``: one line per outcome, to diff)
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import interlingua as il
from interlingua.testing import lingua_fixtures_dir, pydantic_ai_fixtures_dir, read_stream_file, real_fixtures_dir

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse", "cohere-chat")


def outcome(run: Callable[[], il.Response]) -> str:
    try:
        response = run()
    except Exception as err:  # a refusal is an outcome as well
        return f"{type(err).__name__}: {err}"
    unset = response.model_dump_json(exclude_unset=True)
    return f"{response.model_dump_json()}|{unset}|{response.warnings!r}"


def files() -> Iterator[Path]:
    for root in (real_fixtures_dir(), lingua_fixtures_dir(), pydantic_ai_fixtures_dir()):
        yield from sorted(p for p in root.rglob("*") if p.is_file())


def stream_events(path: Path) -> list[il.SSEEvent] | None:
    if path.name.endswith((".sse.txt", ".chunks.txt", ".sse")):
        return read_stream_file(path)
    if path.suffix == ".json" and "stream" in path.name:
        chunks = json.loads(path.read_text())
        if isinstance(chunks, list) and all(isinstance(c, dict) for c in chunks):
            return [il.ServerSentEvent(json.dumps(c), c.get("type", "message")) for c in chunks]
    return None


def outcomes() -> Iterator[str]:
    codecs = {wire: il.get_codec(wire) for wire in WIRES}
    for path in files():
        name = str(path)
        if path.name.endswith((".eventstream.bin", ".eventstream")):
            raw = path.read_bytes()
            bedrock: Any = codecs["bedrock-converse"]
            yield f"{name} event-stream {outcome(lambda b=bedrock, r=raw: il.accumulate(b.decode_event_stream([r])))}"
            continue
        events = stream_events(path)
        if events is not None:
            for wire, codec in codecs.items():
                yield f"{name} {wire} stream {outcome(lambda c=codec, e=events: il.accumulate(c.decode_stream(e)))}"
        if path.suffix != ".json":
            continue
        try:
            data = json.loads(path.read_text())
        except ValueError:
            continue
        body = data.get("body", data) if isinstance(data, dict) else data
        if not isinstance(body, dict):
            continue
        for wire, codec in codecs.items():
            yield f"{name} {wire} answer {outcome(lambda c=codec, b=body: c.decode_response(b))}"


def main() -> None:
    digest = hashlib.sha256()
    count = 0
    verbose = "-v" in sys.argv
    for line in outcomes():
        digest.update(line.encode())
        count += 1
        if verbose:
            print(line)
    print(f"{count} outcomes, sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
