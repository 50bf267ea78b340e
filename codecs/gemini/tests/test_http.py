"""http_request: the Gemini API URL and key header, and Vertex through Endpoint settings."""

from __future__ import annotations

import pytest

import interlingua as il
from interlingua import Endpoint, Message, Request

CODEC = il.get_codec("gemini")
REQUEST = Request(model="gemini-2.5-flash", messages=[Message.user("hi")])


def test_gemini_api_url_and_key_header() -> None:
    sent = CODEC.http_request(REQUEST, stream=False, endpoint=Endpoint(api_key="k-secret"))
    assert sent.url == "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
    assert sent.headers["x-goog-api-key"] == "k-secret"
    assert sent.json == {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    assert "k-secret" not in repr(sent)


def test_streaming_uses_sse() -> None:
    sent = CODEC.http_request(REQUEST, stream=True, endpoint=Endpoint(api_key="k"))
    assert sent.url.endswith("/models/gemini-2.5-flash:streamGenerateContent?alt=sse") and sent.stream


def test_vertex_project_and_location_with_bearer_token() -> None:
    endpoint = Endpoint(api_key="ya29.token", settings={"vertex_project": "p1", "vertex_location": "europe-west4"})
    sent = CODEC.http_request(REQUEST, stream=False, endpoint=endpoint)
    assert sent.url == (
        "https://europe-west4-aiplatform.googleapis.com/v1/projects/p1/locations/europe-west4"
        "/publishers/google/models/gemini-2.5-flash:generateContent"
    )
    assert sent.headers["authorization"] == "Bearer ya29.token" and "x-goog-api-key" not in sent.headers
    assert "ya29" not in repr(sent)


def test_model_is_required_and_key_envs_are_declared() -> None:
    with pytest.raises(il.EncodeError):
        CODEC.http_request(Request(messages=[Message.user("hi")]), stream=False, endpoint=Endpoint())
    assert CODEC.api_key_env == ("GEMINI_API_KEY", "GOOGLE_API_KEY")
