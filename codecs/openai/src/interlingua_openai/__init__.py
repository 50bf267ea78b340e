"""Placeholder until the openai-chat and openai-responses codecs land."""
