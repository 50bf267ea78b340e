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

    def __init__(self, path: str | None) -> None:
        self.serving = None if path is None else Serving(path, _acme_error, stream_keys=("streaming",))


def test_a_codec_that_declares_serving_is_served_and_of_two_on_one_route_the_first_by_name_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = {"acme": _Acme("/v2/acme"), "plain": _Acme(None)}
    monkeypatch.setattr(_registry, "codecs", lambda: sorted(found))
    monkeypatch.setattr(_registry, "get_codec", found.__getitem__)
    (acme,) = _registry.served()
    assert (acme.codec, acme.path, acme.serving.stream_keys) == ("acme", "/v2/acme", ("streaming",))
    assert acme.serving.error(404, "no such model", None) == {
        "fault": {"status": 404, "text": "no such model", "kind": None}
    }
    assert _registry.shadowed() == ()
    found["zeta"] = _Acme("/v2/acme")
    found["aardvark"] = _Acme("/v2/acme")
    assert [wire.codec for wire in _registry.served()] == ["aardvark"]
    assert [(wire.codec, by) for wire, by in _registry.shadowed()] == [("acme", "aardvark"), ("zeta", "aardvark")]


_PLUGIN = """
from interlingua.kit import CodecBase, Serving

def _error(status, message, kind):
    return {"error": {"message": message}}

class ZetaChat(CodecBase):
    \"\"\"A plug-in that re-declares openai-chat's route.\"\"\"
    name, provider = "zeta-chat", "zeta"
    serving = Serving("/v1/chat/completions", _error)
"""


def test_a_plugin_that_redeclares_a_route_leaves_convert_and_the_route_working(tmp_path: Any) -> None:
    """Installed by entry point (a dist-info folder on the path), as pip would install it."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "zeta_plugin.py").write_text(_PLUGIN)
    info = tmp_path / "zeta_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: zeta-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[interlingua.codecs]\nzeta-chat = zeta_plugin:ZetaChat\n")
    body = Path(__file__).parents[1] / "fixtures/openai-chat/request/image-detail-and-file-id.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-m", "interlingua.cli", "convert", str(body), "--to", "anthropic-messages"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    probe = "from interlingua import _registry as r; print(r.codecs(), [w.codec for w in r.served()], r.shadowed())"
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    assert "'zeta-chat'" in shown.stdout.split("]")[0]  # installed
    assert "'openai-chat'" in shown.stdout.split("]")[1] and "'zeta-chat'" not in shown.stdout.split("]")[1]


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
