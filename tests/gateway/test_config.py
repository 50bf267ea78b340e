"""The gateway's TOML configuration: what it takes, and the one-line errors for what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from interlingua.gateway import ConfigError, Route, SqliteIdStore, load_config

TEN_LINES = """\
[gateway]
keys_env = "GATEWAY_KEYS"        # the callers' keys, comma-separated
max_body_bytes = 1_000_000

[[route]]
match = "claude-*"
codec = "anthropic-messages"
api_key_env = "ANTHROPIC_API_KEY"

[[route]]
match = "*"
codec = "openai-chat"
api_key_env = "OPENAI_API_KEY"
"""


def test_the_documented_config_loads_its_routes_keys_and_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATEWAY_KEYS", "gw-key-one, gw-key-two")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-a")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-o")
    path = tmp_path / "gateway.toml"
    path.write_text(TEN_LINES)

    config = load_config(path)

    assert config.keys == frozenset({"gw-key-one", "gw-key-two"}) and config.max_body_bytes == 1_000_000
    assert [r.codec for r in config.routes] == ["anthropic-messages", "openai-chat"]
    claude = Route("claude-*", "anthropic-messages", api_key_env="ANTHROPIC_API_KEY")
    assert config.route_for("claude-haiku-4-5") == claude
    assert config.route_for("gpt-4o") is config.routes[1]
    assert "gw-key" not in repr(config)


def test_a_docs_page_holds_the_same_config() -> None:
    page = Path(__file__).parents[2] / "docs" / "guide" / "gateway.md"
    assert TEN_LINES in page.read_text()


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "no [[route]] tables"),
        ('[[route]]\nmatch = "*"\n', "route[0]: needs match and codec"),
        ('[[route]]\nmatch = "*"\ncodec = "gemini"\nkey = "sk-1"\n', "unknown keys ['key']"),
        ('[gateway]\nport = 1\n[[route]]\nmatch = "*"\ncodec = "gemini"\n', "[gateway]: unknown keys ['port']"),
        ('[gateway]\nkeys_env = "NOT_SET_ANYWHERE"\n[[route]]\nmatch = "*"\ncodec = "gemini"\n', "holds no key"),
        ("[[route]\n", "gateway.toml:"),
        # issue 39: each of these started, then answered every request 502 (or served anyone)
        (
            '[gateway]\nopen = true\n[[route]]\nmatch = "*"\ncodec = "anthropic"\n',
            "route[0]: codec 'anthropic' is not installed; installed: anthropic-messages, ",
        ),
        (
            '[gateway]\nopen = true\n[[route]]\nmatch = "*"\ncodec = "gemini"\napi_key_env = "NOT_SET_ANYWHERE"\n',
            "route '*': environment variable NOT_SET_ANYWHERE is not set",
        ),
        ('[[route]]\nmatch = "*"\ncodec = "gemini"\n', "[gateway]: no keys_env; set it, or open = true"),
        (
            '[gateway]\nopen = true\ntelemetry = "yes"\n[[route]]\nmatch = "*"\ncodec = "gemini"\n',
            "[gateway] telemetry: true, false or \"content\", not 'yes'",
        ),
        ('[gateway]\nopen = "yes"\n[[route]]\nmatch = "*"\ncodec = "gemini"\n', "no keys_env"),
        ('[gateway]\nopen = true\nbody_timeout = 0\n[[route]]\nmatch = "*"\ncodec = "gemini"\n', "body_timeout"),
        ('[gateway]\nopen = true\n[[route]]\nmatch = "*"\ncodec = "gemini"\ntimeout = "x"\n', "route[0]: timeout"),
        (
            '[gateway]\nopen = true\n[[route]]\nmatch = "*"\ncodec = "cohere-chat"\nbase_url = "https://api.cohere.com/v1"\n',
            "route[0]: base_url: 'https://api.cohere.com/v1' ends in /v1, a version this wire is not served at",
        ),
    ],
)
def test_a_config_the_gateway_cannot_run_is_refused_with_its_reason(tmp_path: Path, text: str, error: str) -> None:
    path = tmp_path / "gateway.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=None) as caught:
        load_config(path)
    assert error in str(caught.value)


def test_a_route_whose_key_variable_is_unset_names_the_variable_and_not_a_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_SUCH_UPSTREAM_KEY", raising=False)
    with pytest.raises(ConfigError, match="environment variable NO_SUCH_UPSTREAM_KEY is not set"):
        Route("*", "gemini", api_key_env="NO_SUCH_UPSTREAM_KEY").api_key()


def test_the_id_store_key_opens_a_sqlite_store(tmp_path: Path) -> None:
    path = tmp_path / "gateway.toml"
    path.write_text(
        f'[gateway]\nopen = true\nid_store = "{tmp_path / "ids.db"}"\n[[route]]\nmatch = "*"\ncodec = "gemini"\n'
    )
    assert isinstance(load_config(path).id_store, SqliteIdStore)


def test_the_code_example_of_the_docs_page_builds_an_app_and_a_keyless_local_route_works(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A route without api_key_env and none of its codec's variables set sends no key."""
    import asyncio

    from interlingua.gateway import Gateway, GatewayConfig

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    gateway = Gateway(GatewayConfig([Route("*", "openai-chat", base_url="http://127.0.0.1:9/v1", model="qwen3:8b")]))

    async def build() -> object:
        client = gateway._client(gateway.config.routes[0])
        headers = (await client.prepare(__import__("interlingua").Request(model="m", messages=[]))).headers
        await gateway.aclose()
        return headers

    assert "authorization" not in {k.lower() for k in asyncio.run(build())}  # type: ignore[attr-defined]


def test_open_true_serves_without_keys(tmp_path: Path) -> None:
    path = tmp_path / "gateway.toml"
    path.write_text('[gateway]\nopen = true\n[[route]]\nmatch = "*"\ncodec = "gemini"\n')
    assert load_config(path).keys == frozenset()


@pytest.mark.parametrize(("line", "content"), [("telemetry = true", False), ('telemetry = "content"', True)])
def test_the_telemetry_key_instruments_the_gateway(tmp_path: Path, line: str, content: bool) -> None:
    pytest.importorskip("opentelemetry")
    from interlingua import _otel
    from interlingua.gateway import Gateway

    path = tmp_path / "gateway.toml"
    path.write_text(f'[gateway]\nopen = true\n{line}\n[[route]]\nmatch = "*"\ncodec = "gemini"\n')
    try:
        Gateway(load_config(path))
        assert _otel.ACTIVE is not None and _otel.ACTIVE.content is content
    finally:
        _otel.uninstrument()


def test_a_gateway_built_in_code_checks_its_routes_too() -> None:
    from interlingua.gateway import Gateway, GatewayConfig

    with pytest.raises(ConfigError, match="routes\\[0\\]: codec 'anthropic' is not installed"):
        Gateway(GatewayConfig([Route("*", "anthropic")]))
