"""Cost: exact decimal arithmetic, one currency per sum, and a JSON form that reads back equal."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from interlingua._cost import Cost

D = Decimal


def test_costs_add_field_by_field_and_none_means_not_known() -> None:
    a = Cost(input=D("0.01"), output=D("0.2"), cache_read=D("0.003"), total=D("0.213"))
    b = Cost(input=D("0.02"), output=D("0.1"), cache_write=D("0.05"), total=D("0.17"))
    assert a + b == Cost(
        input=D("0.03"), output=D("0.3"), cache_read=D("0.003"), cache_write=D("0.05"), total=D("0.383")
    )
    # a reported cost that only knows its total keeps the breakdown unknown, not zero
    assert Cost(total=D("1.5")) + Cost(total=D("0.5")) == Cost(total=D("2.0"))
    assert (Cost(total=D("1")) + Cost(total=D("1"))).input is None


def test_extra_charges_add_by_name() -> None:
    a = Cost(total=D("0.03"), extra={"web_search": D("0.01"), "storage": D("0.02")})
    b = Cost(total=D("0.01"), extra={"web_search": D("0.01")})
    assert (a + b).extra == {"web_search": D("0.02"), "storage": D("0.02")}


def test_mixed_currencies_refuse_to_add_and_say_which() -> None:
    with pytest.raises(ValueError, match="cannot add a cost in EUR to a cost in USD"):
        Cost(total=D("1")) + Cost(total=D("1"), currency="EUR")


def test_sum_starts_from_zero_and_stays_exact_where_floats_drift() -> None:
    tenths = [Cost(total=0.1) for _ in range(10)]  # floats are read through their shortest repr
    assert tenths[0].total == D("0.1")
    assert sum(tenths).total == D("1")  # type: ignore[union-attr]  # sum() of Costs is a Cost
    running = 0.0
    for _ in range(10):
        running += 0.1  # plain float additions (sum() of floats compensates from Python 3.12)
    assert running != 1.0  # the drift Decimal avoids
    eur = Cost(total=D("2"), currency="EUR")
    assert sum([eur]) == eur


def test_json_round_trip_gives_an_equal_cost_with_amounts_as_strings() -> None:
    cost = Cost(
        input=D("0.0028"),
        output=D("0.01"),
        cache_read=D("0.00004"),
        cache_write=D("0.0005"),
        total=D("0.01334"),
        currency="EUR",
        extra={"web_search": D("1E-7")},
    )
    dumped = cost.model_dump(mode="json", exclude_defaults=True)
    assert dumped == {
        "input": "0.0028",
        "output": "0.01",
        "cache_read": "0.00004",
        "cache_write": "0.0005",
        "total": "0.01334",
        "currency": "EUR",
        "extra": {"web_search": "1E-7"},
    }
    assert Cost.model_validate(dumped) == cost
    assert Cost.model_validate_json(cost.model_dump_json()) == cost
    assert Cost().model_dump(mode="json", exclude_defaults=True) == {}
    assert Cost.model_validate({}) == Cost()


@pytest.mark.parametrize(
    "fields",
    [{"total": "NaN"}, {"total": float("inf")}, {"currency": "usd"}, {"currency": "DOLLARS"}, {"cost": 1}],
    ids=["nan", "infinity", "lowercase-currency", "long-currency", "unknown-field"],
)
def test_bad_values_are_rejected(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Cost.model_validate(fields)


def test_costs_are_frozen() -> None:
    with pytest.raises(ValidationError):
        Cost().total = D("1")  # type: ignore[misc]  # the point of the test


_amounts = st.decimals(min_value=-(10**6), max_value=10**6, places=9, allow_nan=False, allow_infinity=False)
_optional = st.none() | _amounts
costs = st.builds(
    Cost,
    input=_optional,
    output=_optional,
    cache_read=_optional,
    cache_write=_optional,
    total=_amounts,
    extra=st.dictionaries(st.sampled_from(["web_search", "storage", "code_execution"]), _amounts, max_size=3),
)


@settings(max_examples=200, deadline=None)
@given(costs, costs, costs)
def test_addition_is_associative_and_commutative(a: Cost, b: Cost, c: Cost) -> None:
    # Decimal sums of these amounts are exact, so "up to rounding" is no rounding at all.
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a


@settings(max_examples=200, deadline=None)
@given(costs)
def test_zero_is_the_identity_and_json_round_trips(a: Cost) -> None:
    assert Cost() + a == a
    assert a + Cost() == a
    assert sum([a]) == a
    assert Cost.model_validate(a.model_dump(mode="json", exclude_defaults=True)) == a
