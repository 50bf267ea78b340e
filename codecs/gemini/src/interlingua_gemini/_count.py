"""Token counting and the model list: ``models/{model}:countTokens`` and ``GET /v1beta/models``.

countTokens takes either ``contents`` alone or a whole ``generateContentRequest`` (with its
``model``), never both, and answers ``{"totalTokens": n, ...}``
(https://ai.google.dev/api/tokens#method:-models.counttokens). "A token is equivalent to about
4 characters" (https://ai.google.dev/gemini-api/docs/tokens) is the core's estimate's figure.
The list answers ``{"models": [Model], "nextPageToken"}``
(https://ai.google.dev/api/models#method:-models.list); google-genai reads ``name``,
``displayName``, ``inputTokenLimit``, ``outputTokenLimit`` and ``supportedGenerationMethods``
from each (3.6.1: ``models.py``, ``_Model_from_mldev``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from interlingua import DecodeError, HttpRequest
from interlingua.kit import Counting, ListedModel, ModelList

from ._parts import NAME


def count_body(body: Mapping[str, Any]) -> Mapping[str, Any]:
    """A countTokens body as the generateContent body it counts."""
    inner = body.get("generateContentRequest")
    if isinstance(inner, Mapping):
        return {key: value for key, value in inner.items() if key != "model"}
    return {"contents": body.get("contents", [])}


COUNTING = Counting(answer=lambda n: {"totalTokens": n}, method="countTokens", request=count_body)


def count_request(sent: HttpRequest, model: str) -> HttpRequest:
    """The generateContent request ``sent`` as its count: the body wrapped whole, with its model."""
    head = sent.url.rpartition(":")[0]
    name = model if model.startswith(("models/", "tunedModels/")) else f"models/{model}"
    return replace(
        sent, url=f"{head}:countTokens", json={"generateContentRequest": {"model": name, **sent.json}}, stream=False
    )


def read_count(body: Mapping[str, Any]) -> int:
    count = body.get("totalTokens", 0)  # proto3 JSON leaves a zero out
    if not isinstance(count, int) or isinstance(count, bool):
        raise DecodeError(NAME, "totalTokens", f"the count answer has no token count: {dict(body)!r:.200}")
    return count


def read_models(body: Mapping[str, Any]) -> tuple[list[str], str | None]:
    """One page's model ids (``name`` less its ``models/``) and its ``nextPageToken``."""
    listed = body.get("models", [])  # proto3 JSON leaves an empty list out
    if not isinstance(listed, list) or not all(_named(m) for m in listed):
        raise DecodeError(NAME, "models", f"the model list has no list of models with names: {dict(body)!r:.200}")
    token = body.get("nextPageToken")
    return [m["name"].removeprefix("models/") for m in listed], token if isinstance(token, str) and token else None


def _named(model: Any) -> bool:
    return isinstance(model, Mapping) and isinstance(model.get("name"), str)


def model_page(models: Sequence[ListedModel]) -> dict[str, Any]:
    listed = []
    for model in models:
        entry: dict[str, Any] = {
            "name": f"models/{model.id}",
            "displayName": model.display_name or model.id,
            "supportedGenerationMethods": ["generateContent", "streamGenerateContent", "countTokens"],
        }
        if model.context_window:
            entry["inputTokenLimit"] = model.context_window
        if model.max_output_tokens:
            entry["outputTokenLimit"] = model.max_output_tokens
        listed.append(entry)
    return {"models": listed}


# google-genai sends x-goog-api-client on every call, and calls /v1 by default (as generateContent).
MODELS = ModelList("/v1beta/models", model_page, header="x-goog-api-client", also=("/v1/models",))
