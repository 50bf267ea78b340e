"""The per-line work every engine runs, without an engine: rows, their report, and partitions
added up in any split equal the CLI's report."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from interlingua.dist import ROW_FIELDS, Conversion, LossReport, result_of

from .conftest import TARGET, Baseline, assert_same_as_cli


def _rows(baseline: Baseline) -> list[dict[str, object]]:
    conversion = pickle.loads(pickle.dumps(Conversion(TARGET)))
    lines = baseline.path.read_bytes().splitlines()
    return conversion.rows(enumerate(lines, 1))


def test_rows_and_their_report_match_the_cli(baseline: Baseline) -> None:
    rows = _rows(baseline)
    assert all(tuple(row) == ROW_FIELDS for row in rows)
    assert_same_as_cli(rows, Conversion(TARGET).report(rows), baseline)


def test_a_row_reads_back_as_the_cli_line_result(baseline: Baseline) -> None:
    conversion = Conversion(TARGET)
    for number, raw in enumerate(baseline.path.read_bytes().splitlines(), 1):
        if raw.strip():
            assert result_of(conversion.row(number, raw)) == conversion.job(number, raw)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_partition_reports_add_up_to_the_whole_in_any_split_and_order(baseline: Baseline, data: st.DataObject) -> None:
    rows = _rows(baseline)
    cuts = sorted(data.draw(st.sets(st.integers(1, len(rows) - 1), max_size=6)))
    parts = [rows[a:b] for a, b in zip([0, *cuts], [*cuts, len(rows)], strict=True)]
    order = data.draw(st.permutations(range(len(parts))))
    conversion = Conversion(TARGET)
    total = LossReport()
    for i in order:
        total = total + conversion.report(parts[i])
    assert total.to_json_dict() == baseline.report.to_json_dict()


def test_strict_rows_refuse_lossy_lines_and_say_so(baseline: Baseline) -> None:
    rows = Conversion(TARGET, strict=True).rows(enumerate(baseline.path.read_bytes().splitlines(), 1))
    refused = [row for row in rows if row["lossy"]]
    assert refused and all(row["output"] is None and "lossy under --strict" in str(row["error"]) for row in refused)
    assert all(row["warnings"] for row in refused)
