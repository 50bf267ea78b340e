"""interlingua codec for Amazon Bedrock's Converse API: ``bedrock-converse``."""

from ._codec import BedrockConverseCodec

__all__ = ["BedrockConverseCodec"]
