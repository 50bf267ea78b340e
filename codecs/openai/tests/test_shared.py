"""The OpenAI error body decodes into the typed error for its status, on the recorded errors."""

from __future__ import annotations

from typing import Any, NotRequired, Required, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from interlingua import BadRequestError, NotFoundError, ProviderError, RateLimitError
from interlingua.kit import dumps
from interlingua.testing import load_body, real_fixtures
from interlingua_openai._shared import (
    CHAT,
    RESPONSES,
    SHARED_FIELDS,
    SHARED_VALUES,
    bearer_headers,
    decode_openai_error,
)

ERRORS = real_fixtures("openai-chat", "error") + real_fixtures("openai-responses", "error")


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_recorded_errors_keep_message_type_and_body(path: object) -> None:
    import json
    from pathlib import Path

    assert isinstance(path, Path)
    recorded = json.loads(path.read_text())
    error = decode_openai_error("openai-chat", recorded["status"], dumps(recorded["body"]).encode(), {})
    assert error.message == recorded["body"]["error"]["message"]
    assert error.type == recorded["body"]["error"]["type"]
    assert error.raw == recorded["body"]
    assert error.status == recorded["status"]
    assert load_body(path) == recorded["body"]


def test_status_picks_the_subclass_and_headers_give_retry_and_request_id() -> None:
    body = b'{"error": {"message": "slow down", "type": "rate_limit_error"}}'
    error = decode_openai_error("openai-chat", 429, body, {"Retry-After": "3", "x-request-id": "req_1"})
    assert isinstance(error, RateLimitError)
    assert (error.retry_after, error.request_id, error.type) == (3.0, "req_1", "rate_limit_error")
    assert isinstance(decode_openai_error("openai-chat", 400, b"{}", {}), BadRequestError)
    assert isinstance(decode_openai_error("openai-chat", 404, b"{}", {}), NotFoundError)


def test_non_json_and_list_bodies_do_not_crash() -> None:
    error = decode_openai_error("openai-chat", 502, b"<html>bad gateway</html>", {})
    assert isinstance(error, ProviderError) and error.message == "<html>bad gateway</html>" and error.status == 502
    listed = decode_openai_error("openai-chat", 400, b'[{"error": {"message": "m", "code": 400}}]', {})
    assert (listed.message, listed.type) == ("m", "400")


def test_bearer_headers_only_with_a_key() -> None:
    assert bearer_headers(None) == {"content-type": "application/json"}
    assert bearer_headers("sk-x", {"OpenAI-Organization": "o"})["authorization"] == "Bearer sk-x"


def _alike(annotation: Any) -> Any:
    """A params annotation with Required/Optional peeled and TypedDicts compared by their fields."""
    origin = get_origin(annotation)
    if origin in (Required, NotRequired):
        return _alike(get_args(annotation)[0])
    if origin is Union:
        args = [a for a in get_args(annotation) if a is not type(None)]
        return _alike(args[0]) if len(args) == 1 else frozenset(_alike(a) for a in args)
    if is_typeddict(annotation):
        return tuple(sorted((k, _alike(v)) for k, v in get_type_hints(annotation, include_extras=True).items()))
    if origin is not None:
        return (origin, tuple(_alike(a) for a in get_args(annotation)))
    return annotation


def test_each_openai_wires_fields_and_the_fields_they_share_match_the_sdk() -> None:
    from openai.types.chat.chat_completion_stream_options_param import ChatCompletionStreamOptionsParam
    from openai.types.chat.completion_create_params import CompletionCreateParamsBase, CompletionCreateParamsStreaming
    from openai.types.responses.response_create_params import (
        ResponseCreateParamsBase,
        ResponseCreateParamsStreaming,
        StreamOptions,
    )

    chat = get_type_hints(CompletionCreateParamsBase, include_extras=True)
    responses = get_type_hints(ResponseCreateParamsBase, include_extras=True)
    assert CHAT.fields == {*chat, *CompletionCreateParamsStreaming.__annotations__}
    assert RESPONSES.fields == {*responses, *ResponseCreateParamsStreaming.__annotations__}
    alike = {key for key in chat.keys() & responses.keys() if _alike(chat[key]) == _alike(responses[key])}
    assert alike | {"stream"} == SHARED_FIELDS
    for key, values in SHARED_VALUES.items():
        literals = [{v for arg in get_args(t) for v in get_args(arg)} for t in (chat[key], responses[key])]
        assert values == literals[0] & literals[1] != set()
    assert CHAT.stream_options == set(ChatCompletionStreamOptionsParam.__annotations__)
    assert RESPONSES.stream_options == set(StreamOptions.__annotations__)


def test_each_openai_wire_keeps_only_its_own_fields_of_the_shared_options() -> None:
    import interlingua as il
    from interlingua import Message, Request, UnsupportedSetting

    options = {
        "n": 2,
        "include": ["reasoning.encrypted_content"],
        "store": False,
        "stream_options": {"include_usage": True},
    }
    request = Request(model="gpt-5", messages=[Message.user("hi")], provider_options={"openai": options})
    chat = il.get_codec("openai-chat").encode_request(request)
    assert {k: chat.body[k] for k in ("n", "store", "stream_options")} == {
        "n": 2,
        "store": False,
        "stream_options": {"include_usage": True},
    }
    assert "include" not in chat.body
    assert [(type(w), w.path) for w in chat.warnings] == [(UnsupportedSetting, "provider_options.openai.include")]
    responses = il.get_codec("openai-responses").encode_request(request)
    assert responses.body["include"] == ["reasoning.encrypted_content"] and "n" not in responses.body
    assert "stream_options" not in responses.body
    # include_usage is stream framing the transport decides (a Responses stream always sends usage)
    assert [w.path for w in responses.warnings] == ["provider_options.openai.n"]
    mistral = il.get_codec("openai-chat", dialect="mistral")
    assert mistral.encode_request(request).body.get("include") is None  # other dialects have their own key
