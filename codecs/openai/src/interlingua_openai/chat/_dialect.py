"""Dialects: the small declared differences of servers that speak Chat Completions.

Each dialect is a frozen set of settings, never a copy of the codec. Pick one with
``get_codec("openai-chat", dialect="deepseek")``. Facts behind each setting:

- ``openai``: api.openai.com. ``max_completion_tokens`` (``max_tokens`` is rejected by
  o-series models); responses carry ``annotations: []``; no reasoning text on the wire; tool call
  ids of at most 40 characters (foreign ids are mapped by the core's ``ToolIds``).
- ``deepseek``: reasoning arrives as ``reasoning_content``; DeepSeek's thinking-mode docs require
  it back on assistant turns that called tools (and ignore it elsewhere), so it is always sent.
- ``vllm``: ``reasoning_content`` like DeepSeek; accepts ``top_k``; a local server, no key needed.
- ``openrouter``: ``reasoning`` (text) and ``reasoning_details`` (text, summary and encrypted
  blocks with signatures), which must come back unchanged; accepts ``top_k``; tool call ids as
  they are (it hands out ids over 40 characters itself and takes them back).

Id rules are the host's: a dialect without ``tool_id_pattern`` takes every id as it is; each one
with a pattern has its source in ``_rules.py``.
- ``mistral``: thinking as ``{"type": "thinking"}`` content blocks; PDFs as ``document_url``;
  tool call ids of exactly 9 letters and digits (foreign ids are mapped by the core's ``ToolIds``);
  no ``developer`` role; ``max_tokens``; no ``stream_options``; ``tool_choice: "any"`` is
  ``required`` (its API spec, ToolChoiceEnum: "`any` or `required` means the model must call one
  or more tools"), decoded so and sent back as the body spelled it; a tool without ``type`` is a
  function tool (its FunctionTool's ``type`` is optional, default ``function``), sent back without.
- ``ollama``: Ollama's ``/v1``: reasoning as ``reasoning``; ``max_tokens``; no key, localhost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from interlingua import RedactedThinking, Thinking
from interlingua.kit import ToolIds as ToolIds  # re-exported: the chat modules type their context with it
from interlingua.kit import unsigned_or_own_thinking

from .._shared import API_KEY_ENV, DEFAULT_BASE_URL, PROVIDER, TOOL_NAMES

ReasoningWire = Literal["none", "field", "mistral_blocks"]


@dataclass(frozen=True)
class Dialect:
    """What one server does differently from api.openai.com."""

    name: str
    provider: str
    base_url: str
    api_key_env: tuple[str, ...]
    reasoning: ReasoningWire = "none"
    reasoning_field: str | None = None  # the assistant message key holding reasoning text
    reasoning_details: bool = False  # plain reasoning goes as reasoning_details too (OpenRouter); a host's
    # own details are read and sent back on every dialect (``_messages.decode_reasoning``)
    max_tokens_field: str = "max_completion_tokens"
    developer_role: bool = True
    top_k: bool = False
    document_url: bool = False  # Mistral: documents as document_url chunks
    annotations: bool = True  # responses always carry annotations: []
    stream_usage_option: bool = True  # stream_options.include_usage is accepted
    tool_id_pattern: str | None = None  # the host's id rule (``_rules``, with its source); None: any id
    tool_id_length: int = 40  # length of a mapped id
    tool_id_alphabet: str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    tool_id_prefix: str = "call_"
    tool_names: str | None = None  # the pattern function names must match, where the server has one
    choice_any: bool = False  # tool_choice "any" is "required" (Mistral's spelling)
    typeless_tools: bool = False  # a tool without ``type`` is a function tool (Mistral's default)


DIALECTS: dict[str, Dialect] = {
    "openai": Dialect(
        "openai", PROVIDER, DEFAULT_BASE_URL, API_KEY_ENV, tool_id_pattern=r"[^\n]{0,40}", tool_names=TOOL_NAMES
    ),
    "deepseek": Dialect(
        "deepseek",
        "deepseek",
        "https://api.deepseek.com",
        ("DEEPSEEK_API_KEY",),
        reasoning="field",
        reasoning_field="reasoning_content",
        max_tokens_field="max_tokens",
        developer_role=False,
        annotations=False,
    ),
    "vllm": Dialect(
        "vllm",
        "vllm",
        "http://localhost:8000/v1",
        ("VLLM_API_KEY",),
        reasoning="field",
        reasoning_field="reasoning_content",
        max_tokens_field="max_tokens",
        top_k=True,
        annotations=False,
    ),
    "openrouter": Dialect(
        "openrouter",
        "openrouter",
        "https://openrouter.ai/api/v1",
        ("OPENROUTER_API_KEY",),
        reasoning="field",
        reasoning_field="reasoning",
        reasoning_details=True,
        max_tokens_field="max_tokens",
        top_k=True,
        annotations=False,
        stream_usage_option=False,
    ),
    "mistral": Dialect(
        "mistral",
        "mistral",
        "https://api.mistral.ai/v1",
        ("MISTRAL_API_KEY",),
        reasoning="mistral_blocks",
        max_tokens_field="max_tokens",
        developer_role=False,
        document_url=True,
        annotations=False,
        stream_usage_option=False,
        tool_id_pattern=r"[a-zA-Z0-9]{9}",
        tool_id_length=9,
        tool_id_prefix="",
        choice_any=True,
        typeless_tools=True,
    ),
    "ollama": Dialect(
        "ollama",
        "ollama",
        "http://localhost:11434/v1",
        (),
        reasoning="field",
        reasoning_field="reasoning",
        max_tokens_field="max_tokens",
        annotations=False,
    ),
}


def tool_ids(dialect: Dialect) -> ToolIds:
    """The dialect's id rule as the core's deterministic, reversible id mapping; a host with no
    id rule takes every id as it is (the mapping never rewrites one)."""
    return ToolIds(
        r"[\s\S]*" if dialect.tool_id_pattern is None else dialect.tool_id_pattern,
        length=dialect.tool_id_length,
        prefix=dialect.tool_id_prefix,
        alphabet=dialect.tool_id_alphabet,
    )


class detailed_thinking:  # used like a function, as the kit's tests are
    """Reasoning this host sent as ``reasoning_details`` (the part's echo holds its ``_detail``),
    which goes back to it on every dialect. A class, not a closure, so codecs holding it pickle."""

    __slots__ = ("provider",)

    def __init__(self, provider: str) -> None:
        self.provider = provider

    def __call__(self, part: Thinking | RedactedThinking) -> bool:
        return any(echo.provider == self.provider and "_detail" in echo.data for echo in part.provider_echoes)


def thinking_test(dialect: Dialect) -> Callable[[Thinking | RedactedThinking], bool]:
    """Which reasoning the server takes back: on OpenAI's wire (no reasoning field) only the
    ``reasoning_details`` a host on it sent (Snowflake Cortex); elsewhere plain reasoning text, or
    what this server itself signed."""
    if dialect.reasoning == "none":
        return detailed_thinking(dialect.provider)
    return unsigned_or_own_thinking(dialect.provider)


def dialect_named(name: str) -> Dialect:
    try:
        return DIALECTS[name]
    except KeyError:
        raise ValueError(f"unknown openai-chat dialect {name!r}; known: {', '.join(DIALECTS)}") from None
