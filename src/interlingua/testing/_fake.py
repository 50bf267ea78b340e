"""A fake vendor on loopback: any installed wire served with scripted answers, no key, no network.

``FakeVendor(wire)`` listens on 127.0.0.1 (a free port) and answers each request
at the wire's own path (the path the codec's ``http_request`` sends to) with the next scripted
:class:`Reply`, written by the codec: a JSON answer, or a stream when the request asks for one
(in the wire's own framing), or the wire's error body with a status. What it received is kept,
decoded into the IR, on ``received``. With ``validate=True`` each request body is also checked
against the codec's oracle (the vendor SDK's types and the vendor rules types miss, see
``validate_wire`` and ``check_rules``): a body the real API would refuse gets a 400 naming the
problems, which are also kept on ``problems``. Where the wire's vendor has a token-count endpoint
(the codec's ``count_request``), the fake answers it too: the request's compact JSON length / 4,
in the answer the codec reads (its exchange has ``count=True``).

Everything the fake knows about a wire it learns from the codec: where requests go and how a
stream is asked for (two ``http_request`` calls, one per mode), how answers, streams and errors
are written (``encode_response``, ``encode_stream``, ``serving.error``). So a codec installed
later is served the same way, and the fake stays as right as the codecs are.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import unquote, urlsplit

from .._batch import FakeBatches
from .._codec import Codec, Endpoint, ListedModel, Serving
from .._errors import InterlinguaError
from .._message import Message
from .._parts import ContentPart, Text, ToolUse
from .._registry import get_codec
from .._request import Request
from .._response import Response, StopReason, Usage
from .._sse import render_event
from .._stream import MessageEnd, MessageStart, PartEnd, PartStart, StreamEvent, TextDelta, ToolInputDelta
from ._loopback import Answer, Received, VendorServer

_MODEL = "fake-model-0"
"""The model the probe requests name, found again in the URL templates they give."""
_PROBE = Endpoint(api_key="fake-key", settings={"aws_region": "us-east-1"})
"""What a codec needs to build a URL at all (a key; a region for a cloud host's wire)."""
_FRAMES_TYPE = "application/vnd.amazon.eventstream"
"""The media type of binary event-stream frames, the one stream framing that is not SSE."""


@dataclass(frozen=True)
class Reply:
    """One scripted answer. ``parts`` (text and tool calls) make the answer, or its stream when the
    request asks for one; ``events`` script the stream exactly instead. ``status`` other than 200
    answers with the wire's error body carrying ``message`` (``kind``: the vendor's error type,
    ``retry_after``: seconds, sent as ``retry-after``). ``delay`` waits that many seconds first."""

    parts: tuple[ContentPart, ...] = ()
    stop: StopReason = "end_turn"
    usage: Usage | None = None
    events: tuple[StreamEvent, ...] | None = None
    status: int = 200
    message: str = ""
    kind: str | None = None
    retry_after: float | None = None
    delay: float = 0.0

    @classmethod
    def text(cls, text: str, *, usage: Usage | None = None, delay: float = 0.0) -> Reply:
        """An answer of one text part."""
        return cls(parts=(Text(text),), usage=usage, delay=delay)

    @classmethod
    def tool_call(
        cls, name: str, input: Mapping[str, Any], *, id: str = "call_1", text: str | None = None, delay: float = 0.0
    ) -> Reply:
        """An answer that calls one tool (after ``text``, when given): stop reason ``tool_use``."""
        call = ToolUse(id, name, dict(input))
        parts = (call,) if text is None else (Text(text), call)
        return cls(parts=parts, stop="tool_use", delay=delay)

    @classmethod
    def stream(cls, *events: StreamEvent, delay: float = 0.0) -> Reply:
        """A stream of exactly these IR events (for a request that asks for a stream)."""
        return cls(events=events, delay=delay)

    @classmethod
    def error(
        cls, status: int, message: str, *, kind: str | None = None, retry_after: float | None = None, delay: float = 0.0
    ) -> Reply:
        """The wire's error answer: ``status`` with ``message`` in the vendor's error body."""
        return cls(status=status, message=message, kind=kind, retry_after=retry_after, delay=delay)

    def response(self, model: str | None) -> Response:
        usage = self.usage or Usage(input_tokens=12, output_tokens=sum(_tokens(p) for p in self.parts) or 1)
        message = Message(role="assistant", parts=list(self.parts))
        return Response(id="fake_1", model=model, message=message, stop_reason=self.stop, usage=usage)

    def stream_events(self, model: str | None) -> list[StreamEvent]:
        """The scripted events, or the parts as a stream: text in word-sized deltas, a tool call's
        input as one delta, as vendors stream them."""
        if self.events is not None:
            return list(self.events)
        answer = self.response(model)
        events: list[StreamEvent] = [MessageStart(id=answer.id, model=model)]
        for i, part in enumerate(self.parts):
            if isinstance(part, Text):
                events.append(PartStart(i, Text("")))
                events += [TextDelta(i, piece) for piece in re.findall(r"\S+\s*|\s+", part.text)]
            elif isinstance(part, ToolUse):
                events.append(PartStart(i, ToolUse(part.id, part.name, {})))
                events.append(ToolInputDelta(i, json.dumps(part.input)))
            else:
                events.append(PartStart(i, part))
            events.append(PartEnd(i))
        return [*events, MessageEnd(self.stop, None, answer.usage)]


def _tokens(part: ContentPart) -> int:
    return len(part.text.split()) if isinstance(part, Text) else 8


@dataclass
class Exchange:
    """One request the fake received: the HTTP facts, the body decoded into the IR (None when it
    did not decode, or a count: ``problems`` says why), whether it asked for a stream, and what was
    wrong with it (a decode error; under ``validate``, the oracle's findings)."""

    received: Received
    request: Request | None
    stream: bool
    problems: list[str] = field(default_factory=list)
    count: bool = False
    """A token-count request (the codec's ``count_request``), answered with a count."""

    @property
    def path(self) -> str:
        return self.received.path

    @property
    def headers(self) -> dict[str, str]:
        return self.received.headers

    @property
    def body(self) -> Any:
        return self.received.body


class _Route:
    """Where one wire's requests land and how a stream is asked for, read from two probe
    ``http_request`` calls: the URL (the model found again in it, where a wire puts it there), the
    body keys only a stream request sets, the base URL a client of this wire is given."""

    def __init__(self, codec: Codec) -> None:
        probe = Request(model=_MODEL, max_tokens=1, messages=[Message.user("hi")])
        plain = codec.http_request(probe, stream=False, endpoint=_PROBE)
        streamed = codec.http_request(probe, stream=True, endpoint=_PROBE)
        local = Endpoint(base_url="http://fake", api_key=_PROBE.api_key, settings=_PROBE.settings)
        here = codec.http_request(probe, stream=False, endpoint=local)
        self.plain, self.streamed = self._pattern(plain.url), self._pattern(streamed.url)
        self.stream_keys = {k: v for k, v in streamed.json.items() if plain.json.get(k) != v}
        self.drop = {*self.stream_keys, *(k for k in plain.json if k not in streamed.json or k in self.stream_keys)}
        self.framed = streamed.events is not None
        # The path the codec adds to a base URL of its own; the rest of the default URL's path is
        # what a client's base_url must end with ("/v1" where the codec's default base has it).
        full, added = urlsplit(plain.url).path, urlsplit(here.url).path
        self.prefix = full[: len(full) - len(added)] if full.endswith(added) else ""
        self.shown = urlsplit(plain.url).path.replace(_MODEL, "{model}")
        counted = codec.count_request(probe, endpoint=_PROBE)
        self.count = None if counted is None else self._pattern(counted.url)
        listed = codec.models_request(endpoint=_PROBE)
        self.models = None if listed is None else self._pattern(listed.url)

    @staticmethod
    def _pattern(url: str) -> re.Pattern[str]:
        path = re.escape(urlsplit(url).path).replace(re.escape(_MODEL), "(?P<model>[^/]+?)")
        return re.compile(path + r"\Z")

    def match(self, path: str, body: Any) -> tuple[bool, str | None] | None:
        """``(stream, model in the path)`` for a request at ``path``, or None: not this wire's."""
        path = urlsplit(path).path
        for pattern, stream in ((self.streamed, True), (self.plain, False)):
            found = pattern.match(path)
            if found is None:
                continue
            model = unquote(found.group("model")) if "model" in pattern.groupindex else None
            if self.streamed.pattern == self.plain.pattern:  # the body asks for the stream
                stream = isinstance(body, dict) and any(
                    body.get(k) == v for k, v in self.stream_keys.items() if v is True
                )
            return stream, model
        return None


class FakeVendor(VendorServer):
    """A vendor on loopback speaking ``wire`` (an installed codec's name), answering each request
    with the next of the scripted replies (``reply``), then with ``default``.

    Point a client at ``base_url`` (for interlingua's ``Client``, and for the vendor's own SDK:
    it is the base URL that SDK takes; ``url`` is the bare ``http://127.0.0.1:PORT``). Use it as
    a context manager, or ``close()`` it. ``exchanges`` holds each request, decoded.
    """

    def __init__(
        self,
        wire: str,
        *replies: Reply,
        validate: bool = False,
        default: Reply | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        models: Sequence[str] = (),
    ) -> None:
        self.codec = get_codec(wire)
        self.models = list(models)
        """The model ids its model list (the codec's ``models_request`` URL) names, on one page."""
        self.wire = wire
        self.validate = validate
        self.default = default or Reply.text(f"Hello from a fake {wire}.")
        self.exchanges: list[Exchange] = []
        self._route = _Route(self.codec)
        self._script: list[Reply] = list(replies)
        self._script_lock = threading.Lock()
        super().__init__(host, port)
        self.batches = FakeBatches(self._batch_answer, url=self.url)
        """The batches this fake holds, where the wire has a batch API (``Client.batch``)."""

    def __enter__(self) -> FakeVendor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def base_url(self) -> str:
        return self.url + self._route.prefix

    @property
    def path(self) -> str:
        """The path requests go to (``{model}`` where the model sits in it)."""
        return self._route.shown

    @property
    def requests(self) -> list[Request]:
        """The IR requests received, in order (those that decoded)."""
        return [e.request for e in self.exchanges if e.request is not None]

    @property
    def problems(self) -> list[str]:
        """Every problem found in a received body, in order."""
        return [p for e in self.exchanges for p in e.problems]

    def reply(self, *replies: Reply) -> FakeVendor:
        """Queue ``replies``: the next requests get them in order."""
        with self._script_lock:
            self._script.extend(replies)
        return self

    # --- one request (on the server's thread) --------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        received = self._read(handler)
        with self._lock:
            self.received.append(received)
        if self._batch_call(handler, received):
            return
        if self._route.count is not None and self._route.count.match(urlsplit(received.path).path):
            self._count(handler, received)
            return
        listing = self._route.models
        if received.method == "GET" and listing is not None and listing.match(urlsplit(received.path).path):
            self._list(handler)
            return
        found = self._route.match(received.path, received.body)
        if found is None:
            message = f"{self.wire} is served at {self._route.shown}, not {urlsplit(received.path).path}"
            if self._route.prefix and not received.path.startswith(self._route.prefix):
                message += f" (does the base URL end with {self._route.prefix}?)"
            self._error(handler, Reply.error(404, message))
            return
        stream, model = found
        exchange = Exchange(received, None, stream)
        with self._lock:
            self.exchanges.append(exchange)
        exchange.problems = self._problems(received.body, model)
        if exchange.problems:
            self._error(handler, Reply.error(400, "; ".join(exchange.problems), kind="invalid_request_error"))
            return
        exchange.request = self._decode(received.body, model)
        with self._script_lock:
            reply = self._script.pop(0) if self._script else self.default
        if reply.delay:
            time.sleep(reply.delay)
        if reply.status != 200:
            self._error(handler, reply)
            return
        answer_model = exchange.request.model or model
        if stream:
            self._stream(handler, self._frames(reply.stream_events(answer_model)), None)
        else:
            body = self.codec.encode_response(reply.response(answer_model)).body
            self._send(handler, 200, {}, json.dumps(body).encode(), "application/json")

    def _batch_call(self, handler: BaseHTTPRequestHandler, received: Received) -> bool:
        """A call of the wire's batch API (``Codec.batching.api.serve``), answered: its lines go
        through the scripted replies as requests would; False where it is not one."""
        batching = self.codec.batching
        if batching is None or batching.api is None or batching.api.serve is None:
            return False
        with self._script_lock:
            found = batching.api.serve(self.batches, received.method, urlsplit(received.path).path, received.body)
        if found is None:
            return False
        status, body = found
        if isinstance(body, bytes):
            self._send(handler, status, {}, body, "application/jsonl")
        else:
            self._send(handler, status, {}, json.dumps(body).encode(), "application/json")
        return True

    def _batch_answer(self, body: Mapping[str, Any], model: str | None = None) -> tuple[int, Mapping[str, Any]]:
        """One batch line's request run as a request is (decoded, kept on ``exchanges``, answered
        with the next scripted reply): the status and the wire's answer or error body."""
        exchange = Exchange(Received("POST", "batch", {}, body), None, False)
        self.exchanges.append(exchange)
        exchange.problems = self._problems(body, model)
        if exchange.problems:
            return 400, self._error_body(Reply.error(400, "; ".join(exchange.problems), kind="invalid_request_error"))
        exchange.request = self._decode(body, model)
        reply = self._script.pop(0) if self._script else self.default
        if reply.status != 200:
            return reply.status, self._error_body(reply)
        return 200, self.codec.encode_response(reply.response(exchange.request.model or model)).body

    def _list(self, handler: BaseHTTPRequestHandler) -> None:
        """The model list, in the page the wire serves (the gateway's writer: ``Serving.models``),
        else as ``{"data": [{"id"}]}``."""
        listing = self.codec.serving.models if self.codec.serving is not None else None
        listed = [ListedModel(model, self.codec.provider) for model in self.models]
        body = listing.page(listed) if listing is not None else {"data": [{"id": model.id} for model in listed]}
        self._send(handler, 200, {}, json.dumps(body).encode(), "application/json")

    def _count(self, handler: BaseHTTPRequestHandler, received: Received) -> None:
        """A count request (the codec's ``count_request`` URL): a 400 unless its body is a JSON
        object; else its compact JSON length / 4 as the count, in the answer the codec reads."""
        with self._lock:
            self.exchanges.append(exchange := Exchange(received, None, False, count=True))
        if not isinstance(received.body, dict):
            exchange.problems = ["the request body is not a JSON object"]
            self._error(handler, Reply.error(400, exchange.problems[0], kind="invalid_request_error"))
            return
        tokens = len(json.dumps(received.body, separators=(",", ":"))) // 4
        self._send(handler, 200, {}, json.dumps(self._count_answer(tokens)).encode(), "application/json")

    def _count_answer(self, tokens: int) -> dict[str, Any]:
        """The count answer as the wire's own server writes it: its served form where the codec
        serves one, else the first common form its ``read_count`` reads back."""
        serving = self.codec.serving
        if serving is not None and serving.counting is not None:
            return serving.counting.answer(tokens)
        for key in ("input_tokens", "inputTokens", "totalTokens"):
            with contextlib.suppress(InterlinguaError):
                if self.codec.read_count({key: tokens}) == tokens:
                    return {key: tokens}
        raise ValueError(f"{self.wire}: no count answer its read_count reads")

    def _problems(self, body: Any, model: str | None) -> list[str]:
        if not isinstance(body, dict):
            return ["the request body is not a JSON object"]
        try:
            self._decode(body, model)
        except InterlinguaError as exc:
            return [str(exc)]
        if not self.validate:
            return []
        from ._oracle import check_rules, validate_wire

        sent = {k: v for k, v in body.items() if k not in self._route.drop}
        return validate_wire(self.wire, "request", sent) + check_rules(self.wire, sent, model=model)

    def _decode(self, body: Mapping[str, Any], model: str | None) -> Request:
        request = self.codec.decode_request({k: v for k, v in body.items() if k not in self._route.drop})
        if model is not None:
            request = request.model_copy(update={"model": model.removeprefix("models/")})
        return request

    def _frames(self, events: Sequence[StreamEvent]) -> Answer:
        written = self.codec.encode_stream(events)
        if self._route.framed:
            from .._eventstream import render_frames

            data = b"".join(render_frames((e.event or "", e.data.encode()) for e in written))
            return Answer(sse=data, chunk=512, media_type=_FRAMES_TYPE)
        return Answer(sse=b"".join(render_event(e) for e in written), chunk=512)

    def _error(self, handler: BaseHTTPRequestHandler, reply: Reply) -> None:
        body = self._error_body(reply)
        headers = {} if reply.retry_after is None else {"retry-after": f"{reply.retry_after:g}"}
        self._send(handler, reply.status, headers, json.dumps(body).encode(), "application/json")

    def _error_body(self, reply: Reply) -> dict[str, Any]:
        serving = getattr(self.codec, "serving", None)
        if isinstance(serving, Serving):
            return serving.error(reply.status, reply.message, reply.kind)
        return {"message": reply.message}  # a wire the gateway does not serve: the {"message": ...} its SDK reads

