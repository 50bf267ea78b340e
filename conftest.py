"""Test-run set-up: hypothesis profiles, the recorded corpora's one skip line, and a guard for the
top-level ``codecs/`` folder.

Hypothesis explores at random on a developer's machine ("dev"), so new cases keep turning up
there; CI ("ci", when ``CI`` is set) is derandomized: the examples are a fixed function of each
test, so a run is red only when the code changed, never by the luck of the draw. A case found
locally is pinned with ``@example(...)`` beside its test.

pytest's importlib mode names a codec's test file ``codecs.<vendor>.tests.test_x`` and imports the
parent ``codecs`` from this folder, replacing the standard library's ``codecs`` module (text
encodings then break mid-run). Giving the already-imported stdlib module an empty ``__path__``
lets pytest hang the test modules under it without re-importing it. Nothing else reads it.

A clone without ``shared/`` beside it has no recorded corpus: the tests that read it skip with one
reason, and the run ends with one line saying how many and how to point at the corpus.
``INTERLINGUA_REQUIRE_CORPUS=1`` (CI) turns the absence into a usage error before collection.
"""

import codecs
import os

import pytest
from hypothesis import HealthCheck, settings

from interlingua.testing import (
    corpus_missing,
    corpus_required,
    lingua_fixtures_dir,
    pydantic_ai_fixtures_dir,
    real_fixtures_dir,
    skip_without_corpus,
)

if not hasattr(codecs, "__path__"):
    codecs.__path__ = []  # type: ignore[attr-defined]  # see the module docstring

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

pytest_plugins = ["pytester"]  # tests/test_corpus.py runs this conftest on a small project

CORPORA = ("real", "lingua", "pydantic-ai")
_EMPTY = "got empty parameter set"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "needs_real_corpus: skipped with the one corpus reason when it is absent")
    missing = [reason for reason in map(corpus_missing, CORPORA) if reason]
    if missing and corpus_required():
        raise pytest.UsageError(f"INTERLINGUA_REQUIRE_CORPUS is set and {'; '.join(missing)}")


def pytest_report_header(config: pytest.Config) -> list[str]:
    found = {"real": real_fixtures_dir, "lingua": lingua_fixtures_dir, "pydantic-ai": pydantic_ai_fixtures_dir}
    return [corpus_missing(name) or f"{name} corpus: {found[name]()}" for name in CORPORA]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test parametrized over :func:`real_fixtures` of an absent corpus has an empty parameter
    set, which pytest skips with a reason naming the test; give it the corpus's one reason instead
    (with the corpus present no test here has an empty parameter set)."""
    if corpus_missing("real") is None:
        return
    for item in items:
        empty = [m for m in item.own_markers if m.name == "skip" and _EMPTY in str(m.kwargs.get("reason"))]
        if empty:
            item.own_markers[:] = [m for m in item.own_markers if m not in empty]
            item.add_marker("needs_real_corpus")


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("needs_real_corpus"):
        skip_without_corpus("real")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    skipped = terminalreporter.stats.get("skipped", [])
    for name in CORPORA:
        reason = corpus_missing(name)
        if reason is None:
            continue
        line = f"Skipped: {reason}"
        count = sum(1 for report in skipped if isinstance(report.longrepr, tuple) and report.longrepr[2] == line)
        if count:
            terminalreporter.write_line(f"{count} tests skipped: {reason}", yellow=True, bold=True)
