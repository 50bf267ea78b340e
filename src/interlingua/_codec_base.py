"""CodecBase: the Codec protocol's optional members with their defaults, and the wiring every
codec shares, so a codec's ``_codec.py`` is a table of contents of its own modules."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from ._codec import Capabilities, Endpoint, HttpRequest, Serving, encode_for_host
from ._media_rules import MediaTypes
from ._normalize import ReasoningPolicy, TurnRules, encode_with_rules
from ._read import decoding
from ._tool_names import restore_event, restore_request, restore_response
from ._warned_stream import DecodedStream, EncodedStream
from ._warnings import Encoded, WarningSink, noting_unmapped

if TYPE_CHECKING:
    from ._batch import Batching
    from ._errors import ProviderError
    from ._handles import Resolver
    from ._request import Request
    from ._response import Response
    from ._sniff import Sniffed
    from ._sse import SSEEvent
    from ._stream import StreamEvent
    from ._tuning import TuningFile


class CodecBase:
    """A codec's base class: subclass it, set the class attributes, write the hooks.

    Set ``name``, ``provider``, ``capabilities`` and ``rules`` (and, as the wire has them,
    ``api_key_env``, ``oracle``, ``conformance``, ``serving``). Write the hooks, each one call into
    a module of the codec's package:

    - ``write_request(ready, strict) -> Encoded``: the body of a request already made to keep
      ``rules`` (``encode_request`` resolves handles and normalizes first);
    - ``read_request(body, model) -> Request`` and ``read_response(body) -> Response``: run
      under ``decoding`` (depth check, stray errors as DecodeError naming the codec);
    - ``read_stream(events, out)`` / ``write_stream(events, out)``: the event iterators, with
      the stream's warning sink; ``decode_stream`` / ``encode_stream`` wrap them;
    - ``encode_response(response, *, strict) -> Encoded`` and ``decode_error(...)``, as the
      protocol has them;
    - ``wire_request(body, request, *, stream, endpoint) -> HttpRequest``: the URL and headers
      for an encoded body (``body`` is a fresh dict, the hook's to change); ``http_request``
      encodes (once, or takes the caller's ``Encoded``) and puts the Encoded on the result.

    The optional members default to: no key variable, no oracle, no conformance data, not served,
    claiming no body or stream (``sniff`` / ``sniff_stream``), no JSON-array streams, the same key
    variables behind every door (``api_key_env_for``), no count endpoint (``count_request``;
    ``read_count`` reads ``input_tokens``), no model list (``models_request``; ``read_models``
    reads ``data[].id``) and ``provider`` as the telemetry name (``genai_provider``)."""

    name: str
    provider: str
    capabilities: Capabilities
    rules: TurnRules
    api_key_env: tuple[str, ...] = ()
    oracle: str | None = None
    conformance: str | None = None
    serving: Serving | None = None
    batching: Batching | None = None
    writes_unmapped: frozenset[str] | None = None
    """The ``unmapped`` keys of its own provider's echoes this codec writes back, where codecs share
    a provider (each reports the other's); None: all of them."""
    genai_provider: str | None = None
    tuning: TuningFile | None = None
    media_types: Mapping[str, MediaTypes] = {}
    """The inline media types the wire takes, per kind of part, with sources (see
    ``interlingua._media_rules``); a kind not stated is sent as it is."""
    response_depth_check = True
    """Whether ``decode_response`` refuses a body nested too deep before ``read_response`` reads
    it (False: the codec's reader checks what it keeps unread itself)."""

    # --- the hooks a codec writes --------------------------------------------------------------

    def rules_for(self, request: Request) -> TurnRules:
        """The turn rules this request is held to: ``rules``, unless a request can change them
        (a Responses request continuing stored state answers calls the body does not show)."""
        return self.rules

    def write_request(self, ready: Request, strict: bool, host: str | None = None) -> Encoded:
        """The body for ``ready``; ``host``: the host it goes through, given only where
        ``host_for`` names one (a codec whose body does not depend on it may leave it out)."""
        raise NotImplementedError(f"{type(self).__qualname__} writes no requests")

    def read_request(self, body: Mapping[str, Any], model: str | None) -> Request:
        raise NotImplementedError(f"{type(self).__qualname__} reads no requests")

    def read_response(self, body: Mapping[str, Any]) -> Response:
        raise NotImplementedError(f"{type(self).__qualname__} reads no responses")

    def read_stream(self, events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
        raise NotImplementedError(f"{type(self).__qualname__} reads no streams")

    def write_stream(self, events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
        raise NotImplementedError(f"{type(self).__qualname__} writes no streams")

    def wire_request(
        self, body: dict[str, Any], request: Request, *, stream: bool, endpoint: Endpoint
    ) -> HttpRequest:
        raise NotImplementedError(f"{type(self).__qualname__} sends nothing")

    def encode_response(self, response: Response, *, strict: bool = False) -> Encoded:
        raise NotImplementedError(f"{type(self).__qualname__} writes no responses")

    def decode_error(self, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
        raise NotImplementedError(f"{type(self).__qualname__} reads no errors")

    # --- the protocol's members, wired -----------------------------------------------------------

    def encode_request(
        self,
        request: Request,
        *,
        strict: bool = False,
        reasoning: ReasoningPolicy = "drop",
        resolve: Resolver | None = None,
        host: str | None = None,
    ) -> Encoded:
        """The body. The transcript is first made to keep the API's rules (``rules``, see
        ``interlingua.kit.TurnRules``); ``reasoning`` says what happens to thinking the target
        cannot take back: dropped (default) or sent as text, reported either way. ``host``: the
        host the body goes through (``host_for``), handed to ``write_request``."""
        return encode_with_rules(
            request,
            self.rules_for(request),
            self.write_request if host is None else partial(self.write_request, host=host),
            codec=self.name,
            strict=strict,
            reasoning=reasoning,
            resolve=resolve,
            provider=self.provider,
            writes_unmapped=self.writes_unmapped,
        )

    def noting_unmapped(self, encoded: Encoded, response: Response, *, strict: bool) -> Encoded:
        """``encode_response``'s last step: every other provider's echo keys marked ``unmapped``
        on the answer reported dropped (``encode_request`` does it for a request)."""
        return noting_unmapped(
            encoded, response.message, own=self.provider, codec=self.name, strict=strict, writes=self.writes_unmapped
        )

    def decode_request(self, body: Mapping[str, Any], *, model: str | None = None) -> Request:
        """A body -> IR. ``model``: the model the body was sent to, where the wire names it
        outside the body (in the URL); a wire whose body names it reads it from there."""
        with decoding(self.name, body):
            return restore_request(self.read_request(body, model))

    def decode_response(self, body: Mapping[str, Any]) -> Response:
        with decoding(self.name, body if self.response_depth_check else None):
            return restore_response(self.read_response(body))

    def decode_stream(self, events: Iterable[SSEEvent]) -> DecodedStream:
        out = WarningSink(self.name)
        return DecodedStream(self._read_stream(events, out), out)

    def _read_stream(self, events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
        with decoding(self.name):
            for event in self.read_stream(events, out):
                yield restore_event(event)

    def encode_stream(self, events: Iterable[StreamEvent], *, strict: bool = False) -> EncodedStream:
        out = WarningSink(self.name)
        return EncodedStream(self.write_stream(events, out), out, strict=strict)

    def http_request(
        self, request: Request, *, stream: bool, endpoint: Endpoint, encoded: Encoded | None = None
    ) -> HttpRequest:
        host = self.host_for(endpoint.settings)
        if encoded is None:
            encoded = encode_for_host(self, request, host)
        sent = self.wire_request(dict(encoded.body), request, stream=stream, endpoint=endpoint)
        return replace(sent, encoded=encoded, host=sent.host or host)

    # --- optional members: the defaults ------------------------------------------------------------

    def api_key_env_for(self, settings: Mapping[str, str]) -> tuple[str, ...] | None:
        return tuple(self.api_key_env)

    def host_for(self, settings: Mapping[str, str]) -> str | None:
        return None

    def count_request(self, request: Request, *, endpoint: Endpoint) -> HttpRequest | None:
        return None

    def read_count(self, body: Mapping[str, Any]) -> int:
        count = body.get("input_tokens")
        if not isinstance(count, int) or isinstance(count, bool):
            from ._errors import DecodeError

            raise DecodeError(self.name, "input_tokens", f"the count answer has no token count: {dict(body)!r:.200}")
        return count

    def models_request(self, *, endpoint: Endpoint, page: str | None = None) -> HttpRequest | None:
        return None

    def read_models(self, body: Mapping[str, Any]) -> tuple[list[str], str | None]:
        from ._errors import DecodeError

        data = body.get("data")
        if not isinstance(data, list):
            raise DecodeError(self.name, "data", f"the model list has no data list: {dict(body)!r:.200}")
        ids: list[str] = []
        for i, item in enumerate(data):
            found = item.get("id") if isinstance(item, Mapping) else None
            if not isinstance(found, str):
                raise DecodeError(self.name, f"data[{i}].id", "a model-list entry has no string id")
            ids.append(found)
        return ids, None

    def sniff(self, body: Mapping[str, Any]) -> Sniffed | None:
        return None

    def sniff_stream(self, first_events: Sequence[tuple[str, Any]]) -> Sniffed | None:
        return None

    def decode_json_array_stream(self, chunks: Iterable[bytes]) -> DecodedStream | None:
        return None

    # --- helpers for wire_request ------------------------------------------------------------------

    @staticmethod
    def json_headers(
        endpoint: Endpoint, key_header: str | None = None, *, bearer: bool = False, fixed: Mapping[str, str] = {}
    ) -> dict[str, str]:
        """``content-type: application/json``, the wire's ``fixed`` headers, the endpoint's key in
        ``key_header`` (as ``Bearer <key>`` with ``bearer``) where it has one (a local server
        takes none), then the endpoint's own headers, which win."""
        headers = {"content-type": "application/json", **fixed}
        if key_header is not None and endpoint.api_key:
            headers[key_header] = f"Bearer {endpoint.api_key}" if bearer else endpoint.api_key
        headers.update(endpoint.headers)
        return headers

    @staticmethod
    def base_url(endpoint: Endpoint, default: str) -> str:
        """The endpoint's base URL, else ``default``, without a trailing slash."""
        return (endpoint.base_url or default).rstrip("/")
