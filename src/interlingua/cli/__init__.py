"""The ``interlingua`` command line: convert bodies and datasets between wires, inspect a body
as a tree, print the codecs' capability matrix, list the model catalog.

Nothing here is imported by ``import interlingua``; the command modules are imported only when
their command runs, so ``interlingua --help`` stays quick. Exit codes are in :mod:`.exits`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .exits import FAILED, INTERRUPTED, LOSSY, USAGE, CliError
from .signals import interrupts_as_keyboard, stopped

_EPILOG = f"""\
exit codes: 0 done (warnings may have been printed); {FAILED} the input could not be converted
(for a dataset: some lines failed, the rest were written); {USAGE} bad command line (unknown
wire, missing file, unwritable output); {LOSSY} --strict and something was lossy (nothing lossy was
written); {INTERRUPTED} interrupted (no output file was replaced)."""


class _Version(argparse.Action):
    """``--version``: this package's version and each installed codec's distribution, looked up only
    when asked (entry-point discovery is not free)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and the installed codecs, then exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from .. import __version__, codecs
        from .._registry import NO_CODECS

        installed = ", ".join(codecs()) or f"none ({NO_CODECS})"
        print(f"interlingua {__version__}\ncodecs: {installed}")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    from . import capabilities, catalog, convert, demo, fake, inspection, report, serve

    parser = argparse.ArgumentParser(
        prog="interlingua",
        description="Convert LLM requests, responses, streams and JSONL datasets between vendor wire formats.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    parser.add_argument("--debug", action="store_true", help="show a Python traceback for an unexpected error")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module, summary in (
        ("convert", convert, "convert a body, a recorded stream or a JSONL dataset to another wire"),
        ("inspect", inspection, "show a transcript or wire body as a tree of roles and parts"),
        ("capabilities", capabilities, "the part types and settings each codec carries natively or lossily"),
        ("models", catalog, "the model catalog: limits and thinking style of each known model"),
        ("report", report, "combine loss report pages (convert --report X.html) into one, a column per target"),
        ("serve", serve, "run the gateway: every wire's endpoints, served from the upstreams a config names"),
        ("demo", demo, "the main job on bundled data: recorded requests converted across wires, and what was lost"),
        ("fake", fake, "a fake vendor on loopback speaking one wire, with scripted answers: no key, no network"),
    ):
        sub = commands.add_parser(
            name,
            help=summary,
            description=summary,
            epilog=_EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns its exit code (the console script exits with it)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":  # uvicorn handles its own signals
            code: int = args.run(args)
        else:
            with interrupts_as_keyboard():
                code = args.run(args)
    except CliError as err:
        print(f"interlingua {args.command}: {err}", file=sys.stderr)
        return err.code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:  # `interlingua convert ... | head`: the reader left, nothing to report
        sys.stderr.close()
        return 0
    except Exception as err:  # a bug of ours: one line, the traceback only under --debug
        if stopped(err):  # the interrupt, turned into another error inside a lock (see .signals)
            print("interrupted", file=sys.stderr)
            return INTERRUPTED
        if args.debug:
            raise
        where = f"interlingua {args.command}: internal error"
        print(f"{where}: {type(err).__name__}: {err} (--debug shows the traceback)", file=sys.stderr)
        return FAILED
    return code
