"""Artifact handles through the clients, against the loopback vendor server: the body the vendor
receives holds the resolved media, exactly what the codec encodes for the same media inline."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import read_stream_file

from .conftest import KEY, SCENARIOS, body_of, through
from .vendor_server import Answer, VendorServer

pytestmark = pytest.mark.parametrize("wire", list(SCENARIOS))

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
FAST = il.RetryPolicy(max_retries=0)


def _with_screenshot(source: il.MediaSource) -> il.Request:
    return il.Request(
        model="some-model", max_tokens=128, messages=[il.Message.user("What is on this screen?", il.Image(source))]
    )


async def _store(handle_id: str) -> bytes:
    await asyncio.sleep(0)  # a real store awaits I/O
    assert handle_id == "shot-7"
    return PNG


def _expected_body(codec: il.Codec) -> dict[str, Any]:
    inline = _with_screenshot(il.MediaSource.from_bytes(PNG, "image/png"))
    return dict(codec.encode_request(inline).body)


def test_async_client_resolves_handles_with_an_async_resolver(wire: str, vendor: VendorServer) -> None:
    scenario = SCENARIOS[wire]
    vendor.answer = Answer(json=body_of(scenario.files(scenario.send)[1]))
    request = _with_screenshot(il.MediaSource.handle("shot-7", "image/png"))

    async def go() -> il.Response:
        async with il.AsyncClient(
            wire, api_key=KEY, base_url=vendor.url + scenario.prefix, retry=FAST, resolve=_store
        ) as client:
            return await client.send(request)

    response = asyncio.run(go())
    assert response == through(wire, il.get_codec(wire).decode_response(body_of(scenario.files(scenario.send)[1])))
    [seen] = vendor.received
    expected = _expected_body(il.get_codec(wire))
    seen.body.pop("stream", None)
    expected.pop("stream", None)
    assert seen.body == expected


def test_async_stream_resolves_on_entering_the_block(wire: str, vendor: VendorServer) -> None:
    scenario = SCENARIOS[wire]
    stream_path = scenario.files(scenario.stream)[2]
    vendor.answer = Answer(sse=stream_path.read_bytes())
    request = _with_screenshot(il.MediaSource.handle("shot-7", "image/png"))
    codec = il.get_codec(wire)

    async def go() -> il.Response:
        client = il.AsyncClient(wire, api_key=KEY, base_url=vendor.url + scenario.prefix, retry=FAST, resolve=_store)
        async with client, client.stream(request) as events:
            return await events.response()

    assert asyncio.run(go()) == through(wire, il.accumulate(codec.decode_stream(read_stream_file(stream_path))))
    [seen] = vendor.received
    assert base64.b64encode(PNG).decode() in str(seen.body)


def test_sync_client_resolves_and_a_client_without_resolver_sends_nothing(wire: str, vendor: VendorServer) -> None:
    scenario = SCENARIOS[wire]
    vendor.answer = Answer(json=body_of(scenario.files(scenario.send)[1]))
    request = _with_screenshot(il.MediaSource.handle("shot-7", "image/png"))
    url = vendor.url + scenario.prefix
    with il.Client(wire, api_key=KEY, base_url=url, retry=FAST) as bare, pytest.raises(il.EncodeError) as caught:
        bare.send(request)
    assert caught.value.path == "messages[0].parts[1].source"
    assert vendor.received == []
    with il.Client(wire, api_key=KEY, base_url=url, retry=FAST, resolve=lambda _: PNG) as client:
        client.send(request)
    [seen] = vendor.received
    expected = _expected_body(client.codec)
    seen.body.pop("stream", None)
    expected.pop("stream", None)
    assert seen.body == expected
