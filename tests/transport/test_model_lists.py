"""``Client.list_models``: each wire's model-list endpoint through the transport, on loopback.

The list is read with the codec's own ``read_models`` from the page the gateway writes for that
wire (``Serving.models``, served by FakeVendor), and paged the way each vendor's SDK pages it:
Anthropic's ``after_id`` while ``has_more`` (anthropic SDK ``SyncPage``), Gemini's ``pageToken``
from ``nextPageToken`` (https://ai.google.dev/api/models#method:-models.list)."""

from __future__ import annotations

import asyncio
import json
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

import pytest

import interlingua as il
from interlingua.testing import FakeVendor

from .vendor_server import VendorServer

KEY = "sk-list-0"


@pytest.mark.parametrize("wire", ["openai-chat", "openai-responses", "anthropic-messages", "gemini"])
def test_a_wire_reads_back_the_model_list_its_gateway_page_writes(wire: str) -> None:
    with FakeVendor(wire, models=["acme-1", "acme-2.5"]) as fake:
        with il.Client(wire, base_url=fake.base_url, api_key=KEY) as client:
            assert client.list_models() == ["acme-1", "acme-2.5"]
        assert [r.method for r in fake.received] == ["GET"] and fake.received[0].raw == b""


class _Pages(VendorServer):
    """Answers a model list by its cursor query parameter: ``pages[cursor]`` (None: the first)."""

    def __init__(self, cursor: str, pages: dict[str | None, dict[str, object]]) -> None:
        self.cursor, self.pages = cursor, pages
        super().__init__()

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        received = self._read(handler)
        self.received.append(received)
        asked = parse_qs(urlsplit(received.path).query).get(self.cursor, [None])[0]
        self._send(handler, 200, {}, json.dumps(self.pages[asked]).encode(), "application/json")


def test_anthropic_pages_follow_last_id_while_has_more() -> None:
    first = {"data": [{"type": "model", "id": "claude-a"}], "has_more": True, "last_id": "claude-a"}
    last = {"data": [{"type": "model", "id": "claude-b"}], "has_more": False, "last_id": "claude-b"}
    server = _Pages("after_id", {None: first, "claude-a": last})
    try:
        with il.Client("anthropic-messages", base_url=server.url, api_key=KEY) as client:
            assert client.list_models() == ["claude-a", "claude-b"]
        assert [r.path for r in server.received] == ["/v1/models?limit=1000", "/v1/models?limit=1000&after_id=claude-a"]
        assert {r.headers["x-api-key"] for r in server.received} == {KEY}
        assert {r.headers["anthropic-version"] for r in server.received} == {"2023-06-01"}
    finally:
        server.close()


def test_gemini_pages_follow_next_page_token_and_a_repeated_token_ends_the_walk() -> None:
    pages: dict[str | None, dict[str, object]] = {
        None: {"models": [{"name": "models/gemini-a"}], "nextPageToken": "t/1"},
        "t/1": {"models": [{"name": "models/gemini-b"}], "nextPageToken": "t/1"},  # a server repeating itself
    }
    server = _Pages("pageToken", pages)
    try:

        async def listed() -> list[str]:
            async with il.AsyncClient("gemini", base_url=server.url, api_key=KEY) as client:
                return await client.list_models()

        assert asyncio.run(listed()) == ["gemini-a", "gemini-b"]
        paths = [r.path for r in server.received]
        assert paths == ["/v1beta/models?pageSize=1000", "/v1beta/models?pageSize=1000&pageToken=t%2F1"]
        assert {r.headers["x-goog-api-key"] for r in server.received} == {KEY}
    finally:
        server.close()


def test_a_malformed_list_is_a_decode_error_with_its_path_and_a_door_has_no_list(vendor: VendorServer) -> None:
    from .vendor_server import Answer

    vendor.answer = Answer(json={"object": "list", "data": [{"id": "gpt-x"}, {"object": "model"}]})
    client = il.Client("openai-chat", base_url=vendor.url + "/v1", api_key=KEY)
    with client, pytest.raises(il.DecodeError, match=r"data\[1\]\.id"):
        client.list_models()
    azure = il.Client("openai-chat", api_key=KEY, base_url="https://acme.openai.azure.com", settings={"door": "azure"})
    with azure, pytest.raises(NotImplementedError, match="openai-chat lists no models here"):
        azure.list_models()
