"""interlingua codec for the Gemini API (generateContent / streamGenerateContent): ``gemini``."""

from ._codec import GeminiCodec

__all__ = ["GeminiCodec"]
