"""ThinkingBudgets: the level -> tokens table, read both ways, and the tables it refuses."""

from __future__ import annotations

import pickle
import re
from typing import Any

import pytest

import interlingua as il
from interlingua import LossyEncode, ThinkingBudgets, WarningSink

# Anthropic's documented table, as its codec keeps it: a realistic geometric table.
TABLE = ThinkingBudgets(minimal=1024, low=2048, medium=8192, high=16384, xhigh=32768)
SPARSE = ThinkingBudgets(low=2000, high=20000)


def test_it_is_exported_from_the_package() -> None:
    assert "ThinkingBudgets" in il.__all__
    assert il.ThinkingBudgets is ThinkingBudgets


def test_budget_reads_the_table_and_levels_are_in_order() -> None:
    assert [TABLE.budget(level) for level in TABLE.levels] == [1024, 2048, 8192, 16384, 32768]
    assert SPARSE.levels == ("low", "high")
    assert SPARSE.items() == [("low", 2000), ("high", 20000)]


def test_budget_of_a_level_the_table_lacks_names_it() -> None:
    with pytest.raises(ValueError, match="no budget for level 'medium'; this table has low, high"):
        SPARSE.budget("medium")
    with pytest.raises(ValueError, match="'off'"):
        SPARSE.budget("off")


@pytest.mark.parametrize(
    ("budget", "level"),
    [
        (1, "minimal"),  # below the table: its lowest level
        (1024, "minimal"),
        (1447, "minimal"),  # just under sqrt(1024 * 2048) = 1448.2
        (1449, "low"),
        (4095, "low"),  # 4096 is the ratio midpoint of 2048 and 8192
        (4096, "medium"),  # exactly between: the higher level
        (8192, "medium"),
        (11585, "medium"),
        (11586, "high"),  # sqrt(8192 * 16384) = 11585.2
        (23170, "high"),
        (23171, "xhigh"),
        (10**9, "xhigh"),  # above the table: its highest level
    ],
)
def test_level_is_the_nearest_by_ratio(budget: int, level: str) -> None:
    assert TABLE.level(budget) == level


def test_level_with_one_entry_and_with_equal_budgets() -> None:
    assert ThinkingBudgets(medium=5000).level(1) == "medium"
    assert ThinkingBudgets(medium=5000).level(99999) == "medium"
    flat = ThinkingBudgets(low=4000, medium=4000, high=9000)
    assert [flat.level(b) for b in (4000, 5999, 6000)] == ["medium", "medium", "high"]  # ties go up


@pytest.mark.parametrize(
    ("level", "nearest"),
    [("minimal", "low"), ("low", "low"), ("medium", "high"), ("high", "high"), ("xhigh", "high")],
)
def test_nearest_moves_a_missing_level_to_the_closest_the_table_has(level: str, nearest: str) -> None:
    assert SPARSE.nearest(level) == nearest  # type: ignore[arg-type]  # parametrized strings


def test_nearest_among_the_levels_a_target_supports() -> None:
    assert TABLE.nearest("xhigh", ["low", "medium", "high"]) == "high"
    assert TABLE.nearest("minimal", ("medium", "high")) == "medium"
    assert TABLE.nearest("medium", ["minimal", "xhigh"]) == "xhigh"  # two steps either way: the higher
    assert TABLE.nearest("low", ["minimal", "medium"]) == "medium"  # a tie goes to the higher level
    with pytest.raises(ValueError, match="no supported thinking level"):
        TABLE.nearest("low", [])
    with pytest.raises(ValueError, match="'off'"):
        TABLE.nearest("off")


def test_encode_level_warns_where_it_converts() -> None:
    out = WarningSink("acme-chat")
    assert SPARSE.encode_level("high", out) == 20000
    assert out.warnings == []
    assert SPARSE.encode_level("xhigh", out) == 20000
    assert out.warnings == [
        LossyEncode(
            codec="acme-chat",
            path="thinking.level",
            message="no budget for level 'xhigh' in the table; sent as 'high' (20000 tokens)",
            part_type="thinking",
            action="converted",
        )
    ]


@pytest.mark.parametrize(
    ("table", "named"),
    [
        ({"low": 0}, "low"),
        ({"low": 1024, "high": -5}, "high"),
        ({"medium": "4096"}, "medium"),
        ({"medium": 4096.0}, "medium"),
        ({"xhigh": True}, "xhigh"),
        ({"off": 0, "low": 10}, "'off' takes no budget"),
        ({"huge": 10**6}, "unknown thinking level 'huge'"),
        ({"low": 8192, "medium": 4096}, "level 'medium' (4096 tokens) is below level 'low' (8192 tokens)"),
        ({"minimal": 10, "low": 20, "high": 30, "xhigh": 25}, "level 'xhigh' (25 tokens) is below level 'high'"),
        ({}, "needs at least one level"),
    ],
    ids=["zero", "negative", "string", "float", "bool", "off", "unknown", "decreasing", "decreasing-last", "empty"],
)
def test_bad_tables_are_rejected_naming_the_level(table: dict[str, Any], named: str) -> None:
    with pytest.raises(ValueError, match=re.escape(named)) as caught:
        ThinkingBudgets.model_validate(table)
    if named in table:  # a field error is reported under the level's own name
        assert str(caught.value).splitlines()[1] == named


def test_replace_keeps_the_other_levels_and_validates() -> None:
    assert TABLE.replace(high=20000, xhigh=None) == ThinkingBudgets(minimal=1024, low=2048, medium=8192, high=20000)
    with pytest.raises(ValueError, match="level 'xhigh' \\(32768 tokens\\) is below level 'high'"):
        TABLE.replace(high=40000)


def test_it_is_frozen_hashable_and_picklable() -> None:
    again = pickle.loads(pickle.dumps(SPARSE))
    assert again == SPARSE and hash(again) == hash(SPARSE)
    assert len({TABLE, SPARSE, again}) == 2
    with pytest.raises(ValueError, match="frozen"):
        SPARSE.low = 5  # type: ignore[misc]  # the point of the test


def test_json_round_trip_and_repr_show_only_the_levels_present() -> None:
    assert SPARSE.to_json_dict() == {"low": 2000, "high": 20000}
    assert ThinkingBudgets.model_validate(SPARSE.to_json_dict()) == SPARSE
    assert repr(SPARSE) == "ThinkingBudgets(low=2000, high=20000)"
