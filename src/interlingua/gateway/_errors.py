"""The gateway's own error, below every module that raises it (its config and its fallback)."""

from __future__ import annotations


class ConfigError(ValueError):
    """A configuration the gateway cannot run with (named by its key)."""
