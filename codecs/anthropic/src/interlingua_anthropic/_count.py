"""Token counting and the model list: ``POST /v1/messages/count_tokens`` and ``GET /v1/models``.

Count: the same body as ``POST /v1/messages`` less what only generation reads; the answer is
``{"input_tokens": n}`` (https://docs.anthropic.com/en/api/messages-count-tokens; the anthropic
SDK's ``types/message_count_tokens_params.py`` lists the body's keys and
``types/message_tokens_count.py`` the answer). Models: ``{"data": [ModelInfo], "has_more",
"first_id", "last_id"}`` (https://docs.anthropic.com/en/api/models-list; ``types/model_info.py``),
paged by ``?limit=`` (1 to 1000, default 20) and ``?after_id=`` (``types/model_list_params.py``;
the SDK's ``SyncPage`` asks for the next page after ``last_id`` while ``has_more``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from interlingua import DecodeError, HttpRequest
from interlingua.kit import Counting, ListedModel, ModelList

from ._doors import NAME

COUNTED_KEYS = frozenset(
    {"messages", "model", "cache_control", "output_config", "speed", "system", "thinking", "tool_choice", "tools"}
)
"""The keys of MessageCountTokensParams (anthropic 2.14.0) that sit in the body."""

COUNTING = Counting(answer=lambda n: {"input_tokens": n}, path="/v1/messages/count_tokens")


def count_request(sent: HttpRequest) -> HttpRequest:
    """The ``/v1/messages`` request ``sent`` as its count: the same headers, the counted keys."""
    body = {key: value for key, value in sent.json.items() if key in COUNTED_KEYS}
    url = sent.url.removesuffix("/v1/messages") + "/v1/messages/count_tokens"
    return replace(sent, url=url, json=body, stream=False)


def models_request(root: str, headers: Mapping[str, str], page: str | None) -> HttpRequest:
    """``GET {root}/models``, a page of 1000 (``root``: the versioned base, ``.../v1``), after
    ``page`` (the cursor ``read_models`` gave)."""
    url = f"{root}/models?limit=1000"
    if page is not None:
        url += f"&after_id={quote(page, safe='')}"
    return HttpRequest("GET", url, dict(headers), {})


def read_models(body: Mapping[str, Any]) -> tuple[list[str], str | None]:
    """One page's ids and, while ``has_more``, its ``last_id`` as the next page's cursor."""
    data = body.get("data")
    listed = data if isinstance(data, list) else None
    if listed is None or not all(isinstance(item, Mapping) and isinstance(item.get("id"), str) for item in listed):
        raise DecodeError(NAME, "data", f"the model list has no list of models with ids: {dict(body)!r:.200}")
    last = body.get("last_id")
    return [item["id"] for item in listed], last if body.get("has_more") is True and isinstance(last, str) else None


def model_page(models: Sequence[ListedModel]) -> dict[str, Any]:
    data: list[Mapping[str, Any]] = [
        {
            "type": "model",
            "id": model.id,
            "display_name": model.display_name or model.id,
            "created_at": "1970-01-01T00:00:00Z",  # not known to a gateway; the field is required
            **({"max_input_tokens": model.context_window} if model.context_window else {}),
            **({"max_tokens": model.max_output_tokens} if model.max_output_tokens else {}),
        }
        for model in models
    ]
    first, last = (data[0]["id"], data[-1]["id"]) if data else (None, None)
    return {"data": data, "has_more": False, "first_id": first, "last_id": last}


# The anthropic SDKs send anthropic-version on every call; OpenAI's list shares the path.
MODELS = ModelList("/v1/models", model_page, header="anthropic-version")
