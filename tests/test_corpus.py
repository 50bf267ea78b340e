"""The recorded corpora are optional: absent, the tests that read them skip with one reason and the
run says so in one line; ``INTERLINGUA_REQUIRE_CORPUS=1`` (CI) makes the absence fail the run."""

from __future__ import annotations

from pathlib import Path

import pytest

from interlingua.testing import (
    corpus_missing,
    corpus_required,
    lingua_fixtures_dir,
    pydantic_ai_fixtures_dir,
    real_fixture,
    real_fixtures,
    real_fixtures_dir,
    skip_without_corpus,
)

ROOT_CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small corpus in place of ``shared/fixtures``: two wires, and the lingua and pydantic-ai
    folders beside."""
    for name in ("acme-chat/request/one.json", "acme-chat/request/two.json", "acme-talk/request/three.json"):
        (tmp_path / "real" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "real" / name).write_text("{}")
    (tmp_path / "lingua").mkdir()
    (tmp_path / "pydantic-ai").mkdir()
    monkeypatch.setenv("INTERLINGUA_REAL_FIXTURES", str(tmp_path / "real"))
    monkeypatch.delenv("INTERLINGUA_LINGUA_FIXTURES", raising=False)
    monkeypatch.delenv("INTERLINGUA_PYDANTIC_AI_FIXTURES", raising=False)
    monkeypatch.delenv("INTERLINGUA_REQUIRE_CORPUS", raising=False)
    return tmp_path


@pytest.fixture
def nowhere(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The corpus variable pointing at a folder that does not exist; the line a skip gives."""
    monkeypatch.setenv("INTERLINGUA_REAL_FIXTURES", str(corpus / "nowhere"))
    return f"real corpus not found at {corpus / 'nowhere'}; set INTERLINGUA_REAL_FIXTURES=/path/to/shared/fixtures/real"


def test_a_present_corpus_lists_its_files_sorted_and_the_others_sit_beside_it(corpus: Path) -> None:
    assert corpus_missing("real") is None and corpus_missing("lingua") is None and corpus_missing("pydantic-ai") is None
    assert real_fixtures_dir() == corpus / "real" and lingua_fixtures_dir() == corpus / "lingua"
    assert pydantic_ai_fixtures_dir() == corpus / "pydantic-ai"
    assert [p.name for p in real_fixtures("acme-chat", "request")] == ["one.json", "two.json"]
    assert [p.name for p in real_fixtures("*", "request", "t*.json")] == ["two.json", "three.json"]
    assert real_fixture("acme-chat", "request", "one.json") == corpus / "real" / "acme-chat" / "request" / "one.json"


def test_a_pattern_that_does_not_name_one_recorded_file_is_an_error(corpus: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"acme-chat/request/\*.json matches 2 recorded files, expected one"):
        real_fixture("acme-chat", "request", "*.json")
    with pytest.raises(FileNotFoundError, match="matches 0 recorded files"):
        real_fixture("acme-chat", "request", "renamed.json")


def test_an_absent_corpus_lists_nothing_and_skips_with_one_reason(nowhere: str) -> None:
    assert corpus_missing("real") == nowhere
    assert real_fixtures("acme-chat", "request") == []
    with pytest.raises(pytest.skip.Exception) as one:
        real_fixture("acme-chat", "request", "one.json")
    with pytest.raises(pytest.skip.Exception) as other:
        skip_without_corpus()
    assert one.value.msg == other.value.msg == nowhere
    with pytest.raises(FileNotFoundError, match="real corpus not found at"):
        real_fixtures_dir()


def test_requiring_the_corpus_turns_its_absence_into_an_error(nowhere: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INTERLINGUA_REQUIRE_CORPUS", "1")
    assert corpus_required()
    for read in (lambda: real_fixtures("acme-chat", "request"), lambda: real_fixture("acme-chat", "request", "x")):
        with pytest.raises(FileNotFoundError) as caught:
            read()
        assert str(caught.value) == f"{nowhere} (INTERLINGUA_REQUIRE_CORPUS is set)"
    monkeypatch.setenv("INTERLINGUA_REQUIRE_CORPUS", "0")
    assert not corpus_required()


def test_without_shared_beside_the_checkout_the_line_says_which_variable_to_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No override, and no ``shared/fixtures`` above the working directory or the package."""
    monkeypatch.delenv("INTERLINGUA_REAL_FIXTURES", raising=False)
    monkeypatch.delenv("INTERLINGUA_LINGUA_FIXTURES", raising=False)
    monkeypatch.delenv("INTERLINGUA_PYDANTIC_AI_FIXTURES", raising=False)
    monkeypatch.chdir(tmp_path)
    found_by_package = any((p / "shared" / "fixtures" / "real").is_dir() for p in Path(__file__).resolve().parents)
    if found_by_package:  # this checkout sits beside shared/: the lookup from the package finds it
        assert corpus_missing("real") is None
        return
    assert corpus_missing("real") == (
        "real corpus not found (no shared/fixtures/real beside the checkout); "
        "set INTERLINGUA_REAL_FIXTURES=/path/to/shared/fixtures/real"
    )


# --- the run as a whole, through the repository's root conftest ------------------------------------

_TESTS = """
import pytest
from interlingua.testing import real_fixture, real_fixtures

@pytest.mark.parametrize("path", real_fixtures("acme-chat", "request"))
def test_each_request(path):
    assert path.exists()

@pytest.mark.parametrize("path", real_fixtures("acme-talk", "request"))
def test_each_talk_request(path):
    assert path.exists()

def test_one_named_request():
    assert real_fixture("acme-chat", "request", "one.json").exists()

def test_golden():
    pass
"""


@pytest.fixture
def run(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(ROOT_CONFTEST.read_text())
    pytester.makepyfile(test_acme=_TESTS)
    return pytester


def test_a_run_with_the_corpus_runs_every_test_that_reads_it(run: pytest.Pytester, corpus: Path) -> None:
    result = run.runpytest("-rs")
    result.assert_outcomes(passed=5)
    assert f"real corpus: {corpus / 'real'}" in result.stdout.lines
    assert f"lingua corpus: {corpus / 'lingua'}" in result.stdout.lines
    assert f"pydantic-ai corpus: {corpus / 'pydantic-ai'}" in result.stdout.lines
    assert "tests skipped" not in result.stdout.str()


def test_a_run_without_the_corpus_skips_its_tests_in_one_folded_line(run: pytest.Pytester, nowhere: str) -> None:
    """The empty parameter sets take the corpus's reason, so ``-rs`` folds every skip into one."""
    result = run.runpytest("-rs")
    result.assert_outcomes(passed=1, skipped=3)
    lines = result.stdout.lines
    assert f"3 tests skipped: {nowhere}" in lines
    [folded] = [line for line in lines if line.startswith("SKIPPED")]
    assert folded.startswith("SKIPPED [3] ") and folded.endswith(f"_fixtures.py:{_skip_line()}: {nowhere}")
    assert nowhere in lines  # the report header says it first


def test_a_run_that_requires_the_corpus_stops_before_collecting(
    run: pytest.Pytester, nowhere: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INTERLINGUA_REQUIRE_CORPUS", "1")
    result = run.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"ERROR: INTERLINGUA_REQUIRE_CORPUS is set and {nowhere}" in result.stderr.str()


def _skip_line() -> int:
    """The line of ``pytest.skip`` in the kit: every corpus skip is raised there."""
    source = Path(skip_without_corpus.__code__.co_filename).read_text().splitlines()
    start = skip_without_corpus.__code__.co_firstlineno
    return next(i for i in range(start, len(source) + 1) if "pytest.skip(reason)" in source[i - 1])
