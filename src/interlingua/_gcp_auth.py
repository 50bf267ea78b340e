"""Google Cloud authentication for the codecs whose doors need it (Vertex AI): an OAuth access
token from google-auth's application default credentials.

One module for every codec that reaches Vertex AI, as ``_sigv4`` is for AWS: the credentials
are looked up once per process (``gcloud auth application-default login``, a service account in
``GOOGLE_APPLICATION_CREDENTIALS``, or the metadata server) and refreshed when stale.
google-auth is imported on the first token, never with ``import interlingua``. This module and
``_sigv4`` name their credential libraries' import paths, which the core otherwise never does.
"""

from __future__ import annotations

from typing import Any

from ._errors import MissingAPIKeyError

SCOPES = ("https://www.googleapis.com/auth/cloud-platform",)

_CREDENTIALS: list[Any] = []
"""The application default credentials, once found (a list so tests can empty it)."""


def gcp_token(*, who: str) -> str:
    """A current access token for Vertex AI; ``who`` names the caller in the error raised when
    google-auth is not installed."""
    try:
        import google.auth
        import google.auth.transport.requests
    except ImportError:
        raise MissingAPIKeyError(
            f"{who} on Vertex AI: pass an access token as api_key=, or install google-auth for its credentials"
        ) from None
    if not _CREDENTIALS:
        credentials, _ = google.auth.default(scopes=list(SCOPES))
        _CREDENTIALS.append(credentials)
    credentials = _CREDENTIALS[0]
    if not credentials.valid:
        credentials.refresh(google.auth.transport.requests.Request())
    return str(credentials.token)
