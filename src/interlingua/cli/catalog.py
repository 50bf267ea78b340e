"""``interlingua models``: the model catalog (every installed codec's models.toml, plus entries
loaded with ``--file``), as a table or as JSON."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from typing import TYPE_CHECKING

from .exits import OK, USAGE, CliError

if TYPE_CHECKING:
    from .. import models


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--vendor", metavar="PROVIDER", help="only this provider's models (its provider key, as the listing shows it)"
    )
    parser.add_argument(
        "--file", action="append", default=[], metavar="TOML", help="also load this catalog file (repeatable)"
    )
    parser.add_argument("--json", action="store_true", help="every fact of every model, with its sources")


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
