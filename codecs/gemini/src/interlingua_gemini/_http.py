"""http_request: where a request goes and how it authenticates.

- Gemini API (default): ``{base}/v1beta/models/{model}:generateContent`` (streaming:
  ``:streamGenerateContent?alt=sse``), the key in ``x-goog-api-key``.
- Vertex AI: set ``Endpoint.settings["vertex_project"]`` (and ``"vertex_location"``, default
  ``global``); the URL becomes ``{base}/v1/projects/{project}/locations/{location}/publishers/
  google/models/{model}:...`` and ``api_key`` is an OAuth access token sent as a Bearer token
  (``gcloud auth print-access-token``); without one, google-auth's application default
  credentials give it. ``settings["api_version"]`` overrides ``v1beta`` / ``v1``.
  ``settings["door"] = "vertex"`` says the same as setting ``vertex_project``.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from interlingua import Encoded, EncodeError, Endpoint, HttpRequest, MissingAPIKeyError
from interlingua.kit import gcp_token, host_label, url_segment, versioned_base

from ._parts import NAME, bare_model

GEMINI_BASE = "https://generativelanguage.googleapis.com"


def _vertex_base(location: str) -> str:
    if location == "global":
        return "https://aiplatform.googleapis.com"
    return f"https://{host_label(location, codec=NAME, at='settings.vertex_location')}-aiplatform.googleapis.com"


_GEMINI_VERSIONS = ("v1beta", "v1", "v1alpha")
"""The Gemini API's versions (google-genai's ``HttpOptions.api_version``, its _api_client.py), the
codec's default first."""
_VERTEX_VERSIONS = ("v1", "v1beta1")
"""Vertex AI's, the default first."""


def _base(given: str | None, default: str, asked: str | None, versions: tuple[str, ...]) -> tuple[str, str | None]:
    """The base URL and the version: a base URL ending in one of ``versions`` names the version
    (google-genai takes them apart, ``base_url`` and ``api_version``; either way is taken here)
    unless ``settings["api_version"]`` names another, which is refused."""
    if asked is not None:
        return versioned_base(given, default, codec=NAME, version=asked)
    return versioned_base(given, default, codec=NAME, version=versions[0], also=versions[1:])


def on_vertex(settings: Mapping[str, str]) -> bool:
    door = settings.get("door")
    if door not in (None, "vertex"):
        raise ValueError(f"{NAME} has no door {door!r}; it has vertex")
    return door == "vertex" or bool(settings.get("vertex_project"))


def host(settings: Mapping[str, str]) -> str:
    """The host a request goes through: ``vertex`` (Vertex AI) or ``gemini-api`` (the Gemini API),
    the names the catalog's ``[hosts]`` and ``ProviderEcho.host`` use."""
    return "vertex" if on_vertex(settings) else "gemini-api"


def key_env(settings: Mapping[str, str]) -> tuple[str, ...] | None:
    """The Gemini API's key variables; None on Vertex AI, which takes Google credentials."""
    return None if on_vertex(settings) else ("GEMINI_API_KEY", "GOOGLE_API_KEY")


def models_request(endpoint: Endpoint, page: str | None) -> HttpRequest:
    """``GET {base}/{version}/models``, 1000 a page (``pageSize``), after ``page`` (``pageToken``:
    the answer's ``nextPageToken``; https://ai.google.dev/api/models#method:-models.list)."""
    base, version = _base(endpoint.base_url, GEMINI_BASE, endpoint.settings.get("api_version"), _GEMINI_VERSIONS)
    headers = {"x-goog-api-key": endpoint.api_key} if endpoint.api_key else {}
    headers.update(endpoint.headers)
    version = url_segment(version or "", codec=NAME, at="settings.api_version")
    url = f"{base}/{version}/models?pageSize=1000"
    if page is not None:
        url += f"&pageToken={quote(page, safe='')}"
    return HttpRequest("GET", url, headers, {})


def http_request(encoded: Encoded, model: str | None, *, stream: bool, endpoint: Endpoint) -> HttpRequest:
    if not model:
        raise EncodeError(NAME, "model", "the Gemini URL names the model; Request.model is required")
    method = "streamGenerateContent?alt=sse" if stream else "generateContent"
    settings = endpoint.settings
    headers = {"content-type": "application/json"}
    if on_vertex(settings):
        project = settings.get("vertex_project")
        if not project:
            raise MissingAPIKeyError(f"{NAME} on Vertex AI: set settings['vertex_project']")
        location = settings.get("vertex_location", "global")
        base, version = _base(endpoint.base_url, _vertex_base(location), settings.get("api_version"), _VERTEX_VERSIONS)
        names = (
            url_segment(project, codec=NAME, at="settings.vertex_project"),
            url_segment(location, codec=NAME, at="settings.vertex_location"),
            url_segment(bare_model(model) or "", codec=NAME, at="model"),
        )
        path = "projects/{}/locations/{}/publishers/google/models/{}".format(*names)
        headers["authorization"] = f"Bearer {endpoint.api_key or gcp_token(who=NAME)}"
    else:
        base, version = _base(endpoint.base_url, GEMINI_BASE, settings.get("api_version"), _GEMINI_VERSIONS)
        collection, _, name = model.partition("/") if model.startswith(("models/", "tunedModels/")) else ("", "", model)
        path = f"{collection or 'models'}/{url_segment(name, codec=NAME, at='model')}"
        if endpoint.api_key:
            headers["x-goog-api-key"] = endpoint.api_key
    headers.update(endpoint.headers)
    version = url_segment(version or "", codec=NAME, at="settings.api_version")
    url = f"{base}/{version}/{path}:{method}"
    return HttpRequest("POST", url, headers, encoded.body, stream=stream, host=host(settings))
