"""interlingua codec for the Anthropic Messages API: ``get_codec("anthropic-messages")``."""

from ._codec import AnthropicMessagesCodec

__all__ = ["AnthropicMessagesCodec"]
