"""The schema corpus (fixtures/schemas: pydantic, SDK helpers, zod-to-json-schema, the MCP
reference servers' tool lists) encoded on every installed wire, for a model of each family in
its catalog, as a tool, a strict tool and a strict response format: every result passes the
target's schema rules (``check_rules``), and every change to a schema carries a warning at or
above where it happened; a schema the target takes crosses untouched, with no warning."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua import models
from interlingua.testing import check_rules, oracle_for

ROOT = Path(__file__).parent.parent / "fixtures" / "schemas"


def corpus() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted(ROOT.glob("*/*.json")):
        record = json.loads(path.read_text())
        if "tools" in record:  # an MCP server's tools/list
            for tool in record["tools"]:
                yield f"{path.parent.name}/{path.stem}/{tool['name']}", tool["inputSchema"]
        else:
            yield f"{path.parent.name}/{path.stem}", record["schema"]


SCHEMAS = dict(corpus())


def families(provider: str) -> list[str | None]:
    """One catalog model per family (the id's first word), or None where there is no catalog."""
    found: dict[str, str] = {}
    for spec in models.all_models(provider):
        head = spec.id.split(".")[0] if "." in spec.id else spec.id.split("-")[0]
        found.setdefault(head, spec.id)
    return list(found.values()) or [None]


TARGETS = [(wire, model) for wire in il.codecs() for model in families(il.get_codec(wire).provider)]


def _requests(schema: dict[str, Any], model: str | None) -> dict[str, il.Request]:
    user = [il.Message.user("go")]
    return {
        "tool": il.Request(model=model, messages=user, tools=[il.Tool(name="t", input_schema=schema)]),
        "strict tool": il.Request(
            model=model, messages=user, tools=[il.Tool(name="t", input_schema=schema, strict=True)]
        ),
        "response format": il.Request(
            model=model,
            messages=user,
            response_format=il.ResponseFormat(type="json_schema", name="out", json_schema=schema, strict=True),
        ),
    }


_PLACES = {
    "tool": "tools[0].input_schema",
    "strict tool": "tools[0].input_schema",
    "response format": "response_format.json_schema",
}


@pytest.mark.parametrize(("wire", "model"), TARGETS, ids=lambda value: str(value))
def test_every_corpus_schema_passes_the_targets_rules_with_each_change_warned(wire: str, model: str | None) -> None:
    codec = il.get_codec(wire)
    failures: list[str] = []
    for name, schema in SCHEMAS.items():
        for place, request in _requests(schema, model).items():
            encoded = codec.encode_request(request)
            problems = [p for p in check_rules(wire, encoded.body, model=model) if "schema" in p.split(":")[0].lower()]
            failures.extend(f"{name} as {place}: {problem}" for problem in problems)
            sent = _sent_schema(wire, encoded.body, place, model)
            if sent is None:
                continue  # this wire sends no schema for this place (it warned instead)
            at = _PLACES[place]
            warned = [w.path.removeprefix(at).lstrip(".") for w in encoded.warnings if w.path.startswith(at)]
            for change in _changes(_normal(schema), _normal(sent)):
                if not any(_covered(path, change) for path in warned):
                    failures.append(f"{name} as {place}: {change or '<root>'} changed without a warning")
    assert failures == []


def test_a_schema_the_target_takes_crosses_untouched_without_a_warning() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    schema["additionalProperties"] = False
    for wire in il.codecs():
        encoded = il.get_codec(wire).encode_request(_requests(schema, None)["strict tool"])
        sent = _sent_schema(wire, encoded.body, "strict tool", None)
        assert sent is None or sent == schema, wire
        assert [w for w in encoded.warnings if w.path.startswith("tools[0].input_schema")] == [], wire


def test_a_propertynames_keyword_is_dropped_with_its_path_and_strict_refuses() -> None:
    schema = {
        "type": "object",
        "properties": {"tags": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}},
        "additionalProperties": False,
    }
    tool = il.Tool(name="t", input_schema=schema, strict=True)
    tools = [il.Tool(name="a"), il.Tool(name="b"), tool]
    request = il.Request(model="m", messages=[il.Message.user("go")], tools=tools)
    for wire in il.codecs():
        codec = il.get_codec(wire)
        paths = [w.path for w in codec.encode_request(request).warnings]
        if "tools[2].input_schema.properties.tags.propertyNames" in paths:
            with pytest.raises(il.LossyEncodeError):
                codec.encode_request(request, strict=True)
            break
    else:
        pytest.fail("no installed wire refuses propertyNames in a strict tool")


