"""``base_url`` with or without the wire's version segment (issue 40): a vendor's SDK takes its base
URL with ``/v1`` for some wires and without for others, so each codec takes both where the wire
has one, and refuses a version its wire is not served at with a message naming the ones it is.
The OpenAI wires use the base URL as given (the OpenAI SDK's base URL holds the version, and hosts
differ: ``https://api.openai.com/v1``; Perplexity at its root)."""

from __future__ import annotations

import pytest

import interlingua as il
from interlingua.testing import FakeVendor, Reply

AWS = {"aws_region": "us-east-1"}
VERTEX = {"door": "vertex", "vertex_project": "p", "vertex_location": "us-east5"}
GCP = {**VERTEX, "vertex_location": "global"}
CLAUDE = "/projects/p/locations/us-east5/publishers/anthropic/models/m-1:rawPredict"
GEMINI = "/projects/p/locations/global/publishers/google/models/m-1:generateContent"
REFUSED = "!"
"""An expected path starting with this: an EncodeError at base_url whose message holds the rest."""

CASES = [
    # wire, settings, base URL given (after http://h), the path sent, or "!" and the refusal's words
    ("anthropic-messages", {}, "", "/v1/messages"),
    ("anthropic-messages", {}, "/v1", "/v1/messages"),
    ("anthropic-messages", {}, "/proxy/v1/", "/proxy/v1/messages"),
    ("anthropic-messages", {}, "/v2", "!ends in /v2, a version this wire is not served at (it is at /v1)"),
    ("anthropic-messages", {"door": "bedrock", **AWS}, "", "/model/m-1/invoke"),
    ("anthropic-messages", {"door": "bedrock", **AWS}, "/v1", "!ends in /v1, this wire's URL has no version segment"),
    ("anthropic-messages", VERTEX, "", "/v1" + CLAUDE),
    ("anthropic-messages", VERTEX, "/v1beta1", "/v1beta1" + CLAUDE),
    ("openai-chat", {}, "", "/chat/completions"),
    ("openai-chat", {}, "/v1", "/v1/chat/completions"),
    ("openai-chat", {}, "/api/v1/", "/api/v1/chat/completions"),
    ("openai-responses", {}, "", "/responses"),
    ("openai-responses", {}, "/v1", "/v1/responses"),
    ("gemini", {}, "", "/v1beta/models/m-1:generateContent"),
    ("gemini", {}, "/v1beta", "/v1beta/models/m-1:generateContent"),
    ("gemini", {}, "/v1/", "/v1/models/m-1:generateContent"),
    ("gemini", {"api_version": "v1"}, "", "/v1/models/m-1:generateContent"),
    ("gemini", {"api_version": "v1"}, "/v1beta",
     "!ends in /v1beta, a version this wire is not served at (it is at /v1)"),
    ("gemini", {}, "/v2",
     "!ends in /v2, a version this wire is not served at (it is at /v1beta, /v1, /v1alpha)"),
    ("gemini", GCP, "", "/v1" + GEMINI),
    ("gemini", GCP, "/v1beta1", "/v1beta1" + GEMINI),
    ("bedrock-converse", AWS, "", "/model/m-1/converse"),
    ("bedrock-converse", AWS, "/v1", "!ends in /v1, this wire's URL has no version segment"),
    ("cohere-chat", {}, "", "/v2/chat"),
    ("cohere-chat", {}, "/v2/", "/v2/chat"),
    ("cohere-chat", {}, "/v1", "!ends in /v1, a version this wire is not served at (it is at /v2)"),
]


def _request() -> il.Request:
    return il.Request(model="m-1", max_tokens=8, messages=[il.Message.user("hi")])


def test_every_installed_wire_has_cases() -> None:
    assert {wire for wire, *_ in CASES} == set(il.codecs())


@pytest.mark.parametrize(
    ("wire", "settings", "given", "sent"), CASES, ids=[f"{c[0]}{c[1].get('door', '')}:{c[2] or '-'}" for c in CASES]
)
def test_the_url_sent_for_a_base_url(wire: str, settings: dict[str, str], given: str, sent: str) -> None:
    endpoint = il.Endpoint(base_url="http://h" + given, api_key="k", settings=settings)
    codec = il.get_codec(wire)
    if not sent.startswith(REFUSED):
        assert codec.http_request(_request(), stream=False, endpoint=endpoint).url == "http://h" + sent
        return
    with pytest.raises(il.EncodeError) as refused:
        codec.http_request(_request(), stream=False, endpoint=endpoint)
    assert refused.value.path == "base_url"
    assert sent[1:] in str(refused.value) and "give the base URL without it" in str(refused.value)


@pytest.mark.parametrize("wire", sorted(il.codecs()))
def test_a_client_reaches_the_fake_vendor_with_the_version_written_or_not(wire: str) -> None:
    """The way users touch it: ``Client`` on a ``FakeVendor``, given the vendor SDK's base URL and
    the same with its version segment added or taken off; the OpenAI wires' base holds it."""
    settings = AWS if wire == "bedrock-converse" else {}
    with FakeVendor(wire) as fake:
        bases = {fake.base_url, fake.base_url + "/"}
        if wire in ("anthropic-messages", "cohere-chat", "gemini"):
            bases.add(fake.base_url + {"anthropic-messages": "/v1", "cohere-chat": "/v2", "gemini": "/v1beta"}[wire])
        for base in sorted(bases):
            fake.reply(Reply.text(f"ok at {base}"))
            with il.Client(wire, api_key="k", base_url=base, settings=settings, max_retries=0) as client:
                assert client.send(_request()).message.text == f"ok at {base}"
        assert len(fake.exchanges) == len(bases)


def test_a_refused_base_url_is_one_line_from_the_client() -> None:
    refusal = r"ends in /v1, .* \(it is at /v2\); give the base URL without it"
    with il.Client("cohere-chat", api_key="k", base_url="https://api.cohere.com/v1") as client, pytest.raises(
        il.EncodeError, match=refusal
    ):
        client.send(_request())


@pytest.mark.parametrize("wire", ["openai-chat", "openai-responses"])
def test_a_404_from_a_base_url_without_the_version_asks_about_it(wire: str) -> None:
    """The OpenAI wires use a base URL as given, so ``http://host`` where the server wants
    ``http://host/v1`` is a 404: the error's note names the likely fix (the message is the server's)."""
    with FakeVendor(wire) as fake:
        for base, note in [(fake.url, f"is it {fake.url}/v1?"), (fake.url + "/api", None)]:
            with il.Client(wire, api_key="k", base_url=base, max_retries=0) as client, pytest.raises(
                il.NotFoundError
            ) as raised:
                client.send(_request())
            notes = getattr(raised.value, "__notes__", [])
            assert notes == ([f"{fake.url} has no path, and {wire}'s own base URL ends in /v1: {note}"] if note else [])
