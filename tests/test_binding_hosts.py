"""Signed reasoning bound to the host it was made through (issue 45 item 2, the host part).

Each row replays a recorded answer's signed block, made through one host, through another, and
holds the encoder to what the vendor says of the two hosts (the catalog's ``[hosts]``, cited there):

- Anthropic: "signature values are compatible across platforms (Claude APIs, Amazon Bedrock, and
  Google Cloud). Values generated on one platform work on another" (extended thinking): nothing is
  withheld between the three. Except where a model checks the organization that made a block
  (Claude Fable 5.1 and Mythos 5.1, AWS's thinking-block-binding page): withheld from any other.
- Gemini: a thoughtSignature made through Vertex AI is answered 400 "Corrupted thought signature."
  by the Gemini API, and the other way (peers running both: BerriAI/litellm#32140): withheld.
- OpenAI: an encrypted reasoning item made through OpenAI's API is answered 400
  ``invalid_encrypted_content`` ("The encrypted content ... could not be verified") by Azure
  OpenAI, and the other way (experientiallabs/experiential#965): withheld.

A host not recorded (an echo decoded from a log, or an encode that names no host) is not known,
and nothing is withheld on its account."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua import models
from interlingua._binding import hosted
from interlingua.kit import dumps
from interlingua.testing import load_body

FIXTURES = Path(__file__).parents[1] / "fixtures"
ANSWERS = {
    "anthropic-messages": "anthropic-messages/response/thinking-then-tool-use.json",
    "gemini": "gemini/response/thought-then-signed-function-call.json",
    "openai-responses": "openai-responses/response/reasoning-function-call-turn1.json",
}
PROVIDERS = {"anthropic-messages": "anthropic", "gemini": "gemini", "openai-responses": "openai"}
SOURCES = {
    "anthropic-messages": "https://platform.claude.com/docs/en/build-with-claude/extended-thinking",
    "gemini": "https://github.com/BerriAI/litellm/issues/32140",
    "openai-responses": "https://github.com/experientiallabs/experiential/pull/965",
}

ROWS = [
    # wire, made through, sent through, withheld
    ("anthropic-messages", "bedrock", "anthropic", False),
    ("anthropic-messages", "vertex", "bedrock", False),
    ("anthropic-messages", "anthropic", "vertex", False),
    ("gemini", "vertex", "gemini-api", True),
    ("gemini", "gemini-api", "vertex", True),
    ("gemini", "vertex", "vertex", False),
    ("openai-responses", "openai", "azure", True),
    ("openai-responses", "azure", "openai", True),
    ("openai-responses", "azure", "azure", False),
    ("gemini", None, "vertex", False),  # made through a host not recorded: not known
    ("openai-responses", "openai", None, False),  # sent through a host not named: not known
]


def _signatures(message: il.Message, provider: str) -> list[str]:
    """The signed values of ``message``'s blocks bound to a model (signature, thoughtSignature,
    encrypted_content), as the wire carries them."""
    found: list[str] = []
    for part in message.parts:
        echo = part.echo(provider)
        if echo is None or echo.model is None:
            continue
        data: Any = echo.data
        item = data.get("item") if isinstance(data.get("item"), dict) else {}
        found += [v for v in (data.get("signature"), data.get("thoughtSignature"), item.get("encrypted_content")) if v]
    return found


def _replay(wire: str, made: str | None, **changed: str) -> tuple[il.Request, list[str]]:
    """The recorded answer (made through ``made``; ``changed``: body keys given another value)
    replayed with its calls answered, to its model."""
    codec = il.get_codec(wire)
    answer = codec.decode_response({**load_body(FIXTURES / ANSWERS[wire]), **changed})
    message = answer.message if made is None else hosted(answer.message, made)
    calls = [part for part in message.parts if isinstance(part, il.ToolUse)]
    results = [il.ToolResult(tool_use_id=call.id, name=call.name, content="18C") for call in calls]
    messages = [il.Message.user("What is the weather in Paris?"), message, il.Message(role="tool", parts=results)]
    signed = _signatures(message, PROVIDERS[wire])
    assert signed  # every row replays a signed block
    return il.Request(model=answer.model, max_tokens=256, messages=messages), signed


@pytest.mark.parametrize(("wire", "made", "sent", "withheld"), ROWS)
def test_a_signed_block_crosses_hosts_as_its_vendor_says(
    wire: str, made: str | None, sent: str | None, withheld: bool
) -> None:
    request, signed = _replay(wire, made)
    codec = il.get_codec(wire)
    encoded = codec.encode_request(request) if sent is None else codec.encode_request(request, host=sent)
    body = dumps(encoded.body)
    refused = [w for w in encoded.warnings if isinstance(w, il.LossyEncode) and f"through {made}" in w.message]
    if withheld:
        assert all(value not in body for value in signed)
        assert refused and all(SOURCES[wire] in w.message and str(sent) in w.message for w in refused)
    else:
        assert all(value in body for value in signed) and not refused


AWS_BINDING = "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-thinking-block-binding.html"


@pytest.mark.parametrize(("made", "sent", "withheld"), [("anthropic", "bedrock", True), ("bedrock", "bedrock", False)])
def test_claude_fable_5_1_takes_a_block_only_from_the_organization_that_made_it(
    made: str, sent: str, withheld: bool
) -> None:
    """Claude Fable 5.1 enforces the account check ("the same AWS account that produced the block,
    or one of the accounts listed in bind_to_additional_organizations"): a block the Claude API
    made, under an Anthropic organization, is withheld from Bedrock; where the general statement
    holds (any other Claude) the rows above send it."""
    request, signed = _replay("anthropic-messages", made, model="claude-fable-5-1")
    encoded = il.get_codec("anthropic-messages").encode_request(request, host=sent)
    refused = [w for w in encoded.warnings if f"made through {made}" in w.message]
    assert (all(value not in dumps(encoded.body) for value in signed), bool(refused)) == (withheld, withheld)
    assert all(AWS_BINDING in w.message for w in refused)


def test_a_withheld_gemini_3_call_gets_the_documented_placeholder() -> None:
    """Gemini 3 refuses a current-turn call without a thoughtSignature; one withheld for its host
    is sent with the placeholder Google documents for calls made elsewhere."""
    request, signed = _replay("gemini", "vertex", modelVersion="gemini-3-flash-preview")
    assert request.model == "gemini-3-flash-preview"
    body = il.get_codec("gemini").encode_request(request, host="gemini-api").body
    call = next(p for c in body["contents"] for p in c["parts"] if "functionCall" in p)
    assert call["thoughtSignature"] == "skip_thought_signature_validator" and call["thoughtSignature"] not in signed


def test_the_catalog_says_which_hosts_share_with_its_source() -> None:
    claude = models.find("anthropic", "claude-sonnet-4-5")
    gemini = models.find("gemini", "gemini-2.5-flash")
    gpt = models.find("openai", "gpt-5")
    assert claude is not None and claude.binding is not None and gemini is not None and gemini.binding is not None
    assert gpt is not None and gpt.binding is not None
    assert claude.binding.shared_hosts == ("anthropic", "bedrock", "vertex") and not claude.binding.host_bound
    assert claude.cite("hosts") == SOURCES["anthropic-messages"]
    assert gemini.binding.host_bound and gemini.kind_of("hosts") == "peer_profile"
    assert gpt.binding.host_bound and gpt.cite("hosts").endswith(SOURCES["openai-responses"])


def test_a_hosts_table_is_checked() -> None:
    from interlingua._model_spec import CatalogError, parse_file

    with pytest.raises(CatalogError, match="hosts"):
        parse_file({"provider": "acme", "hosts": {"shared": ["a", "b"]}, "model": [{"id": "acme-1"}]}, "acme.toml")
    hosts = {"bound": True, "source": "https://acme.test/hosts"}
    (spec,) = parse_file({"provider": "acme", "hosts": hosts, "model": [{"id": "acme-1"}]}, "acme.toml")
    assert spec.binding is not None and spec.binding.refuses_host("acme-cloud", "acme")
    assert not spec.binding.refuses_host(None, "acme") and not spec.binding.refuses_host("acme", "acme")


def test_converse_and_the_messages_bedrock_door_bind_alike() -> None:
    """A Converse request names its model in the URL: the signed reasoning it replays is bound to
    that model (as the Messages API's Bedrock door binds its blocks), and both codecs name the
    host ``bedrock``; a body without a model binds nothing."""
    converse = il.get_codec("bedrock-converse")
    body = load_body(FIXTURES / "bedrock-converse/request/parallel-tool-results.json")
    model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    bound = converse.decode_request(body, model=model)
    unbound = converse.decode_request(body)
    signed = [e.model for m in bound.messages for p in m.parts for e in p.provider_echoes if p.type == "thinking"]
    assert signed and all(found == model for found in signed)
    assert all(e.model is None for m in unbound.messages for p in m.parts for e in p.provider_echoes)
    door = il.get_codec("anthropic-messages").host_for({"door": "bedrock"})
    assert converse.host_for({}) == door == "bedrock"
    assert converse.encode_request(bound).body["messages"] == converse.encode_request(unbound).body["messages"]
