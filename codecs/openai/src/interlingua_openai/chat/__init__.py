"""The openai-chat codec: OpenAI Chat Completions and the servers that speak it, by dialect."""

from ._codec import OpenAIChatCodec

__all__ = ["OpenAIChatCodec"]
