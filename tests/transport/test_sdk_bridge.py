"""The SDK bridge: the official clients, pointed at the local vendor server, send exactly the body
our encoder produced, and the objects they parse decode to the same Response as the raw JSON."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua as il

from .conftest import KEY, SCENARIOS, body_of, loadable
from .test_client import _request
from .vendor_server import Answer, VendorServer

READY = loadable()


def _needs(wire: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(wire not in READY, reason=f"{wire} does not load yet")


def _setup(wire: str, vendor: VendorServer) -> tuple[il.Codec, dict[str, Any], Any]:
    scenario = SCENARIOS[wire]
    codec = il.get_codec(wire)
    request = _request(scenario, scenario.send, codec)
    encoded = codec.encode_request(request)
    recorded = body_of(scenario.files(scenario.send)[1])
    vendor.answer = Answer(json=recorded)
    return codec, dict(encoded.body), recorded


@_needs("anthropic-messages")
def test_anthropic_sdk_sends_our_body_and_its_message_decodes_the_same(vendor: VendorServer) -> None:
    import anthropic

    codec, body, recorded = _setup("anthropic-messages", vendor)
    client = anthropic.Anthropic(api_key=KEY, base_url=vendor.url, max_retries=0)
    message = client.messages.create(**body)
    client.close()
    assert vendor.received[-1].body == body
    assert codec.decode_response(message) == codec.decode_response(recorded)


@_needs("openai-chat")
def test_openai_chat_sdk_sends_our_body_and_its_completion_decodes_the_same(vendor: VendorServer) -> None:
    import openai

    codec, body, recorded = _setup("openai-chat", vendor)
    client = openai.OpenAI(api_key=KEY, base_url=vendor.url + "/v1", max_retries=0)
    completion = client.chat.completions.create(**body)
    client.close()
    assert vendor.received[-1].body == body
    assert codec.decode_response(completion) == codec.decode_response(recorded)


@_needs("openai-responses")
def test_openai_responses_sdk_sends_our_body_and_its_response_decodes_the_same(vendor: VendorServer) -> None:
    import openai

    codec, body, recorded = _setup("openai-responses", vendor)
    client = openai.OpenAI(api_key=KEY, base_url=vendor.url + "/v1", max_retries=0)
    answer = client.responses.create(**body)
    client.close()
    assert vendor.received[-1].body == body
    assert codec.decode_response(answer) == codec.decode_response(recorded)


def genai_arguments(body: dict[str, Any]) -> tuple[Any, Any]:
    """A generateContent REST body as google-genai's ``contents`` and ``config``: the SDK takes
    generationConfig's fields and the request's other fields side by side in one config."""
    from google.genai import types

    config = dict(body.get("generationConfig") or {})
    for key in ("systemInstruction", "tools", "toolConfig", "safetySettings", "cachedContent", "labels"):
        if key in body:
            config[key] = body[key]
    return body["contents"], types.GenerateContentConfig.model_validate(config)


@_needs("gemini")
def test_google_genai_sends_our_body_and_its_response_decodes_the_same(vendor: VendorServer) -> None:
    from google import genai
    from google.genai import types

    codec, body, recorded = _setup("gemini", vendor)
    client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=vendor.url, api_version="v1beta"))
    contents, config = genai_arguments(body)
    model = SCENARIOS["gemini"].recorded_request("text-basic")[1].split("/models/")[1].split(":")[0]
    answer = client.models.generate_content(model=model, contents=contents, config=config)
    assert vendor.received[-1].body == body
    assert vendor.received[-1].path == f"/v1beta/models/{model}:generateContent"
    assert codec.decode_response(answer) == codec.decode_response(recorded)
