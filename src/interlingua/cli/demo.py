"""``interlingua demo``: the main job on data that ships with interlingua, with no key and no network.

1. A small dataset of recorded requests (``demo_requests.jsonl``, one request body a line, of every
   wire: the project's golden fixtures, ``fixtures/<wire>/request/``) round-trips through each
   request's own wire unchanged.
2. Each request is converted to every other wire, and what each target could not carry is counted
   by warning kind: the loss report, typed.
3. The same dataset goes through ``interlingua convert`` (the command a user runs on their own
   logs), with its summary and its JSONL report of every lossy line.
4. One request goes through the gateway to a fake vendor on loopback
   (:class:`interlingua.testing.FakeVendor`), sent by an official SDK client, when the gateway's
   extra and that SDK are installed; otherwise one line says what to install.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import tempfile
import threading
from collections import Counter
from importlib.resources import files
from pathlib import Path
from typing import Any

from .exits import OK
from .render import table

DATASET = "demo_requests.jsonl"
TARGET = "anthropic-messages"
TARGET_MODEL = "claude-sonnet-4-6"
"""The model the converted dataset is sent to: current in the catalog (a test keeps it so)."""
GATEWAY_MODEL = "claude-sonnet-4-6"
_SUMMARY_LINES = 10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-gateway", action="store_true", help="skip step 4 (the gateway and the fake vendor)")


def dataset_lines() -> list[dict[str, Any]]:
    """The bundled dataset: one recorded request body per line."""
    text = files("interlingua.cli").joinpath(DATASET).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def run(args: argparse.Namespace) -> int:
    from .. import codecs, get_codec
    from ..testing import strip_none
    from .detect import detect_body

    lines = dataset_lines()
    wires = [detect_body(body).wire for body in lines]
    installed = codecs()
    print(f"interlingua demo: {len(lines)} recorded requests of {len(set(wires))} wires, bundled; no key, no network\n")

    print("1. Round trips: each request decoded into the IR and encoded back to its own wire")
    exact = 0
    for body, wire in zip(lines, wires, strict=True):
        codec = get_codec(wire)
        again = codec.encode_request(codec.decode_request(body))
        exact += strip_none(again.body) == strip_none(body) and not again.warnings
    print(f"   {exact} of {len(lines)} unchanged (a null key reads as an absent one), with no warning\n")

    print("2. Across wires: each request encoded for every other wire; what a target cannot carry is a typed warning")
    rows, kinds = [], Counter[str]()
    for target in installed:
        clean = warned = 0
        for body, wire in zip(lines, wires, strict=True):
            if wire == target:
                continue
            request = get_codec(wire).decode_request(body).model_copy(update={"model": "demo-model"})
            encoded = get_codec(target).encode_request(request)
            clean += not encoded.warnings
            warned += bool(encoded.warnings)
            kinds.update(f"{type(w).__name__} ({w.path.split('[')[0].split('.')[0]})" for w in encoded.warnings)
        rows.append([target, str(clean), str(warned)])
    print(_indent(table(["to wire", "lossless", "with warnings"], rows)))
    print("   most frequent warnings (kind, where):")
    print(_indent(table(["warning", "count"], [[k, str(n)] for k, n in kinds.most_common(6)]), 5) + "\n")

    print(f"3. The dataset job, as you would run it on your own logs (to {TARGET}, model {TARGET_MODEL}):")
    with tempfile.TemporaryDirectory(prefix="interlingua-demo-") as folder:
        _convert_dataset(Path(folder))
    print()
    if not args.no_gateway:
        print("4. An official SDK client, through the gateway, to a fake vendor on loopback:")
        print(_indent(_gateway_round()))
    return OK


def _convert_dataset(folder: Path) -> None:
    from . import main

    source = folder / DATASET
    source.write_text(files("interlingua.cli").joinpath(DATASET).read_text(encoding="utf-8"), encoding="utf-8")
    out, report = folder / "converted.jsonl", folder / "report.jsonl"
    argv = ["convert", str(source), "--to", TARGET, "--model", TARGET_MODEL, "-o", str(out), "--report", str(report)]
    print(f"   $ interlingua {' '.join(argv).replace(str(folder) + '/', '')}")
    with contextlib.redirect_stderr(io.StringIO()) as said:  # the summary it prints on stderr, shown here
        main(argv)
    summary = said.getvalue().splitlines()
    print(_indent("\n".join(summary[:_SUMMARY_LINES])))
    if len(summary) > _SUMMARY_LINES:
        print(f"   ... ({len(summary) - _SUMMARY_LINES} more kinds of warning)")
    entries = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    written = sum(1 for line in out.read_text(encoding="utf-8").splitlines() if line.strip())
    print(f"   {written} lines written; report.jsonl holds {len(entries)} lines' warnings, for example:")
    for entry in entries[:3]:
        warning = entry["warnings"][0]
        print(f"     line {entry['line']}: {warning['kind']} at {warning['path']}: {warning['message']}")


def _gateway_round() -> str:
    """openai SDK -> gateway (its chat-completions endpoint) -> fake anthropic-messages vendor."""
    try:
        import uvicorn

        from ..gateway import GatewayConfig, Route, create_app
    except ImportError:
        return "skipped: the gateway is not installed (pip install -e '.[gateway]' from a checkout)"
    try:
        import openai
    except ImportError:
        return "skipped: the openai SDK is not installed (pip install openai)"
    from ..testing import FakeVendor, Reply

    answer = "Paris. (Written by the fake vendor in its own wire, carried back by the gateway.)"
    with FakeVendor(TARGET, Reply.text(answer)) as fake:
        config = GatewayConfig(routes=[Route(match="*", codec=TARGET, base_url=fake.base_url)])
        server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=0, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            while not server.started and thread.is_alive():
                threading.Event().wait(0.02)
            port = server.servers[0].sockets[0].getsockname()[1]
            client = openai.OpenAI(api_key="unused", base_url=f"http://127.0.0.1:{port}/v1", max_retries=0)
            with client:
                got = client.chat.completions.create(
                    model=GATEWAY_MODEL, messages=[{"role": "user", "content": "Capital of France?"}], max_tokens=100
                )
        finally:
            server.should_exit = True
            thread.join(10)
        received = fake.exchanges[0].body
    return "\n".join(
        [
            f"openai.OpenAI(base_url=gateway).chat.completions.create(model={GATEWAY_MODEL!r}, ...)",
            f"-> the gateway sent {TARGET} to the fake: messages={json.dumps(received['messages'])}",
            f"<- the SDK got: {got.choices[0].message.content!r} (finish_reason={got.choices[0].finish_reason!r})",
        ]
    )


def _indent(text: str, by: int = 3) -> str:
    return "\n".join(" " * by + line for line in text.splitlines())
