"""The gateway serves what the codecs declare (``Codec.serving``), not a table of its own."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.gateway import _wires
from interlingua.kit import Serving


def test_the_installed_codecs_declare_the_four_served_wires() -> None:
    routes = {wire.codec: wire.path for wire in _wires.served()}
    assert routes == {
        "anthropic-messages": "/v1/messages",
        "gemini": "/v1beta/models/{target}",
        "openai-chat": "/v1/chat/completions",
        "openai-responses": "/v1/responses",
    }  # bedrock-converse and cohere-chat declare none yet: reached as upstreams only


def _acme_error(status: int, message: str, kind: str | None) -> dict[str, Any]:
    return {"fault": {"status": status, "text": message, "kind": kind}}


class _Acme:
    def __init__(self, path: str) -> None:
        self.serving = Serving(path, _acme_error, stream_keys=("streaming",))


def test_a_codec_that_declares_serving_is_served_and_two_on_one_route_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = {"acme": _Acme("/v2/acme"), "plain": object()}
    monkeypatch.setattr(_wires, "codecs", lambda: sorted(found))
    monkeypatch.setattr(_wires, "get_codec", found.__getitem__)
    (acme,) = _wires.served()
    assert (acme.codec, acme.path, acme.serving.stream_keys) == ("acme", "/v2/acme", ("streaming",))
    assert acme.serving.error(404, "no such model", None) == {
        "fault": {"status": 404, "text": "no such model", "kind": None}
    }
    found["zeta"] = _Acme("/v2/acme")
    with pytest.raises(ValueError, match="'acme' and 'zeta' both serve /v2/acme"):
        _wires.served()
