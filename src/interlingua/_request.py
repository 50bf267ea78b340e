"""The request: messages plus the settings every vendor shares, and a place for the rest."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

from pydantic import Field

from ._message import Message
from ._model import Hosted, IRModel, JsonObject, _Tagged, empty_dict, empty_list
from ._parts import CacheControl


class Tool(_Tagged):
    """A function the model may call; ``input_schema`` is a JSON Schema object."""

    type: Literal["function"] = "function"
    """The tool's tag in IR JSON."""
    name: str
    """The name the model calls it by."""
    description: str | None = None
    """What the tool does, for the model."""
    input_schema: JsonObject = {"type": "object", "properties": {}}
    """The arguments' JSON Schema (an object schema)."""
    strict: bool | None = None
    """Ask the vendor to hold the arguments to the schema exactly; None: the vendor's default."""
    cache_control: CacheControl | None = None
    """A cache breakpoint: the prompt up to and including this tool is cached."""

    @classmethod
    def from_mcp(cls, tool: Any) -> Tool:
        """An MCP server's tool (``mcp.types.Tool`` or its JSON) as the IR's (see ``interlingua._mcp``)."""
        from ._mcp import tool_from_mcp

        return tool_from_mcp(tool)

    def to_mcp(self) -> Any:
        """This tool as an ``mcp.types.Tool`` (needs the ``mcp`` extra)."""
        from ._mcp import tool_to_mcp

        return tool_to_mcp(self)


class NativeTool(_Tagged):
    """A vendor's own tool (web search, code execution, ...), carried verbatim for that vendor."""

    type: Literal["native"] = "native"
    """The tool's tag in IR JSON."""
    provider: str
    """The provider whose tool it is; only its codec sends it."""
    data: JsonObject
    """The vendor's tool definition, verbatim."""


AnyTool: TypeAlias = Annotated[Tool | NativeTool, Field(discriminator="type")]


class ToolChoice(IRModel):
    """Force a call of the tool ``name``."""

    name: str
    """The tool the model must call."""


ToolChoiceMode: TypeAlias = Literal["auto", "none", "required"]

ThinkingLevel: TypeAlias = Literal["off", "minimal", "low", "medium", "high", "xhigh"]


class ThinkingConfig(IRModel):
    """How much the model should reason: a level, a token budget, or both.

    Each codec maps level <-> budget with a documented table; ``summary`` asks for reasoning
    summaries where the vendor can give them.
    """

    level: ThinkingLevel | None = None
    """A reasoning effort; None: from ``budget_tokens`` or the vendor's default."""
    budget_tokens: int | None = None
    """A reasoning budget in tokens; None: from ``level`` or the vendor's default."""
    summary: bool | None = None
    """Ask for reasoning summaries where the vendor gives them."""


class ResponseFormat(IRModel):
    """Plain text, any JSON object, or JSON matching ``json_schema`` (named ``name``)."""

    type: Literal["text", "json_object", "json_schema"]
    """Plain text, any JSON object, or JSON matching ``json_schema``."""
    name: str | None = None
    """The schema's name (some vendors require one)."""
    description: str | None = None
    """What the answer is, for the model."""
    json_schema: JsonObject | None = None
    """The JSON Schema the answer must match (``json_schema`` only)."""
    strict: bool | None = None
    """Ask the vendor to hold the answer to the schema exactly; None: the vendor's default."""


class Request(Hosted):
    """A request to a model, vendor-neutral.

    ``provider_options[provider]`` holds request fields that have no IR home (a vendor's
    ``metadata``, ``service_tier``, ...); only that provider's codec merges them into its body, and
    ``decode_request`` puts every field it does not map there, so decode -> encode is lossless.
    Every other codec reports each of them as a ``ForeignOption`` (``WarningSink.foreign_options``),
    but for what loses nothing: a ``_`` key (a codec's private record of how its wire spelled what
    the IR holds), a null, and ``stream`` with its ``stream_options``.
    ``model`` is optional because some wires carry it in the URL, not the body.
    """

    model: str | None = None
    """The vendor's model name, as the vendor spells it; None where the wire puts it in the URL."""
    messages: list[Message] = Field(default_factory=empty_list)
    """The conversation so far, in order; the system prompt is a ``system`` message in it."""
    tools: list[AnyTool] = Field(default_factory=empty_list)
    """Function tools (``Tool``) and vendors' built-in tools (``NativeTool``) the model may call."""
    tool_choice: ToolChoiceMode | ToolChoice | None = None
    """``"auto"``, ``"none"``, ``"required"``, or one tool by name (``ToolChoice``); None: the vendor's default."""
    parallel_tool_calls: bool | None = None
    """Whether the model may call several tools in one turn; None: the vendor's default."""
    max_tokens: int | None = None
    """The most tokens to generate (reasoning included where the vendor counts it so)."""
    temperature: float | None = None
    """Sampling temperature, on the vendor's own scale."""
    top_p: float | None = None
    """Nucleus sampling: the probability mass to sample from."""
    top_k: int | None = None
    """Sample from the ``top_k`` most likely tokens only (a wire without it warns)."""
    stop: list[str] | None = None
    """Sequences that end the answer when generated."""
    seed: int | None = None
    """A seed for reproducible sampling, where the vendor takes one."""
    presence_penalty: float | None = None
    """Penalty for tokens already present, on the vendor's scale."""
    frequency_penalty: float | None = None
    """Penalty growing with how often a token has appeared, on the vendor's scale."""
    thinking: ThinkingConfig | None = None
    """How much the model should reason (a level, a budget or both); None: the vendor's default."""
    response_format: ResponseFormat | None = None
    """Plain text, any JSON object, or JSON matching a schema."""
    provider_options: dict[str, JsonObject] = Field(default_factory=empty_dict)
    """Request fields with no IR home, by provider (``{"acme": {"service_tier": "flex"}}``): only
    that provider's codec sends them; any other reports each as a ``ForeignOption``."""

    def options(self, provider: str) -> JsonObject:
        """``provider``'s options, empty when there are none."""
        return self.provider_options.get(provider, {})

    def with_messages(self, *messages: Message, **changes: Any) -> Request:
        """A copy with ``messages`` appended (and any other field changed)."""
        changes["messages"] = [*self.messages, *messages]
        return self.model_copy(update=changes)