# --- where the sent schema is, and what changed ---------------------------------------------------


def _sent_schema(wire: str, body: Any, place: str, model: str | None) -> Any:
    """The schema the body sends for ``place`` (where the wire's oracle says schemas are), or
    None where it sends none the oracle holds to a dialect."""
    for at, schema, _ in oracle_for(wire).schemas(body, model):
        if ("tools" in at) == (place != "response format"):
            return schema
    return None


def _normal(schema: Any) -> Any:
    """``schema`` with what changes nothing it accepts undone: refs inlined (a recursion cut at
    the same depth the encoders use), definitions and ``$schema`` gone, const as a one-value
    enum, a root without a type given ``object`` (a tool input and a strict root are objects)."""
    root = copy.deepcopy(schema)

    def inline(node: Any, stack: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [inline(each, stack) for each in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            if stack.count(ref) >= 3:
                return {_CUT: True}  # compared no further: the two sides may unroll to different depths
            target: Any = root
            for part in ref[2:].split("/") if ref != "#" else []:
                target = target.get(part, {}) if isinstance(target, dict) else {}
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return inline({**copy.deepcopy(target), **rest}, (*stack, ref))
        out = {}
        for key, value in node.items():
            if key in ("$defs", "definitions", "$schema", "$comment"):
                continue
            if key == "const" and "enum" not in node:
                out["enum"] = [value]
                continue
            is_map = key in ("properties", "patternProperties", "$defs") and isinstance(value, dict)
            out[key] = {k: inline(v, stack) for k, v in value.items()} if is_map else inline(value, stack)
        return out

    normal = inline(root, ())
    if isinstance(normal, dict) and "type" not in normal and not normal.keys() & {"anyOf", "oneOf", "allOf", "enum"}:
        normal["type"] = "object"
    return normal


_CUT = "$cut"


def _changes(before: Any, after: Any, at: str = "") -> Iterator[str]:
    if (isinstance(before, dict) and _CUT in before) or (isinstance(after, dict) and _CUT in after):
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before.keys() | after.keys():
            if key not in before or key not in after:
                yield f"{at}.{key}".lstrip(".")
            else:
                yield from _changes(before[key], after[key], f"{at}.{key}".lstrip("."))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after) and at.endswith("Of"):
        for i, (a, b) in enumerate(zip(before, after, strict=True)):
            yield from _changes(a, b, f"{at}[{i}]")
    elif before != after:
        yield at


def _covers(warned: str, change: str) -> bool:
    """A warning at ``warned`` names ``change``: one lies within the other, or the change is in
    the object whose property or keyword was warned (a ``required`` list, a type made nullable)."""
    parent = change.rsplit(".", 1)[0] if "." in change else ""
    return change.startswith(warned) or warned.startswith(change) or warned.startswith(parent)


def _covered(warned: str, change: str) -> bool:
    """:func:`_covers`, where a warning inside a definition (``$defs.Node.properties.x``) names
    the change at each place the definition is used (the normal form has it inlined there)."""
    if _covers(warned, change):
        return True
    if warned.startswith(("$defs.", "definitions.")):
        rest = warned.split(".", 2)[2] if warned.count(".") >= 2 else ""
        segments = change.split(".")
        return any(_covers(rest, ".".join(segments[i:])) for i in range(1, len(segments)))
    return False
