"""A gateway: serve every installed wire's own endpoints from any upstream, on Starlette.

``pip install interlingua[gateway]``; nothing else in interlingua imports this package. See
docs/guide/gateway.md.
"""

from ._app import WARNINGS_HEADER, Gateway, create_app
from ._config import ConfigError, GatewayConfig, Route, load_config
from ._count import COUNT_HEADER
from ._ids import IdStore, MemoryIdStore, SqliteIdStore, ToolIdMap

__all__ = [
    "COUNT_HEADER",
    "WARNINGS_HEADER",
    "ConfigError",
    "Gateway",
    "GatewayConfig",
    "IdStore",
    "MemoryIdStore",
    "Route",
    "SqliteIdStore",
    "ToolIdMap",
    "create_app",
    "load_config",
]
