"""The oracle seam: ``validate_wire`` / ``check_rules`` find a wire's oracle through its codec's
``oracle`` attribute, a codec without one gets a clear error, and the generic kit (SDK-type
checks, sendable rules, the model-rule judge) runs in the core alone, with no codec or SDK."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NotRequired

import pytest
from typing_extensions import TypedDict

import interlingua as il
from interlingua import _registry
from interlingua.testing import (
    Oracle,
    RuleView,
    Sendable,
    check_model_rules,
    check_rules,
    either,
    objects,
    oracle_for,
    sdk_problems,
    validate_wire,
)

# --- a third party's wire, with its oracle ---------------------------------------------------------


class _Block(TypedDict):
    type: str
    text: str


class _AcmeRequest(TypedDict):
    model: str
    blocks: Iterable[_Block]
    temperature: NotRequired[float]


def _acme_rules(body: Mapping[str, Any], model: str | None) -> list[str]:
    """Acme's (invented) rule: the last block is the user's question."""
    blocks = objects(body.get("blocks"))
    return [] if blocks and blocks[-1].get("type") == "question" else ["blocks: must end with a question"]


def _acme_tool_names(body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return [(f"tools[{i}].name", tool.get("name")) for i, tool in enumerate(objects(body.get("tools")))]


def _no_problems(body: Mapping[str, Any]) -> list[str]:
    return []


ORACLE = Oracle(
    checks={
        "request": either(lambda: _AcmeRequest),
        "response": _no_problems,
        "stream_event": _no_problems,
        "error": _no_problems,
    },
    rules=_acme_rules,
    sendable=Sendable(
        tool_name=re.compile(r"[a-z]{1,8}"),
        max_tokens=("limits.max",),
        sampling=("temperature",),
        turns=("blocks",),
        tool_names=_acme_tool_names,
    ),
    rule_view=lambda body: RuleView({"temperature": body["temperature"]} if "temperature" in body else {}),
)


class _AcmeCodec:
    name = "acme-chat"
    provider = "acme"
    oracle = f"{__name__}:ORACLE"


class _SilentCodec:
    """A codec that names no oracle: it works everywhere but in the oracle."""

    name = "silent-chat"
    provider = "silent"
    oracle = None  # the Codec protocol's default (interlingua.kit.CodecBase)


class _WrongCodec:
    name = "wrong-chat"
    provider = "wrong"
    oracle = f"{__name__}:_acme_rules"


@dataclass
class _Entry:
    name: str
    value: Any

    def load(self) -> Any:
        return self.value


@pytest.fixture
def third_party(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    installed = _registry._entry_points()
    extra = {codec.name: _Entry(codec.name, codec) for codec in (_AcmeCodec, _SilentCodec, _WrongCodec)}
    monkeypatch.setattr(_registry, "_entry_points", lambda: {**installed, **extra})
    monkeypatch.setattr(_registry, "_default", functools.cache(_registry._default.__wrapped__))  # none kept after
    yield


@pytest.mark.usefixtures("third_party")
def test_a_third_party_codec_brings_its_own_oracle() -> None:
    body = {"model": "m", "blocks": [{"type": "question", "text": "hi"}, {"type": "question", "txt": "x"}]}
    assert validate_wire("acme-chat", "request", body) == [
        "blocks[1].text: Field required",
        "blocks[1].txt: unknown key (not in _Block)",
    ]
    assert check_rules("acme-chat", {"model": "", "blocks": [], "tools": [{"name": "Up"}]}) == [
        "blocks: must end with a question",
        "model: empty",
        "tools[0].name: 'Up' does not match [a-z]{1,8}",
    ]
    assert oracle_for("acme-chat") is ORACLE


@pytest.mark.usefixtures("third_party")
def test_a_codec_without_an_oracle_gets_a_clear_error() -> None:
    named_none = (
        "no oracle for wire 'silent-chat': its codec _SilentCodec names none (an `oracle` attribute, "
        '"module:NAME" of an interlingua.testing.Oracle; see docs/guide/codecs.md)'
    )
    with pytest.raises(ValueError) as raised:
        validate_wire("silent-chat", "request", {})
    assert str(raised.value) == named_none
    with pytest.raises(ValueError, match="its codec _SilentCodec names none"):
        check_rules("silent-chat", {})
    with pytest.raises(ValueError, match="its codec _SilentCodec names none"):
        check_model_rules("silent-chat", {"model": "m"})
    with pytest.raises(ValueError, match=r"is not an interlingua.testing.Oracle \(found function\)"):
        validate_wire("wrong-chat", "request", {})
    with pytest.raises(ValueError, match=r"no oracle for wire 'nope-chat': no codec named 'nope-chat'; installed"):
        validate_wire("nope-chat", "request", {})


def test_every_installed_codec_names_an_oracle_and_loading_a_codec_leaves_it_unloaded() -> None:
    assert {name: type(oracle_for(name)).__name__ for name in il.codecs()} == dict.fromkeys(il.codecs(), "Oracle")
    probe = (
        "import sys, interlingua as il\n"
        "[il.get_codec(n) for n in il.codecs()]\n"
        "print(sorted(m for m in sys.modules if m.endswith('_oracle') or m.startswith('interlingua.testing')))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_an_oracle_checks_every_kind() -> None:
    with pytest.raises(ValueError, match=r"an oracle checks every kind; missing \['stream_event', 'error'\]"):
        Oracle(
            checks={"request": _no_problems, "response": _no_problems},
            rules=_acme_rules,
            sendable=ORACLE.sendable,
            rule_view=ORACLE.rule_view,
        )


def test_sendable_rules_read_paths_payloads_and_data_urls() -> None:
    sendable = Sendable(
        tool_name=re.compile(r"[a-z]+"),
        max_tokens=("limits.max",),
        sampling=("temperature",),
        turns=("blocks",),
        tool_names=lambda body: [],
        turn_call_ids=lambda body: [("blocks", [(0, "a"), (1, "a"), (2, "")])],
        payload=lambda value: ("media.bytes", value["media"]["bytes"]) if "media" in value else None,
    )
    body = {
        "limits": {"max": -1},
        "temperature": float("nan"),
        "blocks": [{"media": {"bytes": "no spaces allowed"}}, {"url": "data:image/png;base64,??"}],
        "elsewhere": {"url": "data:image/png;base64,??"},  # not a turn: not walked
    }
    assert sendable.problems(body) == [
        "limits.max: -1 is negative",
        "temperature: nan is not a JSON number",
        "blocks[1]: tool call id 'a' used twice in one turn",
        "blocks[2]: empty tool call id",
        "blocks[0].media.bytes: not base64 data",
        "blocks[1].url: not base64 data",
    ]


def test_sdk_problems_forces_lazy_iterables_and_names_undeclared_keys() -> None:
    body = {"model": "m", "blocks": [{"type": "t", "text": "a"}, {"type": "t", "text": 1}], "extra": True}
    assert sdk_problems(_AcmeRequest, body) == [
        "blocks[1].text: Input should be a valid string",
        "extra: unknown key (not in _AcmeRequest)",
    ]


# --- the core alone ---------------------------------------------------------------------------------

_CORE_ALONE = """
import importlib.abc, re, sys

