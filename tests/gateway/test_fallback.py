"""Fallback and load balancing across a route's upstreams, driven by the official SDK clients
through a gateway on loopback, in front of interlingua.testing.FakeVendor upstreams (and, for
faults a fake does not script, the loopback vendor server)."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interlingua import ErrorEvent, MessageStart, OverloadedError, Thinking, get_codec
from interlingua.gateway import (
    HOPS_HEADER,
    UPSTREAM_HEADER,
    WARNINGS_HEADER,
    ConfigError,
    Gateway,
    GatewayConfig,
    Route,
    Upstream,
    load_config,
)
from interlingua.testing import FakeVendor, Reply

from .conftest import serve_in_thread
from .vendor import Answer, Fault, VendorServer

KEY = "caller-key"
HI = [{"role": "user", "content": "hi"}]


@contextlib.contextmanager
def gateway(*routes: Route) -> Iterator[str]:
    """An open gateway serving ``routes`` on a free loopback port, for one test."""
    server: Any = None
    url, server, thread = serve_in_thread(Gateway(GatewayConfig(list(routes))).app())
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def made_fakes() -> Iterator[dict[str, FakeVendor]]:
    made = {wire: FakeVendor(wire, default=Reply.text(f"served by {wire}")) for wire in WIRES}
    yield made
    for fake in made.values():
        fake.close()


@pytest.fixture
def fakes(made_fakes: dict[str, FakeVendor]) -> dict[str, FakeVendor]:
    """One fake upstream per wire, with nothing received and nothing scripted."""
    for fake in made_fakes.values():
        fake.exchanges.clear()
        fake.received.clear()
        fake._script.clear()
    return made_fakes


WIRES = ("anthropic-messages", "openai-chat", "gemini")
MODELS = {"anthropic-messages": "claude-sonnet-4-5", "openai-chat": "gpt-4o", "gemini": "gemini-3-flash-preview"}


def upstream(fake: FakeVendor, name: str, **fields: Any) -> Upstream:
    return Upstream(fake.wire, base_url=fake.base_url, model=MODELS[fake.wire], name=name, **fields)


def anthropic_sdk(url: str) -> Any:
    import anthropic

    return anthropic.Anthropic(api_key=KEY, base_url=url, max_retries=0)


def chat_sdk(url: str) -> Any:
    import openai

    return openai.OpenAI(api_key=KEY, base_url=url + "/v1", max_retries=0)


def ask_anthropic(sdk: Any, model: str, messages: list[dict[str, Any]] | None = None) -> tuple[str, Any]:
    """(the answer's text, the HTTP response's headers)."""
    raw = sdk.messages.with_raw_response.create(
        model=model, max_tokens=64, messages=messages or HI
    )
    message = raw.parse()
    return "".join(b.text for b in message.content if b.type == "text"), raw.headers


def ask_chat(sdk: Any, model: str) -> tuple[str, Any]:
    raw = sdk.chat.completions.with_raw_response.create(model=model, messages=[{"role": "user", "content": "hi"}])
    return raw.parse().choices[0].message.content, raw.headers


def test_a_primary_that_429s_is_cooled_down_for_its_retry_after_and_the_next_upstream_serves(
    fakes: dict[str, FakeVendor], caplog: pytest.LogCaptureFixture
) -> None:
    primary, backup = fakes["anthropic-messages"], fakes["openai-chat"]
    primary.reply(Reply.error(429, "rate limited", kind="rate_limit_error", retry_after=30))
    route = Route("smart", upstreams=(upstream(primary, "primary"), upstream(backup, "backup")), cooldown=5)
    with gateway(route) as url, caplog.at_level(logging.INFO, logger="interlingua.gateway"):
        sdk = anthropic_sdk(url)
        first = ask_anthropic(sdk, "smart")
        second = ask_anthropic(sdk, "smart")  # the primary is cooling down: not asked
        backup.reply(Reply.error(500, "backup down", kind="api_error"))
        with pytest.raises(Exception) as third:
            ask_anthropic(sdk, "smart")
        with pytest.raises(Exception) as fourth:  # both cooling down: a 503 that says until when
            ask_anthropic(sdk, "smart")

    assert first[0] == "served by openai-chat"
    assert (first[1][UPSTREAM_HEADER], first[1][HOPS_HEADER]) == ("backup", "primary 429, backup 200")
    assert (second[0], second[1][HOPS_HEADER]) == ("served by openai-chat", "primary cooling, backup 200")
    assert len(primary.exchanges) == 1 and len(backup.exchanges) == 3
    assert third.value.status_code == 500  # type: ignore[attr-defined]
    assert third.value.response.headers[HOPS_HEADER] == "primary cooling, backup 500"  # type: ignore[attr-defined]
    status, retry_after = fourth.value.status_code, fourth.value.response.headers["retry-after"]  # type: ignore[attr-defined]
    assert (status, retry_after) == (503, "5")  # the backup's cooldown (the route's 5 s) ends first
    lines = [r.getMessage() for r in caplog.records if r.name == "interlingua.gateway"]
    assert ' upstream=backup status=200 ' in lines[0] and ' hops="primary 429, backup 200"' in lines[0]


def test_a_primary_that_times_out_falls_over_to_the_next(fakes: dict[str, FakeVendor]) -> None:
    slow, backup = fakes["gemini"], fakes["anthropic-messages"]
    slow.reply(Reply.text("too late", delay=2.0))
    route = Route("smart", upstreams=(upstream(slow, "slow", timeout=0.3), upstream(backup, "backup")))
    with gateway(route) as url:
        sdk = chat_sdk(url)
        started = time.monotonic()
        text, headers = ask_chat(sdk, "smart")
        took = time.monotonic() - started

    assert text == "served by anthropic-messages"
    assert headers[HOPS_HEADER] == "slow timeout, backup 200"
    assert took < 1.5  # the route's 0.3 s, not the slow upstream's 2 s


def chat_stream_bytes(text: str) -> bytes:
    """A chat completions stream as the chat codec writes it (the first event alone, then the rest)."""
    from interlingua._sse import render_event

    events = Reply.text(text).stream_events("gpt-4o")
    return b"".join(render_event(e) for e in get_codec("openai-chat").encode_stream(events))


@pytest.mark.parametrize(
    ("after", "served"),
    [
        pytest.param(0, "served by anthropic-messages", id="before-the-first-event-falls-over"),
        pytest.param(-60, None, id="after-the-first-event-ends-in-an-error-event"),
    ],
)
def test_a_stream_that_breaks_falls_over_only_before_its_first_event_reached_the_caller(
    fakes: dict[str, FakeVendor], after: int, served: str | None
) -> None:
    import anthropic

    broken, backup = VendorServer(), fakes["anthropic-messages"]
    sse = chat_stream_bytes("one two three four five six seven eight")
    broken.answer = Answer(sse=sse)
    broken.faults.append(Fault("reset", after=after % len(sse)))
    hops = (Upstream("openai-chat", base_url=broken.url + "/v1", name="broken"), upstream(backup, "backup"))
    try:
        with gateway(Route("smart", upstreams=hops)) as url:
            sdk = anthropic_sdk(url)
            kwargs: dict[str, Any] = {"model": "smart", "max_tokens": 64, "messages": HI}
            if served is None:
                with pytest.raises(anthropic.APIStatusError), sdk.messages.stream(**kwargs) as events:
                    assert events.response.headers[UPSTREAM_HEADER] == "broken"
                    events.get_final_message()
            else:
                with sdk.messages.stream(**kwargs) as events:
                    text = events.get_final_text()
                    headers = events.response.headers
                assert (text, headers[HOPS_HEADER]) == (served, "broken connection, backup 200")
    finally:
        broken.close()
    assert len(backup.exchanges) == (0 if served is None else 1)


def test_a_stream_whose_vendor_reports_an_overload_before_its_first_part_falls_over(
    fakes: dict[str, FakeVendor],
) -> None:
    """Anthropic may answer 200 and then send an ``overloaded_error`` event (the SDK's report of it:
    github.com/anthropics/anthropic-sdk-python/issues/1258): nothing of the answer has reached the
    caller yet, so the next upstream serves it."""
    claude, gemini = fakes["anthropic-messages"], fakes["gemini"]
    overloaded = OverloadedError("Overloaded", type="overloaded_error")
    claude.reply(Reply.stream(MessageStart(id="msg_1", model="claude-sonnet-4-5"), ErrorEvent(overloaded)))
    route = Route("smart", upstreams=(upstream(claude, "claude"), upstream(gemini, "gemini")))
    with gateway(route) as url:
        stream = chat_sdk(url).chat.completions.with_raw_response.create(model="smart", messages=HI, stream=True)
        text = "".join(chunk.choices[0].delta.content or "" for chunk in stream.parse() if chunk.choices)

    assert (text, stream.headers[HOPS_HEADER]) == ("served by gemini", "claude 529, gemini 200")
    assert len(claude.exchanges) == len(gemini.exchanges) == 1


HISTORY = [
    {"role": "user", "content": "What is 2+2?"},
    {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "A simple sum.", "signature": "EqQBCkYIBxgCKkDsig"},
            {"type": "text", "text": "4"},
        ],
    },
    {"role": "user", "content": "And 3+3?"},
]


def test_a_cross_vendor_hop_withholds_signed_thinking_and_says_so(fakes: dict[str, FakeVendor]) -> None:
    claude, gemini = fakes["anthropic-messages"], fakes["gemini"]
    claude.reply(Reply.error(529, "Overloaded", kind="overloaded_error"))
    route = Route("smart", upstreams=(upstream(claude, "claude"), upstream(gemini, "gemini")))
    with gateway(route) as url:
        text, headers = ask_anthropic(anthropic_sdk(url), "smart", HISTORY)

    assert text == "served by gemini"
    # the hop's request warning, then the answer's (a gemini usage field Claude's usage has no place for)
    assert headers[WARNINGS_HEADER] == "2; messages[1].parts[0], usage.extra.totalTokenCount"
    assert headers[HOPS_HEADER] == "claude 529, gemini 200 warnings=1"
    [sent_claude], [sent_gemini] = claude.requests, gemini.requests
    assert isinstance(sent_claude.messages[1].parts[0], Thinking)  # the primary was sent the signed thinking
    assert [p.type for p in sent_gemini.messages[1].parts] == ["text"]  # the hop withheld it, and warned


def test_fallback_strict_refuses_a_lossy_hop_and_takes_one_that_keeps_the_signed_thinking(
    fakes: dict[str, FakeVendor],
) -> None:
    import anthropic

    claude, gemini = fakes["anthropic-messages"], fakes["gemini"]
    other_claude = FakeVendor("anthropic-messages", default=Reply.text("served by the other claude"))
    hops = (
        upstream(claude, "claude"),
        upstream(gemini, "gemini"),
        Upstream("anthropic-messages", base_url=other_claude.base_url, model="claude-haiku-4-5", name="haiku"),
    )
    claude.reply(*[Reply.error(529, "Overloaded", kind="overloaded_error")] * 2)
    try:
        with gateway(Route("smart", upstreams=hops, fallback_strict=True, cooldown=0)) as url:
            sdk = anthropic_sdk(url)
            text, headers = ask_anthropic(sdk, "smart", HISTORY)
            other_claude.reply(Reply.error(503, "down too", kind="api_error"))
            with pytest.raises(anthropic.APIStatusError) as refused:
                ask_anthropic(sdk, "smart", HISTORY)
    finally:
        other_claude.close()

    assert (text, headers[HOPS_HEADER]) == ("served by the other claude", "claude 529, gemini lossy, haiku 200")
    assert WARNINGS_HEADER not in headers
    [kept] = [p for p in other_claude.requests[0].messages[1].parts if isinstance(p, Thinking)]
    assert kept.provider_echoes[0].data == {"signature": "EqQBCkYIBxgCKkDsig"}  # Claude to Claude: kept
    assert gemini.exchanges == []
    assert refused.value.status_code == 503
    assert refused.value.response.headers[HOPS_HEADER] == "claude 529, gemini lossy, haiku 503"


def test_weights_share_the_requests_of_one_order_and_a_later_order_waits(fakes: dict[str, FakeVendor]) -> None:
    heavy, light, spare = fakes["anthropic-messages"], fakes["openai-chat"], fakes["gemini"]
    hops = (
        upstream(heavy, "heavy", order=1, weight=3),
        upstream(light, "light", order=1, weight=1),
        upstream(spare, "spare", order=2),
    )
    with gateway(Route("smart", upstreams=hops)) as url:
        sdk = chat_sdk(url)
        served = [ask_chat(sdk, "smart")[1][UPSTREAM_HEADER] for _ in range(200)]

    # 3:1 of 200 is 150; the binomial's standard deviation is 6.1, so 4 of them either side.
    assert 125 <= served.count("heavy") <= 175 and served.count("light") == 200 - served.count("heavy")
    assert (len(heavy.exchanges), len(light.exchanges), len(spare.exchanges)) == (
        served.count("heavy"),
        served.count("light"),
        0,
    )


# --- the configuration --------------------------------------------------------------------------

FALLBACK_CONFIG = """\
[gateway]
keys_env = "GATEWAY_KEYS"
state = "redis://127.0.0.1:6379/0"   # ids and cooldowns, shared by every instance

