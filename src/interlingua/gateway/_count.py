"""Token counts through the gateway: each served wire's count endpoint (``Serving.count``), for
any upstream. The caller's count body is decoded with the caller's codec, routed by its model as
a generation would be, and counted by the upstream's own endpoint (``AsyncClient.count_tokens``)
where its wire has one; otherwise estimated from the IR, and the answer says so in
:data:`COUNT_HEADER`."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

from .._codec import Counting
from .._count import TokenCount
from .._errors import DecodeError, EncodeError
from .._registry import ServedWire, get_codec
from ._app import _logged_path, _Refused, json_object

if TYPE_CHECKING:
    from starlette.requests import Request as HttpIn
    from starlette.responses import Response as HttpOut

    from ._app import Gateway

COUNT_HEADER = "x-interlingua-token-count"
"""``estimated``: the upstream's wire has no count endpoint, so the count is the gateway's own
estimate (:func:`interlingua.estimate_tokens`); absent, the upstream counted."""


def asks_count(counting: Counting | None, http: HttpIn) -> bool:
    """Whether a request on a model-in-path route (``models/M:countTokens``) asks for a count."""
    if counting is None or counting.method is None:
        return False
    return str(http.path_params.get("target", "")).endswith(":" + counting.method)


async def count(gateway: Gateway, wire: ServedWire, http: HttpIn) -> HttpOut:
    from starlette.responses import JSONResponse

    started = time.perf_counter()
    counting = wire.serving.counting
    assert counting is not None
    facts: dict[str, Any] = {"route": _logged_path(http), "model": None, "tokens": None}
    try:
        gateway._check_key(http)
        body = await _count_body(gateway, http, counting)
        caller = get_codec(wire.codec)
        try:
            request = caller.decode_request(body)
        except DecodeError as exc:
            raise _Refused(400, f"{exc.path}: {exc.reason}") from None
        except ValueError as exc:
            raise _Refused(400, f"the request does not fit its wire: {str(exc).splitlines()[0]}") from None
        if counting.method is not None:  # the model is in the path
            model = str(http.path_params["target"]).rpartition(":")[0].removeprefix("models/")
            request = request.model_copy(update={"model": model})
        facts["model"] = request.model
        route = gateway.config.route_for(request.model or "")
        if route is None:
            raise _Refused(404, f"model: {request.model} is not served by this gateway")
        primary = route.hops()[0]  # a count asks the first upstream; a count is no answer to fall back for
        facts["upstream"] = primary.label
        request = gateway.ids.inward_request(request)
        if primary.model is not None:
            request = request.model_copy(update={"model": primary.model})
        client = gateway._client(route, 0)
        try:
            counted = cast(TokenCount, await gateway._until_disconnect(http, client.count_tokens(request)))
        except EncodeError as exc:
            raise _Refused(400, f"{exc.path}: {exc.reason}") from None
    except _Refused as refused:
        return gateway._refuse(wire, refused, facts, started)
    except Exception as exc:
        return gateway._refuse(wire, gateway._fault(exc), facts, started)
    facts["tokens"] = f"{'~' if counted.estimated else ''}{counted.input_tokens}/-"  # input only; ~ estimated
    gateway._log(facts, [], started, 200)
    headers = {COUNT_HEADER: "estimated"} if counted.estimated else {}
    return JSONResponse(counting.answer(counted.input_tokens), headers=headers)


async def _count_body(gateway: Gateway, http: HttpIn, counting: Counting) -> Any:
    body = json_object(await gateway._body(http))
    return counting.request(body) if counting.request is not None else body
