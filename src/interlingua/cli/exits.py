"""Exit codes, one per outcome a script needs to tell apart, and the error that carries one."""

from __future__ import annotations

OK = 0
"""Everything was converted (warnings may have been printed)."""
FAILED = 1
"""The input could not be converted: not JSON, a malformed body, an unknown shape, a truncated
stream; for a dataset, at least one line failed (the others were still written)."""
USAGE = 2
"""The command line is wrong: an unknown wire or option, a missing file (argparse's own code)."""
LOSSY = 3
"""``--strict`` and something was lossy: the body (or those dataset lines) was not written."""
INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT, as shells report it): no output file was replaced."""


class CliError(Exception):
    """A failure the CLI reports in one line and exits on with ``code``; no traceback."""

    def __init__(self, message: str, code: int = USAGE) -> None:
        super().__init__(message)
        self.code = code
