"""The conformance corpus and targets: every transcript of ``fixtures/transcripts/``, every
recorded request of ``shared/fixtures/real``, and every codec (with the dialects that change what
a body may hold) they are encoded for. The targets, corpus folders and per-wire exceptions are
each codec's own conformance data (``interlingua.testing.Conformance``, named by the codec's
``conformance`` attribute): a codec installed by entry point joins with no edit here."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import interlingua as il
from interlingua import Codec, Request, Transcript
from interlingua.kit import RuleTable
from interlingua.testing import Conformance, conformance_for, load_body, real_fixtures

TRANSCRIPTS_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"
TRANSCRIPTS = sorted(TRANSCRIPTS_DIR.glob("*.json"))
REQUEST_KEY = "test.request"


CONFORMANCE: dict[str, Conformance] = {
    name: data for name in il.codecs() if (data := conformance_for(name)) is not None
}
"""Every installed codec that names its conformance data (``Codec.conformance``), by wire: the
suite runs each of them, a codec installed by entry point as much as the six."""
WIRES = tuple(CONFORMANCE)


@dataclass(frozen=True)
class Target:
    """A codec to encode for, and the model a request to it addresses: one of the targets of a
    codec's conformance data (``interlingua.testing.Target``), with the codec's name."""

    id: str
    name: str
    dialect: str | None
    model: str
    real_folder: str | None = None

    @property
    def codec(self) -> Codec:
        return _codec(self.name, self.dialect)


@cache
def _codec(name: str, dialect: str | None) -> Codec:
    return il.get_codec(name, dialect=dialect) if dialect else il.get_codec(name)


TARGETS = [
    Target(target.id, wire, target.dialect, target.model, target.real_folder)
    for wire, data in CONFORMANCE.items()
    for target in data.targets
]
TARGET_IDS = [t.id for t in TARGETS]
MODELS = {t.name: t.model for t in TARGETS if t.dialect is None}
"""Each wire's own model (its default target's): the model a cross-converted request addresses."""


def rule_table(target: Target) -> RuleTable:
    """The rule table of the target's host, for ``check_rules`` (a dialect keeps its own id rule)."""
    return target.codec.rules.table


BY_ID = {t.id: t for t in TARGETS}


@cache
def load_transcript(stem: str) -> Transcript:
    return Transcript.loads((TRANSCRIPTS_DIR / f"{stem}.json").read_bytes())


def transcript_request(stem: str, model: str | None) -> Request:
    """The transcript replayed as a Request: its messages, the settings its metadata holds under
    ``test.request``, and ``model`` (each target addresses its own)."""
    transcript = load_transcript(stem)
    settings = dict(transcript.metadata.get(REQUEST_KEY, {}))
    settings.pop("model", None)
    return Request.model_validate({**settings, "model": model, "messages": transcript.to_json_dict()["messages"]})


# --- the recorded corpus -----------------------------------------------------------------------

LINGUA_WIRES = {folder: wire for wire, data in CONFORMANCE.items() for folder in data.lingua_folders}
"""Lingua corpus provider folder -> the wire that decodes it (``Conformance.lingua_folders``)."""


REAL_SOURCES = {t.real_folder: t.id for t in TARGETS if t.real_folder is not None}
"""Recorded wire folder of ``shared/fixtures/real`` -> the target that decodes it."""


GOLDEN = Path(__file__).resolve().parents[2] / "fixtures"


def golden(wire: str, kind: str, pattern: str) -> list[Path]:
    """The golden fixtures of ``wire`` of ``kind`` (request, response, stream): in its package
    where its conformance data says so (``Conformance.golden``), else in ``fixtures/<wire>``."""
    return sorted(((CONFORMANCE[wire].golden or GOLDEN / wire) / kind).glob(pattern))


def golden_answers(wire: str) -> list[Path]:
    """The golden answers of ``wire`` (not the IR files beside them)."""
    return [p for p in golden(wire, "response", "*.json") if not p.name.endswith(".ir.json")]


REAL_FOLDER = {wire: folder for folder, wire in REAL_SOURCES.items() if folder != wire}
"""A wire whose recorded traffic sits in a folder of another name (``Target.real_folder``)."""


def real_folder(wire: str) -> str:
    """The folder of ``shared/fixtures/real`` holding ``wire``'s recordings."""
    return REAL_FOLDER.get(wire, wire)


@dataclass(frozen=True)
class Recorded:
    wire: str
    path: Path

    @property
    def id(self) -> str:
        return f"{self.wire}/{self.path.stem}"


