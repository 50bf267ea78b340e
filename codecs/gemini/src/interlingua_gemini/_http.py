"""http_request: where a request goes and how it authenticates.

- Gemini API (default): ``{base}/v1beta/models/{model}:generateContent`` (streaming:
  ``:streamGenerateContent?alt=sse``), the key in ``x-goog-api-key``.
- Vertex AI: set ``Endpoint.settings["vertex_project"]`` (and ``"vertex_location"``, default
  ``global``); the URL becomes ``{base}/v1/projects/{project}/locations/{location}/publishers/
  google/models/{model}:...`` and ``api_key`` is an OAuth access token sent as a Bearer token
  (``gcloud auth print-access-token``). ``settings["api_version"]`` overrides ``v1beta`` / ``v1``.
"""

from __future__ import annotations

from interlingua import Encoded, EncodeError, Endpoint, HttpRequest

from ._parts import NAME, bare_model

GEMINI_BASE = "https://generativelanguage.googleapis.com"


def _vertex_base(location: str) -> str:
    return (
        "https://aiplatform.googleapis.com" if location == "global" else f"https://{location}-aiplatform.googleapis.com"
    )


def http_request(encoded: Encoded, model: str | None, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
    if not model:
        raise EncodeError(NAME, "model", "the Gemini URL names the model; Request.model is required")
    method = "streamGenerateContent?alt=sse" if stream else "generateContent"
    settings = endpoint.settings
    headers = {"content-type": "application/json"}
    project = settings.get("vertex_project")
    if project:
        location = settings.get("vertex_location", "global")
        version = settings.get("api_version", "v1")
        base = (endpoint.base_url or _vertex_base(location)).rstrip("/")
        path = f"projects/{project}/locations/{location}/publishers/google/models/{bare_model(model)}"
        if endpoint.api_key:
            headers["authorization"] = f"Bearer {endpoint.api_key}"
    else:
        version = settings.get("api_version", "v1beta")
        base = (endpoint.base_url or GEMINI_BASE).rstrip("/")
        path = model if model.startswith(("models/", "tunedModels/")) else f"models/{model}"
        if endpoint.api_key:
            headers["x-goog-api-key"] = endpoint.api_key
    headers.update(endpoint.headers)
    return HttpRequest(
        method="POST", url=f"{base}/{version}/{path}:{method}", headers=headers, json=encoded.body, stream=stream
    )
