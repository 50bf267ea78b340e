"""The field-coverage contract wired to every installed wire, and the ``docs/coverage.md`` page from it.

Each codec declares (its ``_coverage.py``) where every key of its vendor SDK's request and
response types goes, and its conformance data names the SDK types each table is checked against;
this module runs the probes of ``_coverage_probes`` through every other codec, and renders the page:
``python -m tests.conformance.coverage_doc > docs/coverage.md`` (a test checks it is current).
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

import interlingua as il
from interlingua.testing import Coverage, Outcome, covering, probe_outcome, response_outcome, sdk_paths

from . import _coverage_probes as probes
from .conftest import CONFORMANCE

COVERAGE: dict[str, Coverage] = {wire: data.coverage for wire, data in CONFORMANCE.items() if data.coverage}
"""Each wire's field-coverage contract (``Conformance.coverage``, in its codec's package): the
module of its declarations, the SDK types they are checked against, and that SDK's release."""
WIRES = tuple(COVERAGE)
MODELS = {wire: coverage.model for wire, coverage in COVERAGE.items()}
"""Each target's own model (those of the corpus's echoes and recorded answers), so its model rules apply."""
CHECKED_AGAINST = {wire: coverage.sdk for wire, coverage in COVERAGE.items()}
"""The SDK release each wire's declarations were last checked against. The dev requirements
install the newest release, where a key the declarations lack fails the walk (a vendor added a
field: someone decides); an older release (the support matrix's floor run resolves one) lacks
keys its successors added, so the walk of it is skipped, not failed."""


def older_sdk(wire: str) -> str | None:
    """Why ``wire``'s installed SDK is older than its declarations, or None when it is not."""
    import importlib.metadata
    import re

    distribution, checked = CHECKED_AGAINST[wire]
    installed = importlib.metadata.version(distribution)

    def release(version: str) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", version)[:3])

    if release(installed) >= release(checked):
        return None
    return f"{wire}'s declarations are checked against {distribution} {checked}; {installed} is older"


ENDPOINT = il.Endpoint(api_key="coverage-probe", settings={"aws_region": "us-east-1"})
"""Where the probes' requests are built for: Converse names its region in the URL."""

DECODED = ("ir", "meaning", "provider_option")
"""The destinations a probe must show reaching every other codec (the rest stay on one wire)."""


@cache
def found(wire: str, kind: str) -> frozenset[str]:
    return frozenset(sdk_paths(COVERAGE[wire].types(kind)))


def probed_rows(wire: str) -> list[str]:
    """The request rows whose key a decode puts into the IR or provider_options."""
    return [row for row, (where, _) in COVERAGE[wire].declaration("request").items() if where in DECODED]


@cache
def request_outcomes(wire: str) -> dict[str, dict[str, Outcome]]:
    """row -> {other codec: outcome}, for every row that has a probe."""
    source = il.get_codec(wire)
    table: dict[str, dict[str, Outcome]] = {}
    for row, probe in probes.PROBES[wire]().items():
        table[row] = {}
        for target in WIRES:
            if target == wire:
                continue
            model = None if row == probes.MODEL_ROWS.get(wire) else MODELS[target]
            table[row][target] = probe_outcome(
                source, il.get_codec(target), probe.body, probe.without, probe.at, model=model, endpoint=ENDPOINT
            )
    return table


@cache
def response_outcomes(wire: str) -> dict[str, dict[str, Outcome]]:
    source = il.get_codec(wire)
    return {
        row: {
            target: response_outcome(source, il.get_codec(target), probe.body, probe.without, probe.at)
            for target in WIRES
            if target != wire
        }
        for row, probe in probes.RESPONSE_PROBES[wire]().items()
    }


def figures() -> dict[str, dict[str, Any]]:
    """Per wire: SDK keys found, declared rows, and per target carried / warned / silent counts."""
    out: dict[str, dict[str, Any]] = {}
    for wire in WIRES:
        outcomes = request_outcomes(wire)
        per_target = {
            target: {
                kind: sum(1 for row in outcomes.values() if row[target] == kind) for kind in typing.get_args(Outcome)
            }
            for target in WIRES
            if target != wire
        }
        out[wire] = {
            "request keys": len(found(wire, "request")),
            "request rows": len(COVERAGE[wire].declaration("request")),
            "response keys": len(found(wire, "response")),
            "response rows": len(COVERAGE[wire].declaration("response")),
            "probed": len(outcomes),
            "targets": per_target,
        }
    return out


