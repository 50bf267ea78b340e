"""Streams that end badly, against the local vendor server, sync and async, on every wire: each
fault raises StreamError with the partial answer from the loop itself, ``response()`` afterwards
gives that same outcome at once, and every test runs under a timeout so a hang fails it."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest

import interlingua as il

from .conftest import KEY, SCENARIOS, codec_params, through
from .test_client import _request
from .vendor_server import Answer, Fault, VendorServer

pytestmark = pytest.mark.parametrize("wire", codec_params())

FAST = il.RetryPolicy(max_retries=0)
SECONDS = 15.0  # generous: a healthy run takes well under a second even on a loaded machine
T = TypeVar("T")

# What starts each wire's final event: the one after which its decoder gives message_end. A chat
# stream completes at its finish_reason chunk: [DONE] is not needed (recordings in the chunks
# format leave it out, and neither the openai SDK nor vercel/ai requires it).
FINAL = {
    "anthropic-messages": rb'"type":\s*"message_stop"',
    "openai-chat": rb'"finish_reason":\s*"',
    "openai-responses": rb'"type":\s*"response\.completed"',
    "gemini": rb'"finishReason":\s*"',
}
# Where the codec says the malformed event sits (the number of the event it replaced).
BAD_AT = {
    "anthropic-messages": "events[6]",
    "openai-chat": "events[12]",
    "openai-responses": "events[13]",
    "gemini": "chunk[22]",
}


def _within(seconds: float, run: Callable[[], T]) -> T:
    """``run()`` on a daemon thread; a run that has not finished after ``seconds`` fails the test
    (no signal.alarm: it would not interrupt a wait on a lock, and pytest-timeout is not installed)."""
    box: list[tuple[bool, Any]] = []

    def target() -> None:
        try:
            box.append((True, run()))
        except BaseException as exc:  # handed back to the test's thread
            box.append((False, exc))

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"hung: still running after {seconds} s")
    ok, value = box[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]  # what run() returned


@dataclass
class Outcome:
    """What a caller saw: the events of the loop, what it raised, and what ``response()``
    gave (or raised) after it."""

    events: list[il.StreamEvent]
    error: il.StreamError | None
    after: il.Response | il.StreamError


def _setup(wire: str, vendor: VendorServer) -> tuple[il.Request, bytes, int, bytes]:
    scenario = SCENARIOS[wire]
    raw = scenario.files(scenario.stream)[2].read_bytes()
    vendor.answer = Answer(sse=raw)
    found = re.search(FINAL[wire], raw)
    assert found is not None
    sep = b"\r\n\r\n" if b"\r\n\r\n" in raw else b"\n\n"
    final = raw.rfind(sep, 0, found.start()) + len(sep)
    return _request(scenario, scenario.stream, il.get_codec(wire)), raw, final, sep


def _locally(wire: str, data: bytes) -> tuple[list[il.StreamEvent], il.Response, il.DecodeError | None]:
    """The events the codec decodes from ``data`` (up to a DecodeError), and the answer so far."""
    acc = il.StreamAccumulator()
    events: list[il.StreamEvent] = []
    try:
        for event in il.get_codec(wire).decode_stream(il.parse_sse([data])):
            events.append(event)
            acc.add(event)
    except il.DecodeError as error:
        return events, acc.snapshot(), error
    return events, acc.snapshot(), None


def _sync(wire: str, vendor: VendorServer, request: il.Request) -> Outcome:
    scenario = SCENARIOS[wire]
    with il.Client(wire, api_key=KEY, base_url=vendor.url + scenario.prefix, retry=FAST) as client:
        got: list[il.StreamEvent] = []
        error: il.StreamError | None = None
        with client.stream(request) as events:
            try:
                for event in events:
                    got.append(event)
            except il.StreamError as exc:
                error = exc
            try:
                after: il.Response | il.StreamError = events.response()
            except il.StreamError as exc:
                after = exc
    return Outcome(got, error, after)


def _async(wire: str, vendor: VendorServer, request: il.Request) -> Outcome:
    scenario = SCENARIOS[wire]

    async def go() -> Outcome:
        async with il.AsyncClient(wire, api_key=KEY, base_url=vendor.url + scenario.prefix, retry=FAST) as client:
            got: list[il.StreamEvent] = []
            error: il.StreamError | None = None
            async with client.stream(request) as events:
                try:
                    async for event in events:
                        got.append(event)
                except il.StreamError as exc:
                    error = exc
                try:
                    after: il.Response | il.StreamError = await events.response()
                except il.StreamError as exc:
                    after = exc
        return Outcome(got, error, after)

    return _within(SECONDS * 2, lambda: asyncio.run(asyncio.wait_for(go(), SECONDS)))


RUNNERS = {"sync": lambda *a: _within(SECONDS, lambda: _sync(*a)), "async": _async}
modes = pytest.mark.parametrize("mode", list(RUNNERS))


@modes
def test_a_healthy_stream_then_response_returns_at_once(wire: str, mode: str, vendor: VendorServer) -> None:
    request, raw, _, _ = _setup(wire, vendor)
    expected_events, _, _ = _locally(wire, raw)
    seen = RUNNERS[mode](wire, vendor, request)
    assert seen.events == expected_events and seen.error is None
    assert seen.after == through(wire, il.accumulate(expected_events))


@modes
def test_a_stream_cut_before_its_final_event_raises_from_the_loop(wire: str, mode: str, vendor: VendorServer) -> None:
    request, _, final, _ = _setup(wire, vendor)
    vendor.faults.append(Fault("cut", after=final))
    expected_events, partial, _ = _locally(wire, vendor.answer.sse[:final])  # type: ignore[index]
    seen = RUNNERS[mode](wire, vendor, request)
    assert seen.events == expected_events
    assert type(seen.error) is il.StreamError
    assert str(seen.error) == "the stream ended before the message was complete"
    assert seen.error.partial == through(wire, partial) and partial.stop_reason is None and partial.message.parts
    assert seen.after is seen.error


@modes
def test_a_stream_closed_mid_event_raises_with_what_came_before(wire: str, mode: str, vendor: VendorServer) -> None:
    """The half-sent final event is dropped by the SSE framing (an event is complete only at
    its blank line), so the answer is the one cut before that event."""
    request, raw, final, _ = _setup(wire, vendor)
    vendor.faults.append(Fault("cut", after=final + 20))
    expected_events, partial, _ = _locally(wire, raw[:final])
    seen = RUNNERS[mode](wire, vendor, request)
    assert seen.events == expected_events
    assert type(seen.error) is il.StreamError and seen.error.partial == through(wire, partial)
    assert seen.after is seen.error


@modes
def test_a_malformed_event_is_a_stream_error_and_a_decode_error(wire: str, mode: str, vendor: VendorServer) -> None:
    request, raw, final, sep = _setup(wire, vendor)
    vendor.answer = Answer(sse=raw[:final] + b"data: {not json" + sep + raw[final:])
    expected_events, partial, local = _locally(wire, vendor.answer.sse)  # type: ignore[arg-type]
    seen = RUNNERS[mode](wire, vendor, request)
    assert seen.events == expected_events
    error = seen.error
    assert isinstance(error, il.StreamDecodeError) and isinstance(error, il.DecodeError)
    assert (error.codec, error.path) == (wire, BAD_AT[wire]) and error.reason.startswith("data is not JSON")
    assert local is not None and (local.codec, local.path, local.reason) == (error.codec, error.path, error.reason)
    assert isinstance(error.__cause__, il.DecodeError) and error.__cause__.path == error.path
    assert error.partial == through(wire, partial) and partial.message.parts
    assert seen.after is error


@modes
def test_a_connection_reset_keeps_the_partial_and_response_does_not_wait(
    wire: str, mode: str, vendor: VendorServer
) -> None:
    """A reset may lose bytes the client had not read yet (all of them, on a slow machine), and a
    decoder may close open parts where its input ends; the partial is exactly what the events
    that did arrive add up to."""
    request, raw, final, _ = _setup(wire, vendor)
    vendor.faults.append(Fault("reset", after=final))
    sent, _, _ = _locally(wire, raw[:final])
    seen = RUNNERS[mode](wire, vendor, request)
    assert seen.events[:1] in ([], sent[:1])
    assert type(seen.error) is il.StreamError and str(seen.error).startswith("the stream broke off")
    acc = il.StreamAccumulator()
    for event in seen.events:
        acc.add(event)
    assert seen.error.partial == through(wire, acc.snapshot())
    assert seen.after is seen.error


def test_async_iterating_twice_and_after_aclose_never_waits(wire: str, vendor: VendorServer) -> None:
    """The threaded decoder posts its end once; a second loop, or response() after aclose(),
    must not wait for another."""
    request, raw, _, _ = _setup(wire, vendor)
    expected_events, _, _ = _locally(wire, raw)
    scenario = SCENARIOS[wire]

    async def go() -> tuple[list[il.StreamEvent], list[il.StreamEvent], il.Response, il.Response]:
        async with il.AsyncClient(wire, api_key=KEY, base_url=vendor.url + scenario.prefix, retry=FAST) as client:
            events = client.stream(request)
            first = [event async for event in events]
            second = [event async for event in events]
            response = await events.response()
            await events.aclose()
            return first, second, response, await events.response()

    first, second, response, closed = _within(SECONDS * 2, lambda: asyncio.run(asyncio.wait_for(go(), SECONDS)))
    assert first == expected_events and second == []
    assert response == closed == through(wire, il.accumulate(expected_events))


@modes
def test_response_after_leaving_the_block_early_raises_with_what_was_read(
    wire: str, mode: str, vendor: VendorServer
) -> None:
    """Leaving the block closes the stream, dropping what was received but not read (sync and
    async alike); ``response()`` after it has nothing more to read and says so at once."""
    request, _, _, _ = _setup(wire, vendor)
    scenario = SCENARIOS[wire]
    url = vendor.url + scenario.prefix

    def sync() -> tuple[il.StreamEvent, il.StreamError, il.StreamError]:
        with il.Client(wire, api_key=KEY, base_url=url, retry=FAST) as client:
            with client.stream(request) as events:
                first = next(iter(events))
            with pytest.raises(il.StreamError) as caught:
                events.response()
            with pytest.raises(il.StreamError) as again:
                events.response()
            return first, caught.value, again.value

    async def go() -> tuple[il.StreamEvent, il.StreamError, il.StreamError]:
        async with il.AsyncClient(wire, api_key=KEY, base_url=url, retry=FAST) as client:
            async with client.stream(request) as events:
                first = await anext(aiter(events))
            with pytest.raises(il.StreamError) as caught:
                await events.response()
            with pytest.raises(il.StreamError) as again:
                await events.response()
            return first, caught.value, again.value

    if mode == "sync":
        first, error, again = _within(SECONDS, sync)
    else:
        first, error, again = _within(SECONDS * 2, lambda: asyncio.run(asyncio.wait_for(go(), SECONDS)))
    assert str(error) == "the stream ended before the message was complete" and again is error
    acc = il.StreamAccumulator()
    acc.add(first)
    assert error.partial == through(wire, acc.snapshot())
