"""The gateway talks to upstreams only through the transport's public API (issue 38): a client
attribute it reads is never one of the transport's private ones, so the transport can change
inside without the gateway noticing, and a user's own gateway can do all that ours does."""

from __future__ import annotations

import ast
from pathlib import Path

import interlingua as il

GATEWAY = Path(il.__file__).parent / "gateway"


def test_no_private_member_of_a_client_is_read_by_the_gateway() -> None:
    private = []
    for path in sorted(GATEWAY.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "client"
                and node.attr.startswith("_")
            ):
                private.append(f"{path.name}:{node.lineno} client.{node.attr}")
    assert private == []
