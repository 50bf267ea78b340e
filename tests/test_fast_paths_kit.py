"""``interlingua.testing.declining``: the switch the fast-path tests rest on must really switch."""

from __future__ import annotations

import types

import pytest

from interlingua.testing import declining


def test_declining_turns_the_named_functions_off_and_puts_them_back() -> None:
    module = types.ModuleType("fast")
    module.read = lambda item: {"read": item}  # type: ignore[attr-defined]
    module.write = lambda item, *, at="": [item]  # type: ignore[attr-defined]
    original = module.read
    with declining(module, "read", "write"):
        assert module.read(1) is None
        assert module.write(1, at="x") is None
    assert module.read is original
    assert module.write(2) == [2]


def test_declining_puts_them_back_after_an_error_too_and_refuses_a_misspelt_name() -> None:
    module = types.ModuleType("fast")
    module.read = lambda item: item  # type: ignore[attr-defined]
    with pytest.raises(RuntimeError), declining(module, "read"):
        raise RuntimeError("boom")
    assert module.read(3) == 3
    with pytest.raises(AttributeError), declining(module, "raed"):
        pass