class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("anthropic", "openai", "google") or name.startswith("interlingua_"):
            raise ImportError(f"blocked: {name}")
        return None

sys.meta_path.insert(0, Blocked())
from pydantic import BaseModel
from interlingua import _registry
_registry._entry_points.cache_clear()
_registry._entry_points = lambda: {}  # the core installed alone: no codec
import interlingua as il
import interlingua.testing as kit
from interlingua.testing import strategies

class Reply(BaseModel):
    model_config = {"extra": "allow"}
    text: str

class Codec:
    name, provider, oracle = "acme-chat", "acme", "__main__:ORACLE"

ORACLE = kit.Oracle(
    checks={kind: kit.either(lambda: Reply) for kind in ("request", "response", "stream_event", "error")},
    rules=lambda body, model: [],
    sendable=kit.Sendable(re.compile("[a-z]+"), ("max",), (), (), lambda body: []),
    rule_view=lambda body: kit.RuleView(),
)
print(il.codecs(), strategies.PROVIDERS)
try:
    kit.validate_wire("acme-chat", "response", {})
except ValueError as error:
    print(error)
class Entry:
    name, value = "acme-chat", Codec
    def load(self):
        return Codec
_registry._entry_points = lambda: {"acme-chat": Entry()}
print(kit.validate_wire("acme-chat", "response", {"text": "hi", "tokens": 3}))
print(kit.check_rules("acme-chat", {"max": -1}))
print(sorted(m for m in ("anthropic", "openai", "google.genai") if m in sys.modules))
"""


def test_the_core_and_its_generic_kit_work_without_any_codec_or_sdk() -> None:
    out = subprocess.run([sys.executable, "-c", _CORE_ALONE], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "[] ('acme',)",
        f"no oracle for wire 'acme-chat': no codec named 'acme-chat'; installed codecs: none ({_registry.NO_CODECS})",
        "['tokens: unknown key (not in Reply)']",
        "['max: -1 is negative']",
        "[]",
    ]
