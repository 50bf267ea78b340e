"""Azure OpenAI: the same Chat Completions and Responses bodies, sent to an Azure resource.

``Endpoint.settings["door"] = "azure"`` picks it. Facts from the openai SDK's own ``AzureOpenAI``
client (``openai/lib/azure.py``) and Azure's REST reference:

- the resource URL comes from ``base_url``, ``settings["azure_endpoint"]`` or ``AZURE_OPENAI_ENDPOINT``
  (``https://{resource}.openai.azure.com``); requests go under its ``/openai`` path;
- Chat Completions is a deployment endpoint: ``/openai/deployments/{deployment}/chat/completions``,
  the deployment from ``settings["azure_deployment"]``, else the request's model (what the SDK
  does); Responses is not: ``/openai/responses``;
- every request carries ``?api-version=`` from ``settings["api_version"]`` or ``OPENAI_API_VERSION``
  (Azure answers 404 without one);
- the key goes in the ``api-key`` header, from ``AZURE_OPENAI_API_KEY``.

The body is the one OpenAI's API takes; nothing in it changes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal
from urllib.parse import quote

from interlingua import Endpoint, HttpRequest, MissingAPIKeyError
from interlingua.kit import url_segment

API_KEY_ENV = ("AZURE_OPENAI_API_KEY",)


def on_azure(settings: Mapping[str, str], codec: str) -> bool:
    door = settings.get("door")
    if door not in (None, "azure"):
        raise ValueError(f"{codec} has no door {door!r}; it has azure")
    return door == "azure"


def http_request(
    body: Mapping[str, Any], *, wire: Literal["chat", "responses"], stream: bool, endpoint: Endpoint, codec: str
) -> HttpRequest:
    settings = endpoint.settings
    resource = endpoint.base_url or settings.get("azure_endpoint") or os.environ.get("AZURE_OPENAI_ENDPOINT")
    version = settings.get("api_version") or os.environ.get("OPENAI_API_VERSION")
    if not resource or not version:
        raise MissingAPIKeyError(
            f"{codec} on Azure: set the resource (base_url, settings['azure_endpoint'] or AZURE_OPENAI_ENDPOINT) "
            "and the API version (settings['api_version'] or OPENAI_API_VERSION)"
        )
    base = f"{resource.rstrip('/')}/openai"
    if wire == "chat":
        deployment = settings.get("azure_deployment") or str(body.get("model") or "")
        if not deployment:
            raise MissingAPIKeyError(f"{codec} on Azure: no deployment (settings['azure_deployment'] or the model)")
        path = f"/deployments/{url_segment(deployment, codec=codec, at='model')}/chat/completions"
    else:
        path = "/responses"
    headers = {"content-type": "application/json"}
    if endpoint.api_key:
        headers["api-key"] = endpoint.api_key
    headers.update(endpoint.headers)
    url = f"{base}{path}?api-version={quote(version, safe='')}"
    return HttpRequest("POST", url, headers, body, stream=stream)
