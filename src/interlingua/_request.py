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
    name: str
    description: str | None = None
    input_schema: JsonObject = {"type": "object", "properties": {}}
    strict: bool | None = None
    cache_control: CacheControl | None = None

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
    provider: str
    data: JsonObject


AnyTool: TypeAlias = Annotated[Tool | NativeTool, Field(discriminator="type")]


class ToolChoice(IRModel):
    """Force a call of the tool ``name``."""

    name: str


ToolChoiceMode: TypeAlias = Literal["auto", "none", "required"]

ThinkingLevel: TypeAlias = Literal["off", "minimal", "low", "medium", "high", "xhigh"]


class ThinkingConfig(IRModel):
    """How much the model should reason: a level, a token budget, or both.

    Each codec maps level <-> budget with a documented table; ``summary`` asks for reasoning
    summaries where the vendor can give them.
    """

    level: ThinkingLevel | None = None
    budget_tokens: int | None = None
    summary: bool | None = None


class ResponseFormat(IRModel):
    """Plain text, any JSON object, or JSON matching ``json_schema`` (named ``name``)."""

    type: Literal["text", "json_object", "json_schema"]
    name: str | None = None
    description: str | None = None
    json_schema: JsonObject | None = None
    strict: bool | None = None


class Request(Hosted):
    """A request to a model, vendor-neutral.

    ``provider_options[provider]`` holds request fields that have no IR home (a vendor's
    ``metadata``, ``service_tier``, ...); only that provider's codec merges them into its body, and
    ``decode_request`` puts every field it does not map there, so decode -> encode is lossless.
    Every other codec reports each of them as a ``ForeignOption`` (``WarningSink.foreign_options``).
    ``model`` is optional because some wires carry it in the URL, not the body.
    """

    model: str | None = None
    messages: list[Message] = Field(default_factory=empty_list)
    tools: list[AnyTool] = Field(default_factory=empty_list)
    tool_choice: ToolChoiceMode | ToolChoice | None = None
    parallel_tool_calls: bool | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    stop: list[str] | None = None
    seed: int | None = None
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    thinking: ThinkingConfig | None = None
    response_format: ResponseFormat | None = None
    provider_options: dict[str, JsonObject] = Field(default_factory=empty_dict)

    def options(self, provider: str) -> JsonObject:
        """``provider``'s options, empty when there are none."""
        return self.provider_options.get(provider, {})

    def with_messages(self, *messages: Message, **changes: Any) -> Request:
        """A copy with ``messages`` appended (and any other field changed)."""
        changes["messages"] = [*self.messages, *messages]
        return self.model_copy(update=changes)
