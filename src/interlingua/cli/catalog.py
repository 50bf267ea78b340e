"""``interlingua models``: the model catalog (every installed codec's models.toml, plus entries
loaded with ``--file``), as a table or as JSON."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from typing import TYPE_CHECKING

from .exits import FAILED, OK, USAGE, CliError

if TYPE_CHECKING:
    from .. import models
    from . import catalog_check


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--vendor", metavar="PROVIDER", help="only this provider's models (its provider key, as the listing shows it)"
    )
    parser.add_argument(
        "--file", action="append", default=[], metavar="TOML", help="also load this catalog file (repeatable)"
    )
    parser.add_argument("--json", action="store_true", help="every fact of every model, with its sources")
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare the catalog with each vendor's model list (keys from the environment) and the --seen files: "
        "unknown, retired, unlisted and unpriced models; exit 1 when any is found",
    )
    parser.add_argument(
        "--seen",
        action="append",
        default=[],
        metavar="FILE",
        help="with --check: also check the models this file names (a JSONL dataset, transcript, batch file or "
        "gateway log; repeatable)",
    )
    parser.add_argument(
        "--offline", action="store_true", help="with --check: ask no vendor (the --seen files and the catalog only)"
    )
    parser.add_argument(
        "--base-url", metavar="URL", help="with --check and --vendor: ask this host's model list, not the vendor's"
    )
    parser.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="GLOB",
        help="with --check: do not report unknown ids this glob matches (repeatable); the vendors' own set (their "
        "embedding, speech, image, moderation and realtime models, each codec's models.toml [[listed_not_served]]) "
        "is left out already",
    )
    parser.add_argument(
        "--no-default-ignore",
        action="store_true",
        help="with --check: report the ids the vendors' own ignore set leaves out too",
    )


def run(args: argparse.Namespace) -> int:
    from .. import models

    try:
        for path in args.file:
            models.load(path)
    except (OSError, ValueError) as err:
        raise CliError(f"cannot load {path}: {err}", USAGE) from None
    found = models.all_models(args.vendor)
    if args.vendor is not None and not found:
        raise CliError(f"no models for vendor {args.vendor!r}", USAGE)
    if args.check or args.seen or args.offline or args.base_url or args.ignore or args.no_default_ignore:
        return _check(args)
    if args.json:
        sys.stdout.write(json.dumps([spec.as_dict() for spec in found], indent=2) + "\n")
        return OK
    from .render import table

    today = datetime.date.today().isoformat()
    rows = [
        [
            spec.id,
            spec.provider,
            _status(spec, today),
            _count(spec.context_window),
            _count(spec.max_output_tokens),
            _thinking(spec),
        ]
        for spec in found
    ]
    header = ["model", "vendor", "status", "context", "max output", "thinking"]
    sys.stdout.write(table(header, rows, max_width=70) + "\n")
    return OK


def _check(args: argparse.Namespace) -> int:
    """``--check``: the findings as a table (or JSON), vendors not asked on stderr."""
    from pathlib import Path

    from ..pricing import default_prices
    from . import catalog_check
    from .render import table

    if not args.check:
        raise CliError("--seen, --offline, --base-url and the ignores go with --check", USAGE)
    if args.base_url is not None and args.vendor is None:
        raise CliError("--base-url names one host: say whose list it serves with --vendor", USAGE)
    try:
        seen = catalog_check.models_in_files(Path(path) for path in args.seen)
    except OSError as err:
        raise CliError(f"cannot read {err.filename}: {err.strerror}", USAGE) from None
    listed, notes = ({}, []) if args.offline else catalog_check.listed_by_vendors(args.vendor, args.base_url)
    findings = catalog_check.check(listed, seen, default_prices())
    if args.vendor is not None:
        findings = [f for f in findings if f.provider in (args.vendor, "?")]
    findings, left = catalog_check.leave_out(findings, _ignores(args))
    for source, count in sorted(left.items()):
        why = "matched --ignore" if source == "--ignore" else "not served by its wires (--no-default-ignore lists them)"
        notes.append(f"{source}: {count} unknown id(s) left out, {why}")
    for note in notes:
        sys.stderr.write(f"interlingua: {note}\n")
    if args.json:
        sys.stdout.write(json.dumps([vars(f) for f in findings], indent=2) + "\n")
    elif findings:
        rows = [[f.model, f.provider, f.kind, f.detail] for f in findings]
        sys.stdout.write(table(["model", "vendor", "finding", "detail"], rows, max_width=90) + "\n")
    else:
        asked = ", ".join(sorted(listed)) or "no vendor"
        sys.stdout.write(f"the catalog agrees with {asked} and {len(seen)} model(s) seen: nothing to report\n")
    return FAILED if findings else OK


def _ignores(args: argparse.Namespace) -> list[catalog_check.Ignore]:
    """The user's globs, then (unless --no-default-ignore) every vendor's own set."""
    from .. import models
    from . import catalog_check

    found = [catalog_check.Ignore("*", pattern, "--ignore") for pattern in args.ignore]
    if not args.no_default_ignore:
        found += catalog_check.default_ignores(spec.provider for spec in models.all_models())
    return found


def _status(spec: models.ModelSpec, today: str) -> str:
    """The vendor's lifecycle word and the retirement date (ISO dates compare as text); ``-`` where
    the catalog records none."""
    word = spec.status or "-"
    if spec.retired is None:
        return word
    when = "retired" if spec.retired <= today else "retires"
    return f"{word}, {when} {spec.retired}" if word != "retired" else f"retired {spec.retired}"


def _count(value: int | None) -> str:
    return "?" if value is None else f"{value:,}"


def _thinking(spec: models.ModelSpec) -> str:
    rules = spec.thinking
    if rules is None:
        return "-"
    if rules.supported is False:
        return "none"
    budget = rules.budget
    words = [f"budget {budget[0]}-{budget[1]}" if mode == "budget" and budget else mode for mode in rules.modes]
    if rules.levels:
        words.append("levels " + "/".join(rules.levels))
    if rules.can_off is False:
        words.append("always on")
    return ", ".join(words)
