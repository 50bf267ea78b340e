"""``interlingua fake --wire WIRE``: a fake vendor on loopback
(:class:`interlingua.testing.FakeVendor`) until Ctrl-C, for trying a client, an SDK or the gateway
without a key. It prints where it listens, then one line per request it receives."""

from __future__ import annotations

import argparse
import sys
import threading

from .exits import INTERRUPTED, OK, USAGE, CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wire", required=True, help="the wire to speak: an installed codec's name")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="the port to listen on (default 0: a free one)")
    parser.add_argument(
        "--text",
        action="append",
        default=[],
        metavar="TEXT",
        help="the answer's text; repeat for the answers in turn (the last one then repeats)",
    )
    parser.add_argument(
        "--validate", action="store_true", help="check each request with the wire's oracle (its SDK's types and rules)"
    )


def run(args: argparse.Namespace, *, ready: threading.Event | None = None, stop: threading.Event | None = None) -> int:
    from .. import UnknownCodecError
    from ..testing import FakeVendor, Reply

    replies = [Reply.text(text) for text in args.text]
    try:
        fake = FakeVendor(
            args.wire,
            *replies[:-1],
            validate=args.validate,
            default=replies[-1] if replies else None,
            host=args.host,
            port=args.port,
        )
    except UnknownCodecError as err:
        raise CliError(str(err), USAGE) from None
    except OSError as err:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {err.strerror or err}", USAGE) from None
    print(f"fake {fake.wire} listening on {fake.url}: POST {fake.path}; give clients base_url={fake.base_url}")
    sys.stdout.flush()
    if ready is not None:
        ready.set()
    shown = 0
    stop = stop or threading.Event()
    try:
        while not stop.wait(0.2):
            for exchange in fake.exchanges[shown:]:
                model = exchange.request.model if exchange.request is not None else None
                problems = f" problems: {'; '.join(exchange.problems)}" if exchange.problems else ""
                kind = "stream" if exchange.stream else "answer"
                print(f"POST {exchange.path} model={model} {kind}{problems}", file=sys.stderr)
                shown += 1
    except KeyboardInterrupt:
        print(f"stopped after {len(fake.exchanges)} request(s)", file=sys.stderr)
        return INTERRUPTED
    finally:
        fake.close()
    return OK