# --- the page ----------------------------------------------------------------------------------

_SHOWN = {"carried": "carried", "warned": "**warned**", "silent": "**SILENT**"}


def _row_cells(wire: str, row: str, where: str, note: str, outcomes: Mapping[str, Mapping[str, Outcome]]) -> list[str]:
    others = [t for t in WIRES if t != wire]
    if row in outcomes:
        what = "provider option" if where == "provider_option" else note
        return [_SHOWN[outcomes[row][t]] + (f" as {what}" if outcomes[row][t] == "carried" else "") for t in others]
    if where == "meaning":
        return ["**not mapped**" for _ in others]
    return ["n.a." for _ in others]


def _table(wire: str, kind: str, outcomes: Mapping[str, Mapping[str, Outcome]]) -> list[str]:
    others = [t for t in WIRES if t != wire]
    declaration = COVERAGE[wire].declaration(kind)
    lines = [
        "| key | goes to | " + " | ".join(others) + " |",
        "|---|---|" + "---|" * len(others),
    ]
    for row, (where, note) in declaration.items():
        goes = f"{where}: {note}" if note else where
        cells = _row_cells(wire, row, where, note, outcomes)
        lines.append(f"| `{row}` | {goes} | " + " | ".join(cells) + " |")
    return lines


def markdown() -> str:
    out = [
        "# Field coverage by wire",
        "",
        "<!-- Generated by `python -m tests.conformance.coverage_doc > docs/coverage.md` from each codec's",
        "     `_coverage.py` declarations and the probes in tests/conformance; a test checks it is current. -->",
        "",
        "Every key of each vendor SDK's request and response types is declared by its codec: where a",
        "decode puts it (**ir**: an IR field; **replay**: the provider echo of the part, message or",
        "answer, opaque and bound to the vendor (a signature, encrypted reasoning, an id, the vendor's",
        "record of the call), replayed to the same vendor only and left out elsewhere without a word;",
        "**meaning**: a block's field whose sense other wires can carry, mapped to the IR field named, or,",
        "where the IR has no field for it yet, kept in the echo marked `unmapped` (`ProviderEcho.unmapped`),",
        "which every other wire reports dropped;",
        "**native**: a `Native` part or `NativeTool`, verbatim; **provider_option**:",
        "`Request.provider_options`, same wire only; **warned**; **transport**: SDK or HTTP plumbing).",
        "A test walks the SDK types and fails on an undeclared key or a stale row. For each key a decode",
        "puts into the IR, a meaning field or provider_options, a probe request carrying it is decoded",
        "and encoded by every other codec: **carried** (the target's request changed), **warned** (a",
        "typed warning at the key's IR path) or **SILENT** (neither; the test lists each one by name).",
        "`n.a.`: the key stays on its own wire (replay, native, transport). **not mapped**: a meaning",
        "field without a probe (none is left).",
        "",
        "`[tag]` is a list element by its `type` (or `role`), `(tag)` a union member, `[*]` any tag,",
        "`.*` a whole subtree.",
        "",
        "| wire | request keys (SDK) | rows | probed | response keys (SDK) | rows |",
        "|---|---|---|---|---|---|",
    ]
    numbers = figures()
    for wire, n in numbers.items():
        out.append(
            f"| `{wire}` | {n['request keys']} | {n['request rows']} | {n['probed']}"
            f" | {n['response keys']} | {n['response rows']} |"
        )
    out.append("")
    for wire in WIRES:
        out += [f"## `{wire}` request", ""]
        counts = "; ".join(
            f"{t}: {c['carried']} carried, {c['warned']} warned, {c['silent']} silent"
            for t, c in numbers[wire]["targets"].items()
        )
        out += [f"Probed keys per target: {counts}.", ""]
        out += _table(wire, "request", request_outcomes(wire))
        out += ["", f"## `{wire}` response", ""]
        out += _table(wire, "response", response_outcomes(wire))
        out.append("")
    return "\n".join(out)


def undeclared(wire: str, kind: str) -> list[str]:
    """SDK keys of ``wire`` no row covers (for a quick look while writing a declaration)."""
    declaration = COVERAGE[wire].declaration(kind)
    return sorted(path for path in found(wire, kind) if covering(declaration, path) is None)


if __name__ == "__main__":
    sys.stdout.write(markdown())
