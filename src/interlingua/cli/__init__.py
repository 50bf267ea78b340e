"""The ``interlingua`` command line: convert bodies and datasets between wires, inspect a body
as a tree, print the codecs' capability matrix, list the model catalog.

Nothing here is imported by ``import interlingua``; the command modules are imported only when
their command runs, so ``interlingua --help`` stays quick. Exit codes are in :mod:`.exits`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .exits import FAILED, LOSSY, USAGE, CliError

_EPILOG = f"""\
exit codes: 0 done (warnings may have been printed); {FAILED} the input could not be converted
(for a dataset: some lines failed, the rest were written); {USAGE} bad command line (unknown
wire, missing file); {LOSSY} --strict and something was lossy (nothing lossy was written)."""


def _parser() -> argparse.ArgumentParser:
    from . import capabilities, catalog, convert, inspection

    parser = argparse.ArgumentParser(
        prog="interlingua",
        description="Convert LLM requests, responses, streams and JSONL datasets between vendor wire formats.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module, summary in (
        ("convert", convert, "convert a body, a recorded stream or a JSONL dataset to another wire"),
        ("inspect", inspection, "show a transcript or wire body as a tree of roles and parts"),
        ("capabilities", capabilities, "the part types and settings each codec carries natively or lossily"),
        ("models", catalog, "the model catalog: limits and thinking style of each known model"),
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
        code: int = args.run(args)
    except CliError as err:
        print(f"interlingua {args.command}: {err}", file=sys.stderr)
        return err.code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `interlingua convert ... | head`: the reader left, nothing to report
        sys.stderr.close()
        return 0
    return code
