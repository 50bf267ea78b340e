"""Dialects: the small declared differences of servers that speak Chat Completions, as data.

Each dialect is a frozen set of settings, never a copy of the codec. Pick one with
``get_codec("openai-chat", dialect="deepseek")``. The shipped dialects are the ``[[dialect]]``
tables of ``dialects.toml`` beside this module (read on the first lookup, never at import), each
setting that differs from api.openai.com with its source there; users add or override one with
``register_dialect`` (a ``Dialect``, or a mapping shaped like a table, which may ``extends`` a known
dialect) or a whole file with ``load_dialects``. Notes on the first six:

- ``openai``: api.openai.com. ``max_completion_tokens`` (``max_tokens`` is rejected by
  o-series models); responses carry ``annotations: []``; no reasoning text on the wire; tool call
  ids of at most 40 characters (foreign ids are mapped by the core's ``ToolIds``).
- ``deepseek``: reasoning arrives as ``reasoning_content``; DeepSeek's thinking-mode docs require
  it back on assistant turns that called tools (and ignore it elsewhere), so it is always sent.
- ``vllm``: ``reasoning`` (``reasoning_content`` like DeepSeek until vLLM renamed it; an older
  server's spelling is read too and a message goes back as it came); accepts ``top_k``; a local
  server, no key needed.
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

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Final, Literal

from interlingua import EncodeError, RedactedThinking, Thinking
from interlingua.kit import ToolIds as ToolIds  # re-exported: the chat modules type their context with it
from interlingua.kit import unsigned_or_own_thinking

if TYPE_CHECKING:
    from pathlib import Path

ReasoningWire = Literal["none", "field", "mistral_blocks"]
Auth = Literal["bearer", "api-key"]
StreamQuirk = Literal["tool-index-repeats"]
DATA_FILE: Final = "dialects.toml"


@dataclass(frozen=True)
class Dialect:
    """What one server does differently from api.openai.com (``dialects.toml`` says what each key
    means); ``sources``: where each setting that differs is written down, by key."""

    name: str
    provider: str
    base_url: str
    api_key_env: tuple[str, ...]
    auth: Auth = "bearer"
    reasoning: ReasoningWire = "none"
    reasoning_field: str | None = None  # the assistant message key holding reasoning text
    reasoning_also: tuple[str, ...] = ()  # other keys the host sends it under (read; sent back as spelled)
    reasoning_details: bool = False  # plain reasoning goes as reasoning_details too (OpenRouter); a host's
    # own details are read and sent back on every dialect (``_messages.decode_reasoning``)
    max_tokens_field: Literal["max_completion_tokens", "max_tokens"] = "max_completion_tokens"
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
    stream_quirks: tuple[StreamQuirk, ...] = ()  # informational: the stream decoder copes with each anywhere
    signed_models: str | None = None  # models refusing a current-turn step whose first call is unsigned
    placeholder_signature: str | None = None  # the host's documented stand-in signature for such a call
    sources: Mapping[str, str] = field(default_factory=dict, hash=False)

    def cite(self, key: str) -> str:
        """Where the setting ``key`` is written down ("" where it is api.openai.com's own)."""
        return self.sources.get(key, "")

    def url_for(self, given: str | None) -> str:
        """The base URL to send to: ``given`` (the endpoint's), else the dialect's own, which must
        then be whole (a ``{resource}`` of the user's deployment cannot be guessed)."""
        base = given or self.base_url
        if "{" in base:
            raise EncodeError(
                "openai-chat", "base_url", f"{self.name} is served at {self.base_url}: give the endpoint's base_url"
            )
        return base.rstrip("/")


class DialectError(ValueError):
    """A dialect entry that cannot be read: an unknown key, a value of the wrong kind."""


_FIELDS: Final = {f.name: f for f in fields(Dialect)}
_TUPLES: Final = ("api_key_env", "reasoning_also", "stream_quirks")
_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "auth": typing.get_args(Auth),
    "reasoning": typing.get_args(ReasoningWire),
    "max_tokens_field": ("max_completion_tokens", "max_tokens"),
}


