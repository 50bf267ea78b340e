"""Cost estimates: prices from the bundled table, computed by hand here, tiers and cache rates
included; unknown models get None and a warning, never a guess; bad tables fail on load, naming
the model and the field."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from interlingua import Usage
from interlingua._cost import Cost
from interlingua.pricing import (
    PriceTable,
    PriceTableError,
    UnknownPriceWarning,
    default_prices,
    estimate,
    load_prices,
)

D = Decimal
ONE_HOUR_WRITES = "cache_creation.ephemeral_1h_input_tokens"
TWELVE_HOUR_WRITES = "cache_write_tokens_details.ttl_12h_tokens"


def _estimate(usage: Usage, model: str, prices: PriceTable | None = None) -> Cost:
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownPriceWarning)
        cost = estimate(usage, model, prices)
    assert cost is not None
    return cost


# --- the bundled table -------------------------------------------------------------------------


def test_bundled_table_is_dated_and_sourced_for_each_provider() -> None:
    data = json.loads((Path(__file__).parents[1] / "src/interlingua/pricing/prices.json").read_text("utf-8"))
    assert set(data["providers"]) == {"anthropic", "openai", "gemini"}
    for block in data["providers"].values():
        assert block["source"].startswith("https://")
        assert block["as_of"] == "2026-11-23"
    table = default_prices()
    assert table.currency == "USD"
    assert len(table.models) == sum(len(block["models"]) for block in data["providers"].values())
    price = table.get("claude-opus-5-5")
    assert price is not None
    assert (price.provider, price.as_of.isoformat()) == ("anthropic", "2026-11-23")


def test_the_table_is_read_lazily_and_never_by_import_interlingua() -> None:
    code = (
        "import sys, interlingua; assert 'interlingua.pricing' not in sys.modules; "
        "from interlingua import pricing; print(pricing.default_prices.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"


def test_the_data_file_ships_inside_the_package() -> None:
    from importlib import resources

    assert resources.files("interlingua.pricing").joinpath("prices.json").is_file()


# --- estimates, computed by hand from the table --------------------------------------------------


def test_cache_reads_and_writes_are_priced_at_their_own_rates() -> None:
    # claude-opus-5-5: input 4, output 20, cache read 0.20, 5m write 5 (USD per million)
    usage = Usage(
        input_tokens=10_000,
        output_tokens=1_500,
        cache_read_tokens=6_000,
        cache_write_tokens=2_000,
        reasoning_tokens=500,
    )
    cost = _estimate(usage, "claude-opus-5-5")
    assert cost == Cost(
        input=D("0.008"),  # 2,000 uncached x 4
        cache_read=D("0.0012"),  # 6,000 x 0.20
        cache_write=D("0.01"),  # 2,000 x 5
        output=D("0.03"),  # 1,500 x 20, the 500 reasoning tokens among them
        total=D("0.0492"),
    )


def test_reasoning_bills_as_output_and_is_not_counted_twice() -> None:
    plain = Usage(input_tokens=1_000, output_tokens=2_000)
    thinking = plain.model_copy(update={"reasoning_tokens": 1_500})
    assert _estimate(thinking, "gemini-3.5-flash") == _estimate(plain, "gemini-3.5-flash")
    assert _estimate(thinking, "gemini-3.5-flash").output == D("0.018")  # 2,000 x 9


def test_one_hour_cache_writes_are_priced_at_the_one_hour_rate() -> None:
    # claude-sonnet-4-6: 5m write 3.75, 1h write 6
    usage = Usage(input_tokens=3_000, output_tokens=0, cache_write_tokens=3_000, extra={ONE_HOUR_WRITES: 1_000})
    cost = _estimate(usage, "claude-sonnet-4-6")
    assert cost.cache_write == D("0.0135")  # 2,000 x 3.75 + 1,000 x 6
    assert cost.input == D("0")
    assert cost.total == D("0.0135")


def test_twelve_hour_writes_without_a_price_give_none_and_name_the_model() -> None:
    usage = Usage(input_tokens=5_000, output_tokens=10, cache_write_tokens=4_000, extra={TWELVE_HOUR_WRITES: 4_000})
    assert _estimate(usage, "gpt-6.1-terra").cache_write == D("0.01")  # 4,000 x 2.50, the 12h rate
    with pytest.warns(UnknownPriceWarning, match=r"no 12h cache-write price for model 'gpt-6-sol'"):
        assert estimate(usage, "gpt-6-sol") is None


@pytest.mark.parametrize(
    ("prompt", "input_cost", "output_cost"),
    [
        (100_000, D("0.01"), D("0.0005")),  # at the threshold: base rates 0.10 / 0.50
        (150_000, D("0.075"), D("0.0025")),  # above it: the whole request at 0.50 / 2.50
    ],
    ids=["at-threshold", "above-threshold"],
)
def test_long_context_tier_prices_the_whole_request(prompt: int, input_cost: Decimal, output_cost: Decimal) -> None:
    cost = _estimate(Usage(input_tokens=prompt, output_tokens=1_000), "claude-haiku-5-5")
    assert (cost.input, cost.output) == (input_cost, output_cost)


def test_long_context_tier_applies_to_cache_rates_too() -> None:
    # gpt-6.1-terra above 272K: input 2, cache read 0.10, 30m write 2.50, output 7.50
    usage = Usage(input_tokens=300_000, output_tokens=2_000, cache_read_tokens=200_000, cache_write_tokens=10_000)
    assert _estimate(usage, "gpt-6.1-terra") == Cost(
        input=D("0.18"), cache_read=D("0.02"), cache_write=D("0.025"), output=D("0.015"), total=D("0.24")
    )
    # the tier counts the whole prompt, cached tokens included: 200,001 tokens is over 200K
    long = _estimate(Usage(input_tokens=200_001, output_tokens=0, cache_read_tokens=200_000), "gemini-2.5-pro")
    assert (long.input, long.cache_read) == (D("0.0000025"), D("0.05"))  # 1 x 2.50, 200,000 x 0.25


def test_unreported_cache_figures_stay_unknown_in_the_cost() -> None:
    cost = _estimate(Usage(input_tokens=100_000, output_tokens=100_000), "gpt-6-luna")
    assert cost == Cost(input=D("0.01"), output=D("0.05"), total=D("0.06"))  # x 0.10, x 0.50
    assert cost.cache_read is None and cost.cache_write is None


def test_a_dated_snapshot_listed_as_alias_has_its_models_price() -> None:
    usage = Usage(input_tokens=1_000, output_tokens=1_000, cache_read_tokens=500)
    assert _estimate(usage, "claude-haiku-4-5-20251001") == _estimate(usage, "claude-haiku-4-5")
    assert _estimate(usage, "gpt-5.5-2026-04-23").total == D("0.03275")  # 500x5 + 500x0.5 + 1,000x30


def test_a_ten_turn_tool_loop_costs_the_sum_of_its_turns() -> None:
    # turn n: the prompt grows by 1,000 tokens; all of the previous prompt is a cache read, the
    # new 1,000 tokens are written to the cache; 200 output tokens each. claude-sonnet-5-5:
    # cache read 0.20, 5m write 2.50, output 10, input 2 (never used: every token is cached).
    turns = [
        Usage(input_tokens=1_000 * n, output_tokens=200, cache_read_tokens=1_000 * (n - 1), cache_write_tokens=1_000)
        for n in range(1, 11)
    ]
    total = sum(_estimate(usage, "claude-sonnet-5-5") for usage in turns)
    assert isinstance(total, Cost)
    # reads: 45,000 x 0.20 = 0.009; writes: 10,000 x 2.50 = 0.025; output: 2,000 x 10 = 0.02
    assert total == Cost(
        input=D("0"), cache_read=D("0.009"), cache_write=D("0.025"), output=D("0.02"), total=D("0.054")
    )


def test_contradictory_counts_are_an_error_not_a_price() -> None:
    with pytest.raises(ValueError, match="input_tokens must include both"):
        estimate(Usage(input_tokens=100, output_tokens=0, cache_read_tokens=90, cache_write_tokens=20), "gpt-5.5")
    with pytest.raises(ValueError, match="more cache writes by retention"):
        estimate(
            Usage(input_tokens=100, output_tokens=0, cache_write_tokens=10, extra={ONE_HOUR_WRITES: 50}),
            "claude-opus-5",
        )


# --- unknown models ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "model", ["claude-opus-5-5-preview", "GPT-5.5", "gpt-5.5-mini", "gemini-2.5-pro-latest", "acme-1"]
)
def test_unknown_model_gives_none_and_a_warning_naming_it(model: str) -> None:
    with pytest.warns(UnknownPriceWarning) as caught:
        assert estimate(Usage(input_tokens=10, output_tokens=10), model) is None
    [warning] = caught
    assert isinstance(warning.message, UnknownPriceWarning)
    assert warning.message.model == model
    assert f"no price for model {model!r}" in str(warning.message)
    assert warning.filename == __file__  # points at the caller, not into the library


def test_no_model_at_all_gives_none_and_says_so() -> None:
    with pytest.warns(UnknownPriceWarning, match="no model named"):
        assert estimate(Usage(input_tokens=10, output_tokens=10), None) is None


# --- extending and replacing the table -----------------------------------------------------------

ACME: dict[str, Any] = {
    "providers": {
        "acme": {
            "as_of": "2026-11-01",
            "source": "https://acme.example/pricing",
            "models": {"acme-1": {"input": "1.1", "output": 4, "cache_read": 0.11, "cache_write": 1.1}},
            "aliases": {"acme-1-2026-11-01": "acme-1"},
        }
    }
}


def test_merged_adds_models_and_keeps_the_rest() -> None:
    table = default_prices().merged(ACME)
    usage = Usage(input_tokens=2_000_000, output_tokens=1_000_000, cache_read_tokens=1_000_000)
    assert _estimate(usage, "acme-1-2026-11-01", table).total == D("5.21")  # 1.1 + 0.11 + 4
    assert "claude-opus-5-5" in table and "acme-1" not in default_prices()


def test_merged_prices_win_over_the_bundled_ones() -> None:
    fix = {
        "providers": {
            "anthropic": {
                "as_of": "2026-12-01",
                "source": "https://example.com/negotiated",
                "models": {"claude-sonnet-5-5": {"input": 1, "output": 5, "cache_read": 0.1, "cache_write": 1.25}},
            }
        }
    }
    table = default_prices().merged(fix)
    assert _estimate(Usage(input_tokens=1_000_000, output_tokens=0), "claude-sonnet-5-5", table).total == D("1")
    assert _estimate(Usage(input_tokens=1_000_000, output_tokens=0), "claude-sonnet-5-5").total == D("2")


def test_merging_a_table_in_another_currency_is_refused() -> None:
    with pytest.raises(PriceTableError, match="in EUR into one in USD"):
        default_prices().merged(load_prices(ACME | {"currency": "EUR"}))


def test_a_replacement_table_prices_only_its_own_models(tmp_path: Path) -> None:
    path = tmp_path / "prices.json"
    path.write_text(json.dumps(ACME | {"currency": "EUR"}), encoding="utf-8")
    table = load_prices(path)
    cost = _estimate(Usage(input_tokens=1_000_000, output_tokens=0), "acme-1", table)
    assert (cost.total, cost.currency) == (D("1.1"), "EUR")
    with pytest.warns(UnknownPriceWarning):
        assert estimate(Usage(input_tokens=1, output_tokens=1), "claude-opus-5-5", table) is None


def test_a_file_that_is_not_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "prices.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(PriceTableError, match="is not JSON"):
        load_prices(path)
    with pytest.raises(PriceTableError, match="cannot read it"):
        load_prices(tmp_path / "missing.json")


# --- bad tables are rejected on load, naming the model and the field -----------------------------


def _model(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "input": 1,
        "output": 2,
        "cache_read": 0.1,
        "cache_write": 1.25,
        "cache_write_ttl": {"1h": 2},
        "tiers": [
            {
                "above": 1000,
                "input": 2,
                "output": 3,
                "cache_read": 0.2,
                "cache_write": 2.5,
                "cache_write_ttl": {"1h": 4},
            }
        ],
    }
    change(entry)
    return {
        "providers": {"acme": {"as_of": "2026-11-01", "source": "https://acme.example", "models": {"acme-1": entry}}}
    }


BAD_MODELS: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    "negative-input": (lambda e: e.update(input=-1), "input", "is negative (-1)"),
    "negative-tier-output": (lambda e: e["tiers"][0].update(output=-0.5), "tiers[0].output", "is negative"),
    "negative-ttl": (lambda e: e["cache_write_ttl"].update({"1h": -2}), "cache_write_ttl.1h", "is negative"),
    "missing-cache-read": (lambda e: e.pop("cache_read"), "cache_read", "is missing"),
    "null-output": (lambda e: e.update(output=None), "output", "is missing"),
    "missing-tier-input": (lambda e: e["tiers"][0].pop("input"), "tiers[0].input", "is missing"),
    "missing-tier-ttl": (lambda e: e["tiers"][0].pop("cache_write_ttl"), "tiers[0].cache_write_ttl.1h", "is missing"),
    "text-price": (lambda e: e.update(cache_write="free"), "cache_write", "is not a number"),
    "boolean-price": (lambda e: e.update(output=True), "output", "is not a number"),
    "nan-price": (lambda e: e.update(input=float("nan")), "input", "is not a number"),
    "misspelt-field": (lambda e: e.update(cache_reed=0.1), "cache_reed", "unknown field"),
    "tier-threshold": (lambda e: e["tiers"][0].update(above=0), "tiers[0].above", "positive whole number"),
    "tiers-falling": (lambda e: e["tiers"].append(dict(e["tiers"][0], above=500)), "tiers[1].above", "tiers must rise"),
}


@pytest.mark.parametrize("case", BAD_MODELS, ids=list(BAD_MODELS))
def test_a_bad_price_is_rejected_naming_model_and_field(case: str) -> None:
    change, field, problem = BAD_MODELS[case]
    with pytest.raises(PriceTableError) as raised:
        load_prices(_model(change))
    assert (raised.value.model, raised.value.field) == ("acme-1", field)
    assert "model 'acme-1'" in str(raised.value)
    assert f"'{field}'" in str(raised.value)
    assert problem in str(raised.value)
    with pytest.raises(PriceTableError):  # merging checks the same way
        default_prices().merged(_model(change))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t["providers"]["acme"].pop("as_of"), "'as_of' must be the date"),
        (lambda t: t["providers"]["acme"].update(as_of="November"), "'as_of' must be the date"),
        (lambda t: t["providers"]["acme"].pop("source"), "'source'"),
        (lambda t: t["providers"]["acme"].update(aliases={"acme-2": "acme-9"}), "'acme-2' names 'acme-9'"),
        (lambda t: t["providers"].update(other=t["providers"]["acme"]), "priced by both 'acme' and 'other'"),
        (lambda t: t.update(version=2), "version 2"),
        (lambda t: t.update(currency="usd"), "three-letter code"),
    ],
    ids=["no-date", "bad-date", "no-source", "alias-to-nowhere", "model-twice", "future-version", "bad-currency"],
)
def test_a_bad_table_is_rejected_with_a_clear_message(change: Callable[[dict[str, Any]], None], message: str) -> None:
    table = _model(lambda e: None)
    change(table)
    with pytest.raises(PriceTableError, match=message.replace("(", r"\(")):
        load_prices(table)
