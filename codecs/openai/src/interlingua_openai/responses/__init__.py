"""The openai-responses codec: the OpenAI Responses API (``POST /v1/responses``)."""

from ._codec import OpenAIResponsesCodec

__all__ = ["OpenAIResponsesCodec"]
