"""The openai-chat codec: OpenAI Chat Completions and the servers that speak it, by dialect."""

from ._codec import OpenAIChatCodec
from ._dialect import Dialect, DialectError, dialects, forget_dialect, load_dialects, register_dialect

__all__ = [
    "Dialect",
    "DialectError",
    "OpenAIChatCodec",
    "dialects",
    "forget_dialect",
    "load_dialects",
    "register_dialect",
]
