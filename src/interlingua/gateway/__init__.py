"""A gateway: serve every installed wire's own endpoints from any upstream, on Starlette.

``pip install interlingua[gateway]``; nothing else in interlingua imports this package. See
docs/guide/gateway.md.
"""

from ._app import WARNINGS_HEADER, Gateway, create_app
from ._config import GatewayConfig, Route, load_config
from ._count import COUNT_HEADER
from ._errors import ConfigError
from ._fallback import HOPS_HEADER, UPSTREAM_HEADER, Upstream
from ._ids import IdStore, MemoryIdStore, SqliteIdStore, ToolIdMap
from ._state import Cooldowns, MemoryCooldowns, SqliteCooldowns, open_state

__all__ = [
    "HOPS_HEADER",
    "UPSTREAM_HEADER",
    "COUNT_HEADER",
    "WARNINGS_HEADER",
    "ConfigError",
    "Cooldowns",
    "Gateway",
    "GatewayConfig",
    "IdStore",
    "MemoryCooldowns",
    "MemoryIdStore",
    "Route",
    "SqliteCooldowns",
    "SqliteIdStore",
    "ToolIdMap",
    "Upstream",
    "create_app",
    "load_config",
    "open_state",
]
