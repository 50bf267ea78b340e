"""Hypothesis strategies for the whole IR, for codec tests and third-party codec authors.

Two families: ``parts()``/``messages()``/``requests()`` build any IR value at all (codecs must
encode them without crashing, warning where they lose something); ``conversations()`` builds
well-formed transcripts (every tool call answered in the next turn), the shape real agents send.
Identifiers and names stay within what every vendor accepts, so encoded bodies can be validated.
"""

from __future__ import annotations

import base64
from functools import cache
from typing import Any

from hypothesis import strategies as st

from .._message import Message
from .._parts import (
    Audio,
    AudioOutput,
    Base64Source,
    CacheControl,
    Citation,
    CitationSource,
    ContentPart,
    Document,
    FileSource,
    Image,
    ImageOutput,
    Native,
    ProviderEcho,
    RedactedThinking,
    Text,
    TextSource,
    Thinking,
    ToolResult,
    ToolUse,
    UrlSource,
    Video,
)
from .._request import NativeTool, Request, ResponseFormat, ThinkingConfig, Tool, ToolChoice
from .._response import STOP_REASONS, Response, Usage


def _providers() -> tuple[str, ...]:
    from .._registry import codecs, get_codec

    return ("acme", *dict.fromkeys(get_codec(name).provider for name in codecs()))


PROVIDERS = _providers()
"""Echo and native providers drawn: a stranger's key, and the installed codecs' keys."""

_alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
names = st.text(alphabet=_alnum + "_", min_size=1, max_size=24).filter(lambda s: not s[0].isdigit())
ids = st.text(alphabet=_alnum + "_-", min_size=1, max_size=32)
texts = st.text(min_size=1, max_size=80)
keys = st.text(alphabet=_alnum + "_", min_size=1, max_size=12)


@cache
def json_values(max_leaves: int = 8) -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | st.integers(-(2**31), 2**31) | st.text(max_size=20)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
        max_leaves=max_leaves,
    )


@cache
def json_objects(max_size: int = 4) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(keys, json_values(), max_size=max_size)


@cache
def echoes() -> st.SearchStrategy[list[ProviderEcho]]:
    echo = st.builds(
        ProviderEcho,
        provider=st.sampled_from(PROVIDERS),
        data=st.dictionaries(keys, st.text(alphabet=_alnum, max_size=16), min_size=1, max_size=2),
        model=st.none() | st.just("model-1"),
    )
    return st.lists(echo, max_size=2, unique_by=lambda e: e.provider)


@cache
def cache_controls() -> st.SearchStrategy[CacheControl | None]:
    return st.none() | st.builds(CacheControl, ttl=st.sampled_from([None, "5m", "30m", "1h", "12h"]))


@cache
def _b64() -> st.SearchStrategy[str]:
    return st.binary(min_size=1, max_size=24).map(lambda b: base64.b64encode(b).decode())


@cache
def sources(media_types: tuple[str, ...] = ("image/png", "image/jpeg")) -> st.SearchStrategy[Any]:
    """Any MediaSource kind, with a media type drawn from ``media_types``."""
    media = st.sampled_from(media_types)
    return st.one_of(
        st.builds(Base64Source, media_type=media, data=_b64()),
        st.builds(UrlSource, url=ids.map(lambda s: f"https://example.com/{s}"), media_type=st.none() | media),
        st.builds(
            FileSource,
            file_id=ids.map(lambda s: f"file-{s}"),
            provider=st.none() | st.sampled_from(PROVIDERS),
            media_type=st.none() | media,
        ),
    )


@cache
def citations() -> st.SearchStrategy[Citation]:
    source = st.one_of(
        st.builds(CitationSource, type=st.just("url"), url=st.just("https://example.com/a"), title=st.none() | texts),
        st.builds(
            CitationSource,
            type=st.just("document"),
            index=st.integers(0, 3),
            start=st.integers(0, 5),
            end=st.integers(6, 20),
            unit=st.sampled_from(["char", "page", "block"]),
        ),
    )
    return st.builds(Citation, cited_text=st.none() | texts, source=source)


def _common(cache: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"provider_echoes": echoes()}
    if cache:
        out["cache_control"] = cache_controls()
    return out


@cache
def text_parts() -> st.SearchStrategy[Text]:
    return st.builds(Text, text=texts, citations=st.lists(citations(), max_size=1), **_common())


