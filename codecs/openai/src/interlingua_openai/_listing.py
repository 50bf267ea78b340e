"""The model list (``GET /v1/models``) and the Responses input-token count, as OpenAI serves them.

Models: ``{"object": "list", "data": [{"id", "object": "model", "created", "owned_by"}]}``
(https://platform.openai.com/docs/api-reference/models/list; the openai SDK's ``types/model.py``),
one page: ``GET {base}/models`` takes no cursor (the SDK's ``models.list`` returns a ``SyncPage``,
which never asks for a next page). The base's default ``read_models`` reads it.
Count: ``POST /v1/responses/input_tokens`` takes the Responses body's input keys and answers
``{"object": "response.input_tokens", "input_tokens": n}``
(https://platform.openai.com/docs/api-reference/responses/input-tokens; the openai SDK's
``types/responses/input_token_count_params.py`` and ``input_token_count_response.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from interlingua import HttpRequest
from interlingua.kit import Counting, ListedModel, ModelList

COUNTED_KEYS = frozenset(
    {
        "conversation",
        "input",
        "instructions",
        "model",
        "parallel_tool_calls",
        "personality",
        "previous_response_id",
        "reasoning",
        "text",
        "tool_choice",
        "tools",
        "truncation",
    }
)
"""The keys of InputTokenCountParams (openai 3.57.0)."""

COUNTING = Counting(
    answer=lambda n: {"object": "response.input_tokens", "input_tokens": n}, path="/v1/responses/input_tokens"
)


def count_request(sent: HttpRequest) -> HttpRequest:
    """The ``/responses`` request ``sent`` as its input-token count."""
    body = {key: value for key, value in sent.json.items() if key in COUNTED_KEYS}
    return replace(sent, url=sent.url.removesuffix("/responses") + "/responses/input_tokens", json=body, stream=False)


def model_page(models: Sequence[ListedModel]) -> dict[str, Any]:
    data = [{"id": model.id, "object": "model", "created": 0, "owned_by": model.owner} for model in models]
    return {"object": "list", "data": data}


MODELS = ModelList("/v1/models", model_page)


def models_request(base: str, headers: Mapping[str, str]) -> HttpRequest:
    """``GET {base}/models``: the model list of the host ``base`` names (a dialect's own)."""
    return HttpRequest("GET", f"{base}/models", dict(headers), {})
