"""Per wire: a minimal request carrying each key a codec decodes into the IR or provider_options.

A probe (``interlingua.testing.conformance.Probe``) is the body with the key, the same body
without it (or with another value where the key is required), and the IR path a warning about it
names. Rows of a codec's ``_coverage.REQUEST`` declared ``ir`` or ``provider_option`` each need a
probe; a ``provider_option`` probe's path is ``provider_options.<provider>.<top-level key>``.

The probes live in each codec's package (its ``_probes.py``), named by its conformance data
(``Conformance.requests`` / ``answers``); this module gathers those of every installed codec.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from interlingua.testing.conformance import Probe

from .conftest import CONFORMANCE

PROBES: dict[str, Callable[[], Mapping[str, Probe]]] = {
    wire: data.requests for wire, data in CONFORMANCE.items() if data.requests is not None
}
"""Wire -> its request probes, row -> Probe."""

MODEL_ROWS = {wire: data.model_row for wire, data in CONFORMANCE.items() if data.model_row is not None}
"""The row whose probe keeps its own model names (the others are sent to each target's model)."""

RESPONSE_PROBES: dict[str, Callable[[], Mapping[str, Probe]]] = {
    wire: data.answers for wire, data in CONFORMANCE.items() if data.answers is not None
}
"""Wire -> its answer probes: stop reason, usage, citations, thinking."""