[[route]]
match = "smart"
fallback_strict = false   # true: a hop that would lose part of the request is skipped
cooldown = 30             # seconds a failed upstream rests, when it sent no retry-after

[[route.upstream]]        # order 1: three requests in four
name = "claude"
codec = "anthropic-messages"
model = "claude-sonnet-4-6"
api_key_env = "ANTHROPIC_API_KEY"
order = 1
weight = 3

[[route.upstream]]        # order 1: one request in four
name = "gpt"
codec = "openai-responses"
model = "gpt-5.1"
api_key_env = "OPENAI_API_KEY"
order = 1
weight = 1

[[route.upstream]]        # order 2: only when both above failed or are cooling down
name = "gemini"
codec = "gemini"
model = "gemini-3-flash-preview"
api_key_env = "GEMINI_API_KEY"
order = 2
timeout = 60
"""


def test_the_documented_fallback_config_loads_its_upstreams_and_shared_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("redis")
    from interlingua.gateway._redis import RedisCooldowns, RedisIdStore

    for name in ("GATEWAY_KEYS", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.setenv(name, "k")
    path = tmp_path / "gateway.toml"
    path.write_text(FALLBACK_CONFIG)

    config = load_config(path)

    [route] = config.routes
    assert [(u.label, u.codec, u.order, u.weight) for u in route.hops()] == [
        ("claude", "anthropic-messages", 1, 3),
        ("gpt", "openai-responses", 1, 1),
        ("gemini", "gemini", 2, 1.0),
    ]
    assert (route.fallback_strict, route.cooldown, route.hops()[2].timeout) == (False, 30, 60)
    assert isinstance(config.id_store, RedisIdStore) and isinstance(config.cooldowns, RedisCooldowns)
    assert FALLBACK_CONFIG in (Path(__file__).parents[2] / "docs" / "guide" / "gateway.md").read_text()


UPSTREAM = '[[route.upstream]]\ncodec = "gemini"\n'


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (f'[[route]]\nmatch = "*"\ncodec = "gemini"\n{UPSTREAM}', "route[0]: a route with [[route.upstream]] takes"),
        (f'[[route]]\nmatch = "*"\n{UPSTREAM}weight = 0\n', "route[0].upstream[0]: weight must be a positive"),
        (f'[[route]]\nmatch = "*"\n{UPSTREAM}order = "first"\n', "route[0].upstream[0]: order must be a whole"),
        (f'[[route]]\nmatch = "*"\n{UPSTREAM}name = "a b"\n', "route[0].upstream[0]: name must be"),
        (f'[[route]]\nmatch = "*"\n{UPSTREAM}key = "sk"\n', "route[0].upstream[0]: needs codec; unknown keys ['key']"),
        (f'[[route]]\nmatch = "*"\ncooldown = -1\n{UPSTREAM}', "route[0]: cooldown must be"),
        ('[[route]]\nmatch = "*"\n[[route.upstream]]\ncodec = "acme"\n', "route[0].upstream[0]: codec 'acme' is not"),
        (f'[gateway]\nopen = true\nid_store = "a.db"\nstate = "b.db"\n[[route]]\nmatch = "*"\n{UPSTREAM}', "not both"),
    ],
)
def test_a_fallback_route_the_gateway_cannot_run_is_refused_with_its_reason(
    tmp_path: Path, text: str, error: str
) -> None:
    path = tmp_path / "gateway.toml"
    path.write_text(text if text.startswith("[gateway]") else f"[gateway]\nopen = true\n{text}")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert error in str(caught.value)


def test_sqlite_cooldowns_are_shared_by_two_opened_stores_and_a_longer_one_holds(tmp_path: Path) -> None:
    import asyncio

    from interlingua.gateway import SqliteCooldowns

    async def run() -> dict[str, float]:
        one, other = SqliteCooldowns(str(tmp_path / "state.db")), SqliteCooldowns(str(tmp_path / "state.db"))
        await one.cool("a", 30)
        await other.cool("a", 1)  # shorter: the longer holds
        await one.cool("b", 0.05)
        await asyncio.sleep(0.1)  # b is over
        return await other.remaining(["a", "b", "c"])

    seen = asyncio.run(run())
    assert list(seen) == ["a"] and 29 < seen["a"] <= 30


@pytest.mark.parametrize("stream", [False, True], ids=["answer", "stream"])
def test_with_telemetry_on_each_hop_is_a_span_of_its_own(fakes: dict[str, FakeVendor], stream: bool) -> None:
    """A fallback is two upstream calls: the failed hop's span ends in error with its status, the
    serving hop's names its own model (not the caller's route name), streamed or not."""
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import StatusCode

    import interlingua as il

    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    primary, backup = fakes["anthropic-messages"], fakes["gemini"]
    primary.reply(Reply.error(429, "rate limited", kind="rate_limit_error"))
    route = Route("smart", upstreams=(upstream(primary, "primary"), upstream(backup, "backup")))
    il.instrument(tracer_provider=provider)
    try:
        with gateway(route) as url:
            sdk = chat_sdk(url)
            if stream:
                chunks = sdk.chat.completions.create(model="smart", messages=HI, stream=True)
                text = "".join(chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices)
            else:
                text = ask_chat(sdk, "smart")[0]
            deadline = time.monotonic() + 5  # a streamed span ends when the relay's generator closes
            while len(spans.get_finished_spans()) < 2 and time.monotonic() < deadline:
                time.sleep(0.02)
    finally:
        il.uninstrument()

    failed, served = sorted(spans.get_finished_spans(), key=lambda span: span.start_time)
    assert text == "served by gemini"
    assert failed.status.status_code is StatusCode.ERROR and failed.attributes["error.type"] == "429"
    assert failed.attributes["gen_ai.request.model"] == MODELS["anthropic-messages"]
    assert served.status.status_code is StatusCode.UNSET
    assert served.attributes["gen_ai.request.model"] == MODELS["gemini"]


def test_the_access_line_names_the_host_the_serving_upstream_went_through(
    fakes: dict[str, FakeVendor], caplog: pytest.LogCaptureFixture
) -> None:
    """An upstream request is encoded for its codec's host (``Codec.host_for``: what a signed block
    made through another host needs) and the access line says which: after a fallback, the host
    of the upstream that served; a codec that names no host (Chat Completions) leaves it out."""
    primary, backup, chat = fakes["gemini"], fakes["anthropic-messages"], fakes["openai-chat"]
    primary.reply(Reply.error(429, "rate limited", kind="RESOURCE_EXHAUSTED", retry_after=30))
    smart = Route("smart", upstreams=(upstream(primary, "primary"), upstream(backup, "backup")), cooldown=5)
    plain = Route("plain", upstreams=(upstream(chat, "chat"),))
    with gateway(smart, plain) as url, caplog.at_level(logging.INFO, logger="interlingua.gateway"):
        sdk = anthropic_sdk(url)
        ask_anthropic(sdk, "smart")
        ask_anthropic(sdk, "plain")
    lines = [r.getMessage() for r in caplog.records if r.name == "interlingua.gateway"]
    assert " upstream=backup status=200 " in lines[0] and lines[0].endswith(" host=anthropic")
    assert " upstream=chat status=200 " in lines[1] and " host=" not in lines[1]