@cache
def input_parts() -> st.SearchStrategy[ContentPart]:
    """Parts a user turn may hold."""
    return st.one_of(
        text_parts(),
        st.builds(Image, source=sources(), **_common()),
        st.builds(Audio, source=sources(("audio/wav", "audio/mp3")), **_common()),
        st.builds(Video, source=sources(("video/mp4",)), **_common()),
        st.builds(
            Document,
            source=sources(("application/pdf",)) | st.builds(TextSource, text=texts),
            name=st.none() | texts,
            **_common(),
        ),
    )


@cache
def output_parts() -> st.SearchStrategy[ContentPart]:
    """Parts an assistant turn may hold."""
    return st.one_of(
        text_parts(),
        st.builds(Thinking, text=texts, **_common()),
        st.builds(RedactedThinking, provider_echoes=echoes()),
        tool_uses(),
        st.builds(ImageOutput, source=sources(), provider_echoes=echoes()),
        st.builds(
            AudioOutput,
            source=sources(("audio/wav",)),
            transcript=st.none() | texts,
            provider_echoes=echoes(),
        ),
        st.builds(
            Native,
            provider=st.sampled_from(PROVIDERS),
            data=json_objects().map(lambda d: {"type": "acme_block", **d}),
        ),
    )


@cache
def tool_uses(tool_id: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[ToolUse]:
    return st.builds(ToolUse, id=tool_id or ids, name=names, input=json_objects(), provider_echoes=echoes())


@cache
def _tool_result_content() -> st.SearchStrategy[Any]:
    return st.one_of(texts, st.lists(text_parts(), min_size=1, max_size=2), json_objects())


def tool_results(tool_id: str, name: str) -> st.SearchStrategy[ToolResult]:
    return st.builds(
        ToolResult,
        tool_use_id=st.just(tool_id),
        name=st.just(name),
        content=_tool_result_content(),
        is_error=st.booleans(),
        **_common(),
    )


@cache
def parts() -> st.SearchStrategy[ContentPart]:
    """Any part at all."""
    return st.one_of(input_parts(), output_parts(), ids.flatmap(lambda i: names.flatmap(lambda n: tool_results(i, n))))


@cache
def messages() -> st.SearchStrategy[Message]:
    """Any message: any role, any parts (codecs must cope, warning where they lose something)."""
    return st.builds(
        Message,
        role=st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
        parts=st.lists(parts(), min_size=1, max_size=3, unique_by=call_key),
    )


def call_key(part: ContentPart) -> object:
    """``unique_by`` for a list of parts: calls in one message get distinct ids, as every vendor
    that matches results by id demands (encoders refuse a repeated one)."""
    return part.id if isinstance(part, ToolUse) else id(part)


def writer_messages(
    common: st.SearchStrategy[Message],
    near_misses: st.SearchStrategy[ContentPart],
    echoes: st.SearchStrategy[list[ProviderEcho]],
    names: st.SearchStrategy[str | None] | None = None,
) -> st.SearchStrategy[Message]:
    """Messages for a codec's fast writer against its careful one: the ``common`` shapes it
    takes, each also with a last part from ``near_misses`` (so the writer must decline the whole
    message), and messages of any role mixing both, with message ``echoes`` and ``names`` (none
    when not given)."""
    last_misses = st.builds(
        lambda message, part: Message(role=message.role, parts=[*message.parts, part]), common, near_misses
    ).filter(lambda message: len({call_key(p) for p in message.parts}) == len(message.parts))
    any_parts = st.one_of(near_misses, common.flatmap(lambda message: st.sampled_from(message.parts)))
    mixed = st.builds(
        Message,
        role=st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
        parts=st.lists(any_parts, max_size=3, unique_by=call_key),
        provider_echoes=echoes,
        name=st.none() if names is None else names,
    )
    return st.one_of(common, last_misses, mixed)


@st.composite
def _tool_turn(draw: st.DrawFn) -> list[Message]:
    """An assistant turn calling tools, and the tool message answering every call."""
    calls = draw(st.lists(tool_uses(), min_size=1, max_size=3, unique_by=lambda p: p.id))
    lead = draw(
        st.lists(st.one_of(text_parts(), st.builds(Thinking, text=texts, provider_echoes=echoes())), max_size=1)
    )
    results = [draw(tool_results(call.id, call.name)) for call in calls]
    role = draw(st.sampled_from(["tool", "user"]))
    return [Message(role="assistant", parts=[*lead, *calls]), Message(role=role, parts=list(results))]


@st.composite
def conversations(draw: st.DrawFn, max_turns: int = 4) -> list[Message]:
    """A well-formed transcript: an optional system prompt, then user turns, each answered by the
    assistant directly or through a tool loop; it ends on a user (or tool) turn."""
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(Message(role=draw(st.sampled_from(["system", "developer"])), parts=[draw(text_parts())]))
    for _ in range(draw(st.integers(1, max_turns))):
        out.append(Message(role="user", parts=draw(st.lists(input_parts(), min_size=1, max_size=2))))
        if draw(st.booleans()):
            out.extend(draw(_tool_turn()))
        else:
            out.append(Message(role="assistant", parts=draw(st.lists(text_parts(), min_size=1, max_size=2))))
    out.append(Message(role="user", parts=[draw(text_parts())]))
    return out


@cache
def tools() -> st.SearchStrategy[Tool | NativeTool]:
    schema = st.just({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]})
    return st.one_of(
        st.builds(
            Tool,
            name=names,
            description=st.none() | texts,
            input_schema=schema,
            strict=st.none() | st.booleans(),
            cache_control=cache_controls(),
        ),
        st.builds(NativeTool, provider=st.sampled_from(PROVIDERS), data=st.just({"type": "acme_search"})),
    )


