"""Several gateway instances on one Redis: a real ``redis-server`` (the distribution's package) on a
free loopback port, started and stopped here; two ``interlingua serve`` processes share it."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest

from interlingua import ToolResult, ToolUse
from interlingua.gateway import HOPS_HEADER, UPSTREAM_HEADER
from interlingua.gateway._ids import STORED
from interlingua.testing import FakeVendor, Reply

from . import callers
from .conftest import free_port
from .test_ids import start_gateway

redis = pytest.importorskip("redis")


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (.ci/run installs it: apt-get install redis-server)")
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    command = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen([*command, "--dir", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url).ping()
            break
        except redis.ConnectionError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("redis-server did not start") from None
            time.sleep(0.02)
    yield url
    process.terminate()
    process.wait(10)


def test_redis_cooldowns_hold_across_instances_and_a_shorter_one_never_cuts_a_longer_one(redis_url: str) -> None:
    from interlingua.gateway._redis import RedisCooldowns, RedisIdStore

    async def run() -> dict[str, float]:
        one, other = RedisCooldowns(redis_url), RedisCooldowns(redis_url)
        await one.cool("a", 30)
        await other.cool("a", 1)  # shorter: a no-op
        await one.cool("b", 0.05)
        await asyncio.sleep(0.1)  # b is over
        seen = await other.remaining(["a", "b", "c"])
        await one.aclose()
        await other.aclose()
        return seen

    seen = asyncio.run(run())
    assert list(seen) == ["a"] and 29 < seen["a"] <= 30
    RedisIdStore(redis_url).put("ils0key", "call.original")
    assert RedisIdStore(redis_url).get("ils0key") == "call.original"
    assert RedisIdStore(redis_url).get("ils0other") is None


LONG_ID = "fc.lookup/2024-06-01#17.weather.forecast.hourly"
"""An upstream call id too long for Chat's 40 characters once encoded: it goes to the id store."""


Instances = tuple[str, str, dict[str, FakeVendor]]


@pytest.fixture(scope="module")
def two_instances(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instances]:
    """Two `interlingua serve` processes on one config whose state is the Redis above."""
    fakes = {
        "ids": FakeVendor("openai-responses"),
        "primary": FakeVendor("anthropic-messages", default=Reply.text("from the primary")),
        "backup": FakeVendor("gemini", default=Reply.text("from the backup")),
    }
    config = tmp_path_factory.mktemp("instances") / "gateway.toml"
    config.write_text(
        f'[gateway]\nopen = true\nstate = "{redis_url}"\n\n'
        f'[[route]]\nmatch = "ids"\ncodec = "openai-responses"\nbase_url = "{fakes["ids"].base_url}"\n\n'
        '[[route]]\nmatch = "smart"\n'
        + "".join(
            f'[[route.upstream]]\nname = "{name}"\ncodec = "{fakes[name].wire}"\nbase_url = "{fakes[name].base_url}"\n'
            for name in ("primary", "backup")
        )
    )
    first, a = start_gateway(config, dict(os.environ))
    try:
        second, b = start_gateway(config, dict(os.environ))
    except BaseException:
        a.kill()
        raise
    yield first, second, fakes
    for process in (a, b):
        process.terminate()
        process.wait(10)
    for fake in fakes.values():
        fake.close()


def test_an_id_one_instance_stored_in_redis_resolves_in_the_other(two_instances: Instances) -> None:
    first, second, fakes = two_instances
    fakes["ids"].reply(Reply.tool_call("lookup", {"name": "x"}, id=LONG_ID))

    calls = callers.ask("openai-chat", callers.client("openai-chat", first, "k"), "ids")
    assert [i[: len(STORED)] for i, _, _ in calls] == [STORED]
    callers.answer("openai-chat", callers.client("openai-chat", second, "k"), "ids", calls)

    parts = [p for m in fakes["ids"].requests[-1].messages for p in m.parts]
    sent = [p.id if isinstance(p, ToolUse) else p.tool_use_id for p in parts if isinstance(p, ToolUse | ToolResult)]
    assert sent == [LONG_ID, LONG_ID]


def test_a_cooldown_one_instance_saw_holds_in_the_other(two_instances: Instances) -> None:
    import anthropic

    first, second, fakes = two_instances
    fakes["primary"].reply(Reply.error(429, "rate limited", kind="rate_limit_error", retry_after=30))

    def ask(url: str) -> tuple[str, str]:
        sdk = anthropic.Anthropic(api_key="k", base_url=url, max_retries=0)
        hi = [{"role": "user", "content": "hi"}]
        raw = sdk.messages.with_raw_response.create(model="smart", max_tokens=8, messages=hi)
        assert raw.headers[UPSTREAM_HEADER] == "backup"
        return raw.parse().content[0].text, raw.headers[HOPS_HEADER]

    assert ask(first) == ("from the backup", "primary 429, backup 200")
    assert ask(second) == ("from the backup", "primary cooling, backup 200")
    assert len(fakes["primary"].exchanges) == 1 and len(fakes["backup"].exchanges) == 2