def parse_dialect(entry: Mapping[str, Any], where: str, base: Dialect | None = None) -> Dialect:
    """One ``[[dialect]]`` table (or a mapping shaped like one) as a Dialect; ``base``: the dialect
    it ``extends``, whose settings (and sources) it starts from."""
    values = {k: v for k, v in entry.items() if k != "extends"}
    unknown = sorted(set(values) - set(_FIELDS))
    if unknown:
        raise DialectError(f"{where}: unknown keys {unknown}; known: {sorted(_FIELDS)}")
    for key in _TUPLES:
        if key in values:
            values[key] = tuple(values[key])
    for key, allowed in _CHOICES.items():
        if key in values and values[key] not in allowed:
            raise DialectError(f"{where}: {key} is {values[key]!r}; one of {list(allowed)}")
    if values.get("reasoning") == "field" and not values.get("reasoning_field", base and base.reasoning_field):
        raise DialectError(f"{where}: reasoning 'field' names its reasoning_field")
    if values.get("signed_models") is not None and not values.get(
        "placeholder_signature", base and base.placeholder_signature
    ):
        raise DialectError(f"{where}: signed_models names its placeholder_signature")
    for quirk in values.get("stream_quirks", ()):
        if quirk not in typing.get_args(StreamQuirk):
            raise DialectError(f"{where}: unknown stream quirk {quirk!r}")
    if base is not None:
        values["sources"] = {**base.sources, **values.get("sources", {})}
        return replace(base, **values)
    missing = [key for key in ("name", "provider", "base_url", "api_key_env") if key not in values]
    if missing:
        raise DialectError(f"{where}: {', '.join(missing)} missing (or extends a known dialect)")
    return Dialect(**values)


_SHIPPED: dict[str, Dialect] = {}
_ADDED: dict[str, Dialect] = {}


def _shipped() -> dict[str, Dialect]:
    if not _SHIPPED:
        from importlib import resources

        text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
        for dialect in _parse_file(text, f"{__package__}/{DATA_FILE}"):
            _SHIPPED[dialect.name] = dialect
    return _SHIPPED


def _parse_file(text: str, where: str) -> list[Dialect]:
    import tomllib

    tables = tomllib.loads(text).get("dialect", [])
    known = {**_SHIPPED, **_ADDED}
    found = []
    for i, entry in enumerate(tables):
        extends = entry.get("extends")
        base = known.get(extends) if isinstance(extends, str) else None
        if extends is not None and base is None:
            raise DialectError(f"{where} [[dialect]] {i}: extends {extends!r}, which is not a known dialect")
        dialect = parse_dialect(entry, f"{where} [[dialect]] {i} ({entry.get('name')!r})", base)
        known[dialect.name] = dialect
        found.append(dialect)
    return found


def dialects() -> dict[str, Dialect]:
    """Every dialect by name: the shipped ones, then the user's (replacing a shipped one by name)."""
    return {**_shipped(), **_ADDED}


def register_dialect(entry: Dialect | Mapping[str, Any]) -> Dialect:
    """Add (or override) one dialect: a Dialect, or a mapping shaped like a ``[[dialect]]`` table
    (``extends`` names a known dialect to start from). Codecs built after this see it."""
    if isinstance(entry, Dialect):
        dialect = entry
    else:
        extends = entry.get("extends")
        base = dialects().get(extends) if isinstance(extends, str) else None
        if extends is not None and base is None:
            raise DialectError(f"register_dialect: extends {extends!r}, which is not a known dialect")
        dialect = parse_dialect(entry, f"register_dialect({entry.get('name')!r})", base)
    _ADDED[dialect.name] = dialect
    return dialect


def load_dialects(path: str | Path) -> list[Dialect]:
    """Add (or override) the dialects of a file of ``dialects.toml``'s format; returns them."""
    from pathlib import Path

    source = Path(path)
    found = _parse_file(source.read_text(encoding="utf-8"), str(source))
    _ADDED.update((dialect.name, dialect) for dialect in found)
    return found


def forget_dialect(name: str) -> None:
    """Remove a dialect added at runtime (a shipped one it replaced is back)."""
    _ADDED.pop(name, None)


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
    known = dialects()
    try:
        return known[name]
    except KeyError:
        raise ValueError(f"unknown openai-chat dialect {name!r}; known: {', '.join(known)}") from None
