"""interlingua codecs for OpenAI: Chat Completions (``openai-chat``) and Responses (``openai-responses``)."""

from .chat import OpenAIChatCodec
from .responses import OpenAIResponsesCodec

__all__ = ["OpenAIChatCodec", "OpenAIResponsesCodec"]
