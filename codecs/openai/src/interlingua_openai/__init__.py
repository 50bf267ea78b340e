"""interlingua codecs for OpenAI: Chat Completions (``openai-chat``) and Responses (``openai-responses``)."""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .chat import OpenAIChatCodec
    from .responses import OpenAIResponsesCodec

# Each wire loads on first use: a program that speaks one of them does not import the other
# (docs/performance.md: start-up).
_LAZY = {"OpenAIChatCodec": ".chat", "OpenAIResponsesCodec": ".responses"}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = ["OpenAIChatCodec", "OpenAIResponsesCodec"]
