"""Model lists through the gateway: each served wire's ``GET`` list (``Serving.models``), from the
routes and the catalog. A route whose ``match`` is a plain name lists that name; a glob lists the
catalog's models of its upstream's provider that it matches and that no earlier route takes (the
routes are tried in order, as requests are routed)."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .._codec import ListedModel, ModelList
from .._registry import ServedWire, get_codec
from ._app import _Refused
from ._config import GatewayConfig

if TYPE_CHECKING:
    from starlette.requests import Request as HttpIn
    from starlette.responses import Response as HttpOut

    from ._app import Gateway

_GLOB = frozenset("*?[")


def listed_models(config: GatewayConfig) -> list[ListedModel]:
    """Every model the routes serve, each once, under the name a caller asks for."""
    from ..models import all_models, find

    found: dict[str, ListedModel] = {}
    for route in config.routes:
        primary = route.hops()[0]  # a route of several upstreams lists under its first one's catalog
        provider = get_codec(primary.codec).provider
        if _GLOB.isdisjoint(route.match):
            names = [route.match]
        else:
            names = [spec.id for spec in all_models(provider) if fnmatch.fnmatchcase(spec.id, route.match)]
        for name in names:
            if name in found or config.route_for(name) is not route:
                continue
            spec = find(provider, primary.model or name)
            found[name] = ListedModel(
                name,
                provider,
                display_name=None,
                context_window=spec.context_window if spec is not None else None,
                max_output_tokens=spec.max_output_tokens if spec is not None else None,
            )
    return list(found.values())


def list_routes(wires: Sequence[ServedWire]) -> dict[str, list[tuple[ServedWire, ModelList]]]:
    """Each list path with the wires that answer it, the ones that a header claims first."""
    paths: dict[str, list[tuple[ServedWire, ModelList]]] = {}
    for wire in wires:
        listing = wire.serving.models
        if listing is None:
            continue
        for path in (listing.path, *listing.also):
            paths.setdefault(path, []).append((wire, listing))
    for claims in paths.values():
        claims.sort(key=lambda claim: claim[1].header is None)
    return paths


async def answer(gateway: Gateway, claims: Sequence[tuple[ServedWire, ModelList]], http: HttpIn) -> HttpOut:
    from starlette.responses import JSONResponse

    wire, listing = _claimant(claims, http)
    try:
        gateway._check_key(http)
    except _Refused as refused:
        body = wire.serving.error(refused.status, refused.message, None)
        return JSONResponse(body, status_code=refused.status)
    page: dict[str, Any] = listing.page(listed_models(gateway.config))
    return JSONResponse(page)


def _claimant(claims: Sequence[tuple[ServedWire, ModelList]], http: HttpIn) -> tuple[ServedWire, ModelList]:
    for wire, listing in claims:
        if listing.header is None or listing.header in http.headers:
            return wire, listing
    return claims[-1]
