"""``interlingua report``: several runs' loss reports (their HTML pages) as one page, one heat-map
column per target, so converting one dataset to three wires shows where each one loses."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from .exits import OK, USAGE, CliError
from .loss import LossReport
from .loss_html import render_html
from .output import write_whole

_EMBEDDED = re.compile(r'<script type="application/json" id="loss-report">(.*?)</script>', re.S)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pages", nargs="+", metavar="PAGE", help="loss report pages written by convert --report X.html")
    parser.add_argument("-o", "--output", required=True, metavar="OUT", help="the combined page")
    parser.add_argument("--title", default="", help="the page's title")


def run(args: argparse.Namespace) -> int:
    reports = [report for page in args.pages for report in read_page(page)]
    by_target: dict[str, LossReport] = {}
    for report in reports:  # two runs to one target add up (two halves of one dataset)
        by_target[report.target] = by_target[report.target] + report if report.target in by_target else report
    write_whole(render_html(list(by_target.values()), title=args.title).encode(), args.output)
    return OK


def read_page(name: str) -> list[LossReport]:
    """The reports a page embeds (one per target it shows)."""
    try:
        page = Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CliError(f"cannot read {name}: {getattr(err, 'strerror', None) or err}", USAGE) from None
    found = _EMBEDDED.search(page)
    if found is None:
        raise CliError(f"{name} is not a loss report page (written by convert --report X.html)", USAGE)
    try:
        return [LossReport.from_json_dict(data) for data in json.loads(found.group(1))]
    except (ValueError, KeyError, TypeError, IndexError) as err:
        raise CliError(f"{name}: its embedded report cannot be read ({err})", USAGE) from None
