"""interlingua codec for Cohere's v2 Chat API (``POST /v2/chat``): ``cohere-chat``."""

from ._codec import CohereChatCodec

__all__ = ["CohereChatCodec"]
