"""The conformance corpus and targets: every transcript of ``fixtures/transcripts/``, every
recorded request of ``shared/fixtures/real``, and every codec (with the openai-chat dialects
that change what a body may hold) they are encoded for."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import interlingua as il
from interlingua import Codec, Request, Transcript
from interlingua.kit import RuleTable, TurnRules
from interlingua.testing import load_body, real_fixtures

TRANSCRIPTS_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"
TRANSCRIPTS = sorted(TRANSCRIPTS_DIR.glob("*.json"))
REQUEST_KEY = "test.request"


@dataclass(frozen=True)
class Target:
    """A codec to encode for, and the model a request to it addresses.

    The models match the ``model`` recorded on the corpus's own echoes (claude-sonnet-4-5,
    gpt-5, gemini-3-pro-preview), so a vendor's reasoning is replayed to the model that made it;
    Bedrock's and Cohere's are models their recorded traffic addresses (a Claude on Bedrock,
    Cohere's reasoning Command A).
    """

    id: str
    name: str
    dialect: str | None
    model: str

    @property
    def codec(self) -> Codec:
        return _codec(self.name, self.dialect)


@cache
def _codec(name: str, dialect: str | None) -> Codec:
    return il.get_codec(name, dialect=dialect) if dialect else il.get_codec(name)


TARGETS = [
    Target("openai-chat", "openai-chat", None, "gpt-4.1"),
    Target("openai-responses", "openai-responses", None, "gpt-5"),
    Target("anthropic-messages", "anthropic-messages", None, "claude-sonnet-4-5"),
    Target("gemini", "gemini", None, "gemini-3-pro-preview"),
    Target("deepseek", "openai-chat", "deepseek", "deepseek-reasoner"),
    Target("mistral", "openai-chat", "mistral", "magistral-medium-latest"),
    Target("openrouter", "openai-chat", "openrouter", "anthropic/claude-sonnet-4.5"),
    Target("bedrock-converse", "bedrock-converse", None, "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    Target("cohere-chat", "cohere-chat", None, "command-a-reasoning-08-2025"),
]
TARGET_IDS = [t.id for t in TARGETS]


def rule_table(target: Target) -> RuleTable:
    """The rule table of the target's host, for ``check_rules`` (a dialect keeps its own id rule)."""
    rules = getattr(target.codec, "rules", None)  # not in the Codec protocol; every codec here has them
    assert isinstance(rules, TurnRules)
    return rules.table
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

LINGUA_WIRES = {  # lingua corpus provider folder -> wire
    "anthropic": "anthropic-messages",
    "chat-completions": "openai-chat",
    "responses": "openai-responses",
    "google": "gemini",
    # Anthropic Messages through a cloud: the body has no model and carries ``anthropic_version``
    # (kept in provider_options), and it decodes, round-trips and streams as Anthropic's own.
    "bedrock-anthropic": "anthropic-messages",
    "vertex-anthropic": "anthropic-messages",
}


REAL_SOURCES = {  # recorded wire folder -> the target that decodes it
    "anthropic-messages": "anthropic-messages",
    "openai-chat": "openai-chat",
    "openai-responses": "openai-responses",
    "gemini": "gemini",
    "mistral": "mistral",
    "bedrock-converse": "bedrock-converse",
    "cohere": "cohere-chat",
}


REAL_FOLDER = {wire: folder for folder, wire in REAL_SOURCES.items() if folder != wire}
"""A wire whose recorded traffic sits in a folder of another name (``cohere`` for cohere-chat)."""


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
    source = BY_ID[REAL_SOURCES[wire]].codec
    body = load_body(path)
    if wire in _MODEL_IN_URL:
        return source.decode_request(body, model=_url_model(path))  # type: ignore[call-arg]
    return source.decode_request(body)


_MODEL_IN_URL = {"gemini", "bedrock-converse"}


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
