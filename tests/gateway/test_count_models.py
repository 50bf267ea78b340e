"""Token counts and model lists through the gateway (issue 42 item 2), driven by the official SDK
clients: Anthropic's ``messages.count_tokens``, OpenAI's ``responses.input_tokens.count`` and
google-genai's ``models.count_tokens``, each against every upstream wire (a FakeVendor per wire,
which serves the wire's count endpoint where the codec has one), and each SDK's ``models.list``.

An upstream with a count endpoint counts (the fake's count is its body's JSON length / 4, so it
differs from the gateway's estimate, and the fake records the count request); one without
(openai-chat, cohere-chat) is estimated from the IR, and the answer says so in a header."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import FakeVendor

from . import callers
from .conftest import serve_in_thread

pytest.importorskip("starlette")

UPSTREAMS = ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse", "cohere-chat")
COUNTED = {"anthropic-messages", "openai-responses", "gemini", "bedrock-converse"}
"""The wires whose vendor has a count endpoint (Codec.count_request)."""
KEY = "gw-count-key"
PROMPT = "How many tokens is this question, and how many are the tools?"
TOOL_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


class Setup:
    def __init__(self, url: str, fakes: dict[str, FakeVendor]) -> None:
        self.url, self.fakes = url, fakes


@pytest.fixture(scope="module")
def setup() -> Iterator[Setup]:
    from interlingua.gateway import Gateway, GatewayConfig, Route

    os.environ["GW_COUNT_UPSTREAM_KEY"] = "upstream-key"
    fakes = {wire: FakeVendor(wire) for wire in UPSTREAMS}
    routes = [
        Route(
            match=f"to-{wire}",
            codec=wire,
            base_url=fakes[wire].base_url,
            api_key_env="GW_COUNT_UPSTREAM_KEY",
            model=f"{wire}-model",
            settings={"aws_region": "us-east-1"} if wire == "bedrock-converse" else {},
        )
        for wire in UPSTREAMS
    ]
    # a glob route: the catalog's models it matches are listed
    routes.append(Route(match="claude-*", codec="anthropic-messages", base_url=fakes["anthropic-messages"].base_url))
    gateway = Gateway(GatewayConfig(routes, keys=frozenset({KEY})))
    url, server, thread = serve_in_thread(gateway.app())
    yield Setup(url, fakes)
    server.should_exit = True
    thread.join(10)
    for fake in fakes.values():
        fake.close()


def _count_anthropic(url: str, model: str) -> tuple[int, dict[str, str]]:
    sdk = callers.client("anthropic-messages", url, KEY)
    raw = sdk.messages.with_raw_response.count_tokens(
        model=model,
        system="Be brief.",
        messages=[{"role": "user", "content": PROMPT}],
        tools=[{"name": "weather", "description": "The weather in a city.", "input_schema": TOOL_SCHEMA}],
    )
    return raw.parse().input_tokens, dict(raw.headers)


def _count_responses(url: str, model: str) -> tuple[int, dict[str, str]]:
    sdk = callers.client("openai-responses", url, KEY)
    raw = sdk.responses.input_tokens.with_raw_response.count(
        model=model,
        instructions="Be brief.",
        input=PROMPT,
        tools=[{"type": "function", "name": "weather", "parameters": TOOL_SCHEMA, "strict": True}],
    )
    parsed = raw.parse()
    assert parsed.object == "response.input_tokens"
    return parsed.input_tokens, dict(raw.headers)


def _count_gemini(url: str, model: str) -> tuple[int, dict[str, str]]:
    sdk = callers.client("gemini", url, KEY)
    counted = sdk.models.count_tokens(model=model, contents=PROMPT)
    assert counted.total_tokens is not None and counted.sdk_http_response is not None
    return counted.total_tokens, dict(counted.sdk_http_response.headers or {})


CALLERS = {"anthropic-messages": _count_anthropic, "openai-responses": _count_responses, "gemini": _count_gemini}


@pytest.mark.parametrize("upstream", UPSTREAMS)
@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_count_tokens_on_every_caller_wire_for_every_upstream(setup: Setup, caller: str, upstream: str) -> None:
    fake = setup.fakes[upstream]
    before = len(fake.exchanges)
    tokens, headers = CALLERS[caller](setup.url, f"to-{upstream}")
    counts = [e for e in fake.exchanges[before:] if e.count]
    if upstream in COUNTED:
        # the upstream's own count endpoint answered: the fake's figure, its request recorded
        assert len(counts) == 1 and counts[0].problems == []
        assert tokens == len(json.dumps(counts[0].body, separators=(",", ":"))) // 4
        assert "x-interlingua-token-count" not in {k.lower() for k in headers}
        assert PROMPT in json.dumps(counts[0].body)  # the caller's prompt, re-encoded for the upstream
        assert f"{upstream}-model" in counts[0].path + json.dumps(counts[0].body)  # the route's model
    else:
        assert counts == [] and fake.exchanges[before:] == []  # nothing generated, nothing sent
        lowered = {k.lower(): v for k, v in headers.items()}
        assert lowered["x-interlingua-token-count"] == "estimated"
        assert tokens >= math.ceil(len(PROMPT) / 4)  # the estimate covers at least the prompt's text


def test_a_count_for_an_unrouted_model_is_the_callers_404(setup: Setup) -> None:
    import anthropic

    sdk = anthropic.Anthropic(api_key=KEY, base_url=setup.url, max_retries=0)
    with pytest.raises(anthropic.NotFoundError, match="not served"):
        sdk.messages.count_tokens(model="nowhere", messages=[{"role": "user", "content": "hi"}])
    with pytest.raises(anthropic.AuthenticationError):
        anthropic.Anthropic(api_key="wrong", base_url=setup.url, max_retries=0).messages.count_tokens(
            model="to-openai-chat", messages=[{"role": "user", "content": "hi"}]
        )


def test_model_lists_from_routes_and_catalog(setup: Setup) -> None:
    import anthropic
    import openai
    from google import genai
    from google.genai import types

    plain = {f"to-{wire}" for wire in UPSTREAMS}
    catalog = {spec.id for spec in il.models.all_models("anthropic") if spec.id.startswith("claude-")}
    assert catalog, "the anthropic catalog lists claude models"
    openai_ids = [m.id for m in openai.OpenAI(api_key=KEY, base_url=setup.url + "/v1").models.list()]
    assert set(openai_ids) == plain | catalog and len(openai_ids) == len(set(openai_ids))
    page = anthropic.Anthropic(api_key=KEY, base_url=setup.url).models.list()
    assert {m.id for m in page.data} == plain | catalog and all(m.type == "model" for m in page.data)
    listed: dict[str, Any] = {}
    for version in ("v1beta", "v1"):  # google-genai calls /v1 by default
        sdk = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=setup.url, api_version=version))
        listed = {m.name: m for m in sdk.models.list()}
        assert set(listed) == {f"models/{name}" for name in plain | catalog}
    # what the catalog knows of a model comes with it
    spec = next(spec for spec in il.models.all_models("anthropic") if spec.id in catalog and spec.context_window)
    assert listed[f"models/{spec.id}"].input_token_limit == spec.context_window
    with pytest.raises(openai.AuthenticationError):
        openai.OpenAI(api_key="wrong", base_url=setup.url + "/v1", max_retries=0).models.list()


@pytest.mark.parametrize("wire", UPSTREAMS)
def test_client_count_tokens_on_every_wire(wire: str) -> None:
    """Client.count_tokens and AsyncClient.count_tokens: the vendor's count where it has one."""
    import asyncio

    request = il.Request(model="m-1", messages=[il.Message.user(PROMPT)], max_tokens=64, temperature=0.2)
    settings = {"aws_region": "us-east-1"} if wire == "bedrock-converse" else {}
    with FakeVendor(wire) as fake:
        with il.Client(wire, api_key="k", base_url=fake.base_url, settings=settings) as client:
            counted = client.count_tokens(request)

        async def run() -> il.TokenCount:
            async with il.AsyncClient(wire, api_key="k", base_url=fake.base_url, settings=settings) as client:
                return await client.count_tokens(request)

        again = asyncio.run(run())
    assert again == counted
    if wire in COUNTED:
        assert not counted.estimated and [e.count for e in fake.exchanges] == [True, True]
        body = fake.exchanges[0].body
        assert counted.input_tokens == len(json.dumps(body, separators=(",", ":"))) // 4
        # only what the count endpoint takes: generation settings stay out
        assert not {"max_tokens", "temperature", "max_output_tokens", "stream"} & set(body)
    else:
        assert counted == il.estimate_tokens(request) and counted.estimated and fake.exchanges == []
