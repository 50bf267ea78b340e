"""The gateway and the CLI use what the codecs declare (``Codec.serving``), not a table of their own."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua import _registry
from interlingua.kit import Serving


def test_the_installed_codecs_declare_the_four_served_wires() -> None:
    routes = {wire.codec: wire.path for wire in _registry.served()}
    assert routes == {
        "anthropic-messages": "/v1/messages",
        "gemini": "/v1beta/models/{target}",
        "openai-chat": "/v1/chat/completions",
        "openai-responses": "/v1/responses",
    }  # bedrock-converse and cohere-chat declare none yet: reached as upstreams only


def _acme_error(status: int, message: str, kind: str | None) -> dict[str, Any]:
    return {"fault": {"status": status, "text": message, "kind": kind}}


class _Acme:
    provider = "acme"

    def __init__(self, path: str) -> None:
        self.serving = Serving(path, _acme_error, stream_keys=("streaming",))


def test_a_codec_that_declares_serving_is_served_and_two_on_one_route_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = {"acme": _Acme("/v2/acme"), "plain": object()}
    monkeypatch.setattr(_registry, "codecs", lambda: sorted(found))
    monkeypatch.setattr(_registry, "get_codec", found.__getitem__)
    (acme,) = _registry.served()
    assert (acme.codec, acme.path, acme.serving.stream_keys) == ("acme", "/v2/acme", ("streaming",))
    assert acme.serving.error(404, "no such model", None) == {
        "fault": {"status": 404, "text": "no such model", "kind": None}
    }
    found["zeta"] = _Acme("/v2/acme")
    with pytest.raises(ValueError, match="'acme' and 'zeta' both serve /v2/acme"):
        _registry.served()


@pytest.mark.parametrize(
    ("path", "named"),
    [
        ("/v1/messages", ("anthropic-messages", None)),
        ("/v1/chat/completions", ("openai-chat", None)),
        ("/openai/deployments/prod-4o/chat/completions", ("openai-chat", None)),  # a cloud host's prefix
        ("/v1/responses", ("openai-responses", None)),
        ("/v1beta/models/gemini-2.5-flash:generateContent", ("gemini", "gemini-2.5-flash")),
        (
            "/v1/projects/p/locations/l/publishers/google/models/gemini-2.0-flash:streamGenerateContent",
            ("gemini", "gemini-2.0-flash"),
        ),
        ("/v1beta/models/gemini-2.5-flash:countTokens", (None, None)),
        ("/v1/embeddings", (None, None)),
    ],
)
def test_a_logged_path_names_its_wire_by_the_declared_routes(path: str, named: tuple[str | None, str | None]) -> None:
    from interlingua.cli.conversion import _wire_of_path

    assert _wire_of_path(path) == named


def test_batch_lines_are_the_codecs_declared_ones() -> None:
    from interlingua.cli.conversion import unwrap, wrap

    body = {"model": "m", "messages": []}
    envelope, inner = unwrap({"custom_id": "r1", "method": "POST", "url": "/v1/responses", "body": body})
    assert envelope is not None and (envelope.style, envelope.id, envelope.wire) == ("openai", "r1", "openai-responses")
    assert inner is body
    envelope, _ = unwrap({"custom_id": "r2", "method": "POST", "url": "/v1/embeddings", "body": body})
    assert envelope is not None and (envelope.style, envelope.wire) == ("openai", None)  # the body decides
    envelope, _ = unwrap({"key": "k", "request": body})
    assert envelope is not None and (envelope.style, envelope.wire) == ("gemini", "gemini")
    assert wrap(envelope, "anthropic-messages", body) == {"custom_id": "k", "params": body}
    assert wrap(envelope, "openai-chat:mistral", body) == {
        "custom_id": "k",
        "method": "POST",
        "url": "/v1/chat/completions",
        "body": body,
    }
    assert wrap(envelope, "bedrock-converse", body) == {"custom_id": "k", "body": body}  # no batch line declared
