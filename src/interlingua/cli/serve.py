"""``interlingua serve --config gateway.toml``: the gateway (:mod:`interlingua.gateway`) on uvicorn,
one access line per request, the gateway's own (model, route, latency, tokens, warnings; query
keys redacted); uvicorn's access log is off, since it writes ``?key=`` as it came.

Everything that would fail once serving is checked before: the config (codecs installed, key
variables set, callers' keys or ``open = true``), the port (a number, free to bind): a one-line
error and exit 2 (a port in use: exit 1), never uvicorn's startup-failure exit 3, which this CLI
uses for "strict and lossy"."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
import sys

from .exits import FAILED, OK, USAGE, CliError

CONFIG_ENV = "INTERLINGUA_GATEWAY_CONFIG"
"""Where the app factory finds the config file (each uvicorn worker builds its own app)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, metavar="TOML", help="the gateway's routes, keys and limits")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--keep-alive", type=float, default=5.0, metavar="SECONDS", help="idle keep-alive connections close after this"
    )
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    parser.add_argument(
        "--uvloop", action="store_true", help="run on uvloop's event loop (pip install 'interlingua[uvloop]')"
    )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        raise CliError("the gateway needs its extra: pip install -e '.[gateway]' from a checkout", USAGE) from None
    from ..gateway import ConfigError, load_config

    try:
        load_config(args.config)  # fail here, once, rather than in every worker
    except ConfigError as err:
        raise CliError(str(err), USAGE) from None
    if not 1 <= args.port <= 65535:
        raise CliError(f"--port {args.port}: a TCP port is 1 to 65535", USAGE)
    if args.workers < 1:
        raise CliError(f"--workers {args.workers}: at least 1", USAGE)
    if args.uvloop:
        try:
            import uvloop  # noqa: F401
        except ImportError:
            raise CliError("--uvloop: uvloop is not installed: pip install 'interlingua[uvloop]'", USAGE) from None
    _check_free(args.host, args.port)
    os.environ[CONFIG_ENV] = os.path.abspath(args.config)
    _log_requests(args.log_level)
    try:
        uvicorn.run(
            "interlingua.cli.serve:app",
            factory=True,
            host=args.host,
            port=args.port,
            workers=args.workers,
            log_level=args.log_level,
            timeout_keep_alive=args.keep_alive,
            # asyncio unless asked: uvicorn's "auto" would switch loops silently when uvloop is installed
            loop="uvloop" if args.uvloop else "asyncio",
            access_log=False,  # the gateway writes its own line, query keys redacted
        )
    except SystemExit as stop:  # uvicorn's startup failure is exit 3, this CLI's "strict and lossy"
        if stop.code not in (None, 0):
            raise CliError(f"the gateway could not start on {args.host}:{args.port}", FAILED) from None
    return OK


def _check_free(host: str, port: int) -> None:
    """A one-line error now for an address that cannot be bound, rather than uvicorn's log and exit."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        raise CliError(f"--host {host}: {err.strerror}", USAGE) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            sock.bind(address)
        except OSError as err:
            why = "is in use" if err.errno == errno.EADDRINUSE else f"cannot be bound ({err.strerror})"
            raise CliError(f"{host}:{port} {why}", FAILED) from None


def app() -> object:
    """The app factory uvicorn calls in each worker: the config named by :data:`CONFIG_ENV`."""
    from ..gateway import create_app, load_config

    _log_requests(os.environ.get("INTERLINGUA_GATEWAY_LOG_LEVEL", "info"))
    return create_app(load_config(os.environ[CONFIG_ENV]))


def _log_requests(level: str) -> None:
    os.environ["INTERLINGUA_GATEWAY_LOG_LEVEL"] = level
    logger = logging.getLogger("interlingua.gateway")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(level.upper())
