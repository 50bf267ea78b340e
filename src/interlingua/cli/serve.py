"""``interlingua serve --config gateway.toml``: the gateway (:mod:`interlingua.gateway`) on uvicorn,
one request-log line per request (model, route, latency, tokens, warnings)."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from .exits import OK, USAGE, CliError

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
    os.environ[CONFIG_ENV] = os.path.abspath(args.config)
    _log_requests(args.log_level)
    uvicorn.run(
        "interlingua.cli.serve:app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        timeout_keep_alive=args.keep_alive,
    )
    return OK


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