@cache
def _settings() -> dict[str, Any]:
    return {
        "tools": st.lists(tools(), max_size=2, unique_by=lambda t: getattr(t, "name", id(t))),
        "tool_choice": st.none() | st.sampled_from(["auto", "none", "required"]),
        "parallel_tool_calls": st.none() | st.booleans(),
        "max_tokens": st.none() | st.integers(1, 64000),
        "temperature": st.none() | st.floats(0, 1, allow_nan=False).map(lambda f: round(f, 2)),
        "top_p": st.none() | st.floats(0, 1, allow_nan=False).map(lambda f: round(f, 2)),
        "top_k": st.none() | st.integers(1, 100),
        "stop": st.none() | st.lists(st.text(alphabet=_alnum, min_size=1, max_size=8), min_size=1, max_size=3),
        "seed": st.none() | st.integers(0, 2**31),
        "presence_penalty": st.none() | st.floats(-2, 2, allow_nan=False).map(lambda f: round(f, 2)),
        "frequency_penalty": st.none() | st.floats(-2, 2, allow_nan=False).map(lambda f: round(f, 2)),
        "thinking": st.none()
        | st.builds(
            ThinkingConfig,
            level=st.none() | st.sampled_from(["off", "minimal", "low", "medium", "high", "xhigh"]),
            budget_tokens=st.none() | st.integers(1024, 32000),
            summary=st.none() | st.booleans(),
        ),
        "response_format": st.none()
        | st.one_of(
            st.builds(ResponseFormat, type=st.sampled_from(["text", "json_object"])),
            st.builds(
                ResponseFormat,
                type=st.just("json_schema"),
                name=names,
                strict=st.none() | st.booleans(),
                json_schema=st.just(
                    {
                        "type": "object",
                        "properties": {"a": {"type": "string"}},
                        "required": ["a"],
                        "additionalProperties": False,
                    }
                ),
            ),
        ),
    }


@st.composite
def requests(draw: st.DrawFn, *, well_formed: bool = True) -> Request:
    """A request with any settings; its messages are a :func:`conversations` transcript when
    ``well_formed`` (the default), else any :func:`messages` at all."""
    msgs = draw(conversations()) if well_formed else draw(st.lists(messages(), min_size=1, max_size=5))
    settings: dict[str, Any] = {key: draw(strategy) for key, strategy in _settings().items()}
    tool_list = settings["tools"]
    functions = [t for t in tool_list if isinstance(t, Tool)]
    force_call: bool = draw(st.booleans())
    if functions and force_call:
        settings["tool_choice"] = ToolChoice(name=functions[0].name)
    return Request(model=draw(st.sampled_from(["model-1", "model-2"])), messages=msgs, **settings)


@cache
def usages() -> st.SearchStrategy[Usage]:
    @st.composite
    def build(draw: st.DrawFn) -> Usage:
        read = draw(st.none() | st.integers(0, 500))
        write = draw(st.none() | st.integers(0, 500))
        reasoning = draw(st.none() | st.integers(0, 500))
        return Usage(
            input_tokens=(read or 0) + (write or 0) + draw(st.integers(0, 5000)),
            output_tokens=(reasoning or 0) + draw(st.integers(0, 5000)),
            cache_read_tokens=read,
            cache_write_tokens=write,
            reasoning_tokens=reasoning,
        )

    return build()


@cache
def responses() -> st.SearchStrategy[Response]:
    return st.builds(
        Response,
        id=st.none() | ids,
        model=st.none() | st.just("model-1"),
        message=st.builds(Message, role=st.just("assistant"), parts=st.lists(output_parts(), min_size=1, max_size=4)),
        stop_reason=st.none() | st.sampled_from(STOP_REASONS),
        usage=usages(),
    )