REAL = [Recorded(wire, path) for wire in REAL_SOURCES for path in real_fixtures(wire, "request")]


@cache
def decode_recorded(wire: str, path: Path) -> Request:
    """A recorded request decoded by its own codec; Gemini's and Bedrock's model is read from the
    URL path (``/models/{model}:generateContent``, ``/model/{modelId}/converse``)."""
    target = BY_ID[REAL_SOURCES[wire]]
    body = load_body(path)
    if target.name in _MODEL_IN_URL:
        return target.codec.decode_request(body, model=_url_model(path))  # type: ignore[call-arg]
    return target.codec.decode_request(body)


_MODEL_IN_URL = {wire for wire, data in CONFORMANCE.items() if data.model_in_url}


def _url_model(path: Path) -> str | None:
    from urllib.parse import unquote

    document: Any = json.loads(path.read_text(encoding="utf-8"))
    where = document.get("path", "") if isinstance(document, Mapping) else ""
    for before, after in (("/models/", ":"), ("/model/", "/")):
        if before in where:
            return unquote(where.split(before, 1)[1].split(after, 1)[0])
    return None


def decode_with(target: Target, body: Mapping[str, Any]) -> Request:
    """``body`` decoded by ``target``'s codec (Gemini and Bedrock told the model, which their URL
    would carry)."""
    if target.name in _MODEL_IN_URL:
        return target.codec.decode_request(body, model=target.model)  # type: ignore[call-arg]
    return target.codec.decode_request(body)


# --- the oracle, for dialects ------------------------------------------------------------------

_DIALECT_MESSAGE_KEYS: dict[str, dict[str, type]] = {
    "deepseek": {"reasoning_content": str},
    "openrouter": {"reasoning": str, "reasoning_details": list},
}
_DIALECT_BODY_KEYS: dict[str, dict[str, type]] = {"openrouter": {"top_k": int}}
_MISTRAL_BLOCKS: dict[str, tuple[set[str], set[str]]] = {  # type -> (required keys, allowed keys)
    "thinking": ({"type", "thinking"}, {"type", "thinking", "closed"}),
    "document_url": ({"type", "document_url"}, {"type", "document_url", "document_name"}),
}


def oracle(target: Target, body: Mapping[str, Any]) -> list[str]:
    """``validate_wire`` of the target's wire. The SDK oracle knows OpenAI's own Chat types only,
    so for a dialect the extensions its docstring names (DeepSeek's ``reasoning_content``,
    OpenRouter's ``reasoning``/``reasoning_details``/``top_k``, Mistral's ``thinking`` and
    ``document_url`` chunks) are checked here for their shape, then left out of the SDK check."""
    from interlingua.testing import validate_wire

    if target.dialect is None:
        found: list[str] = validate_wire(target.name, "request", body)
        return found
    problems: list[str] = []
    view = dict(body)
    for key, kind in _DIALECT_BODY_KEYS.get(target.dialect, {}).items():
        if key in view and not isinstance(view.pop(key), kind):
            problems.append(f"{key}: expected {kind.__name__}")
    messages = []
    for i, message in enumerate(view.get("messages") or []):
        if not isinstance(message, Mapping):
            messages.append(message)
            continue
        message = dict(message)
        for key, kind in _DIALECT_MESSAGE_KEYS.get(target.dialect, {}).items():
            if key in message and not isinstance(message.pop(key), kind):
                problems.append(f"messages[{i}].{key}: expected {kind.__name__}")
        if target.dialect == "mistral" and isinstance(message.get("content"), list):
            message["content"] = _mistral_view(message["content"], f"messages[{i}].content", problems)
        messages.append(message)
    if "messages" in view:
        view["messages"] = messages
    rest: list[str] = validate_wire(target.name, "request", view)
    return problems + rest


def _mistral_view(blocks: list[Any], at: str, problems: list[str]) -> list[Any]:
    kept = []
    for j, block in enumerate(blocks):
        spec = _MISTRAL_BLOCKS.get(str(block.get("type"))) if isinstance(block, Mapping) else None
        if spec is None:
            kept.append(block)
            continue
        required, allowed = spec
        problems += [f"{at}[{j}].{k}: missing" for k in sorted(required - block.keys())]
        problems += [f"{at}[{j}].{k}: unknown key (not in Mistral's chunk)" for k in sorted(block.keys() - allowed)]
    if not kept and blocks:  # an assistant turn of thinking only: the SDK wants some content
        return [{"type": "text", "text": ""}]
    return kept
