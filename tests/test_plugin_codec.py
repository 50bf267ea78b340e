"""A seventh wire joins the conformance suite by its entry point alone (issue 38 item 3).

``tests/plugin_codec`` is a third-party codec package (``interlingua-lumen``, wire
``lumen-chat``); nothing in interlingua or its tests names it. It is pip-installed into a
temporary folder, and the conformance suite runs with that folder on the path: every
parametrized case that names the new wire, and every test that walks all targets inside it.
The suite finds the codec through ``interlingua.codecs`` and its data through
``Codec.conformance``; a case of it that fails, or a suite module that leaves it out, fails here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from interlingua.testing import corpus_missing

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "tests" / "plugin_codec"
WIRE = "lumen-chat"

SELECT = f'''
import os


def pytest_collection_modifyitems(config, items):
    """Keep the cases of {WIRE!r} and the tests not parametrized by wire (they walk every target);
    write the kept ids to $SELECTED."""
    keep = [item for item in items if not hasattr(item, "callspec") or {WIRE!r} in item.callspec.id]
    config.hook.pytest_deselected(items=[item for item in items if item not in keep])
    items[:] = keep
    with open(os.environ["SELECTED"], "w") as out:
        out.write("\\n".join(item.nodeid for item in keep))
'''

JOINED = {
    "test_foreign_options.py",
    "test_gateway_answers.py",
    "test_protocol.py",
    "test_stop_reasons.py",
    "test_stream_ends.py",
    "test_stream_warnings.py",
    "test_transcripts.py",
}
"""The conformance modules whose parametrized cases must name the new wire (the others walk
every target inside their tests, or are about the recorded traffic a new wire has none of)."""
ABOUT_OTHERS = ("test_accepted_bodies.py", "test_catalog_doc.py", "test_field_coverage.py")
"""Modules about named wires, the model catalog's page, and SDK field coverage (a wire with no SDK,
as this one, names no coverage contract): nothing in them walks the targets, so they are not rerun."""
JOINED_WITH_CORPUS = {*JOINED, "test_pydantic_ai_corpus.py", "test_real_corpus.py"}
"""And where the recorded corpora are there: each recorded request encoded for the new wire."""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin installed by pip, as a user installs a codec (no build isolation: no network)."""
    target = tmp_path_factory.mktemp("site")
    command = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation"]
    subprocess.run([*command, "--target", str(target), str(PLUGIN)], check=True, capture_output=True)
    (target / "select_new_wire.py").write_text(SELECT)
    return target


def test_a_third_party_codec_joins_the_conformance_suite_by_its_entry_point(installed: Path) -> None:
    path = os.pathsep.join(filter(None, [str(installed), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "SELECTED": str(installed / "selected.txt")}
    listed = subprocess.run(
        [sys.executable, "-c", "import interlingua as il; print(' '.join(il.codecs()))"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert WIRE in listed.stdout.split()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "select_new_wire", "tests/conformance",
         *(f"--ignore=tests/conformance/{name}" for name in ABOUT_OTHERS)],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    cases = [nodeid for nodeid in Path(env["SELECTED"]).read_text().splitlines() if WIRE in nodeid]
    joined = {Path(nodeid.split("::")[0]).name for nodeid in cases}
    corpus = corpus_missing("real") is None and corpus_missing("pydantic-ai") is None
    expected = JOINED_WITH_CORPUS if corpus else JOINED
    assert joined >= expected, f"modules leaving {WIRE} out: {sorted(expected - joined)}"
    assert len(cases) > (1000 if corpus else 200)  # every transcript (and recorded request), as for the six
    tail = run.stdout[-4000:]
    assert run.returncode == 0, tail
    assert " passed" in tail and " failed" not in tail, tail
