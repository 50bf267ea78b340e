"""The compact JSON every codec writes tool arguments with is json.dumps' text (``_wire.compact_json``)."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import to_json

from interlingua.kit import arguments_text

_floats = st.floats() | st.sampled_from([1e16, 1e-05, 1.5e-07, 0.1, -0.0, 1e300, 5e-324])
_strings = st.text(max_size=8) | st.sampled_from(["\x00\x1f\x7f", '"\\', "\u2028é/", "\ud800", "re-run 0.0000"])
_scalars = st.none() | st.booleans() | st.integers() | st.sampled_from([2**70, -(2**64)]) | _floats | _strings
_values = st.recursive(
    _scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_strings, inner, max_size=3)
)


@given(st.dictionaries(_strings, _values, max_size=4))
def test_arguments_text_is_json_dumps_compact_text(value: dict[str, Any]) -> None:
    assert arguments_text(value, None) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_pydantic_core_prints_a_float_otherwise_only_with_an_exponent_or_0_0000_in_its_text() -> None:
    """What ``compact_json`` rests on to trust pydantic-core's text without a walk of the value:
    over every binary exponent, a float the two print differently has a digit followed by ``e``,
    or ``0.0000``, in pydantic-core's text (on the pydantic floor's pydantic-core, ``1e16``)."""
    for exponent in range(-1074, 1024):
        for mantissa in (1.0, 1.1, 1.5, 1.9999999999999998):
            value = mantissa * 2.0**exponent
            for number in (value, -value):
                printed = to_json(number, inf_nan_mode="constants").decode()
                if printed != json.dumps(number):
                    assert re.search(r"\de", printed) or "0.0000" in printed, (number, printed)
