"""openai-responses: the writer of common messages (``responses/_fast.py``, a measured second
writer) against the general one (``_items.encode_message``), and the one reader on real, golden and
generated input. Wherever the common writer answers, an IR encodes to the same body (keys in the
same order) with the same warnings or error; checked on the real corpus, the golden fixtures, the
benchmark transcript and generated IR; and the common shapes of real traffic do take it."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interlingua import (
    Base64Source,
    CacheControl,
    Citation,
    CitationSource,
    DecodeError,
    FileSource,
    Image,
    Message,
    ProviderEcho,
    Request,
    Text,
    ToolResult,
    ToolUse,
    UrlSource,
    WarningSink,
)
from interlingua.testing import (
    assert_same_json,
    declining,
    encode_outcome,
    load_body,
    load_script,
    real_fixtures,
    skip_without_corpus,
    strategies,
)
from interlingua_openai.responses import OpenAIResponsesCodec, _fast
from interlingua_openai.responses._items import ItemWriter, encode_message

CODEC = OpenAIResponsesCodec()
ROOT = Path(__file__).resolve().parents[3]
GOLDEN = sorted(p for p in (ROOT / "fixtures/openai-responses/request").glob("*.json") if ".ir." not in p.name)
REQUESTS = [*real_fixtures("openai-responses", "request"), *GOLDEN]


def general_only() -> AbstractContextManager[None]:
    """The common writer declines, so every message goes the general way."""
    return declining(_fast, "encode_message")


def _transcript_body() -> dict[str, Any]:
    """The benchmark's 40-message transcript, as the body it encodes to."""
    bench = load_script(ROOT / "bench/bench_openai_responses.py")
    body: dict[str, Any] = CODEC.encode_request(bench.transcript()).body
    return body


def _assert_encodes_alike(request: Request, strict: bool = False) -> tuple[Any, ...]:
    """Both writers give the same body (keys in the same order) and warnings, or the same error."""
    common = encode_outcome(lambda: CODEC.encode_request(request, strict=strict))
    with general_only():
        general = encode_outcome(lambda: CODEC.encode_request(request, strict=strict))
    assert common == general
    return common


# --- the recorded traffic ------------------------------------------------------------------------


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_both_writers_give_every_recorded_request_back_exactly(path: Path) -> None:
    body = load_body(path)
    request = CODEC.decode_request(body)
    text, warnings = _assert_encodes_alike(request)
    assert_same_json(body, json.loads(text))
    assert warnings == []


def test_both_writers_give_the_benchmark_transcript_back_exactly() -> None:
    body = _transcript_body()
    request = CODEC.decode_request(body)
    assert len(request.messages) == 40
    assert _assert_encodes_alike(request) == (json.dumps(body), [])


def _shape(message: Message) -> str:
    return f"{message.role}:" + "+".join(sorted({part.type for part in message.parts}))


def test_the_common_shapes_of_real_traffic_take_the_common_writer() -> None:
    skip_without_corpus()
    taken, declined = set(), set()
    for path in real_fixtures("openai-responses", "request"):
        for message in CODEC.decode_request(load_body(path)).messages:
            (taken if _fast.encode_message(message) is not None else declined).add(_shape(message))
    assert taken == {"assistant:tool_use", "tool:tool_result", "user:image+text", "user:text"}
    # reasoning, documents, instructions and results with an item id of their own go the general way
    assert declined == {
        "assistant:text+thinking",
        "assistant:thinking+tool_use",
        "system:text",
        "tool:tool_result",
        "user:document+text",
    }


def test_every_message_of_the_benchmark_transcript_takes_the_common_writer() -> None:
    request = CODEC.decode_request(_transcript_body())
    assert [m.role for m in request.messages if _fast.encode_message(m) is None] == []


def test_the_image_detail_decode_kept_is_written_back_by_the_common_writer() -> None:
    url = "data:image/png;base64,AAAA"
    for block in (
        {"type": "input_image", "image_url": url},
        {"type": "input_image", "image_url": url, "detail": "low"},
    ):
        body = {"model": "m", "input": [{"role": "user", "content": [block]}]}
        request = CODEC.decode_request(body)
        assert _fast.encode_message(request.messages[0]) == body["input"]
        text, warnings = _assert_encodes_alike(request)
        assert (json.loads(text), warnings) == (body, [])


# --- generated IR --------------------------------------------------------------------------------

_OPENAI = st.sampled_from(
    [
        {"item": {}, "string": True},
        {"item": {"id": "msg_1"}, "string": True},
        {"omit": ["detail"]},
        {"extra": {"detail": "low"}},
        {"extra": {"detail": "high", "file_id": "file-1"}},
        {"arguments": '{"a": 1}'},
        {"item": {"id": "fc_1", "status": "completed"}},
        {"item": {"type": "reasoning"}},
        {"list": True},
        {"instructions": True},
    ]
)
_ECHOES: st.SearchStrategy[list[ProviderEcho]] = st.one_of(
    st.just([]),
    _OPENAI.map(lambda data: [ProviderEcho(provider="openai", data=data)]),
    st.just([ProviderEcho(provider="acme", data={"k": "v"})]),
    strategies.echoes(),
)
_CACHE = st.none() | st.just(CacheControl())
_CITATION = Citation(source=CitationSource(type="url", url="https://example.com/a"), start=0, end=1)
_SOURCES = st.one_of(
    st.just(Base64Source(media_type="image/png", data="AAAA")),
    st.just(UrlSource(url="https://example.com/a.png")),
    st.just(FileSource(file_id="file-1", provider="openai")),
)
_EASY = [ProviderEcho(provider="openai", data={"item": {}, "string": True})]
_TEXT = st.builds(Text, text=strategies.texts)
_IMAGE = st.builds(Image, source=_SOURCES.filter(lambda s: not isinstance(s, FileSource)), provider_echoes=_ECHOES)
_CALL = st.builds(ToolUse, id=strategies.ids, name=strategies.names, input=strategies.json_objects())
_RESULT = st.builds(ToolResult, tool_use_id=strategies.ids, name=strategies.names, content=strategies.texts)
_COMMON = st.one_of(  # the shapes the fast writer takes, for each role
    st.builds(
        Message, role=st.sampled_from(["system", "developer", "user"]), parts=st.lists(_TEXT | _IMAGE, min_size=1)
    ),
    st.builds(
        Message,
        role=st.just("assistant"),
        parts=st.lists(
            _CALL | st.builds(Text, text=strategies.texts, provider_echoes=st.just(_EASY)),
            min_size=1,
            unique_by=strategies.call_key,
        ),
    ),
    st.builds(Message, role=st.just("tool"), parts=st.lists(_RESULT, min_size=1, max_size=3)),
)
_PARTS = st.one_of(  # and near misses, for the careful one
    st.builds(Text, text=strategies.texts, provider_echoes=_ECHOES, cache_control=_CACHE),
    st.builds(Text, text=strategies.texts, citations=st.just([_CITATION])),
    st.builds(Image, source=_SOURCES, provider_echoes=_ECHOES, cache_control=_CACHE),
    st.builds(
        ToolUse,
        id=strategies.ids,
        name=strategies.names,
        input=st.just({"a": 1}) | strategies.json_objects(),
        raw_input=st.none() | st.just("{oops"),
        provider_echoes=_ECHOES,
    ),
    st.builds(
        ToolResult,
        tool_use_id=strategies.ids,
        name=strategies.names,
        content=strategies.texts | st.lists(strategies.text_parts(), max_size=1),
        is_error=st.booleans(),
        provider_echoes=_ECHOES,
        cache_control=_CACHE,
    ),
    strategies.parts(),
)
_MESSAGES = strategies.writer_messages(_COMMON, _PARTS, _ECHOES)
_REQUESTS = st.one_of(
    st.builds(Request, model=st.just("gpt-5"), messages=st.lists(_MESSAGES, max_size=4)),
    st.builds(Request, model=st.just("gpt-5"), messages=strategies.conversations()),
    strategies.requests(),
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_REQUESTS, st.booleans())
def test_both_writers_agree_on_generated_ir(request: Request, strict: bool) -> None:
    _assert_encodes_alike(request, strict)


@given(_MESSAGES)
def test_the_common_writer_answers_only_with_what_the_general_one_writes_without_a_warning(message: Message) -> None:
    items = _fast.encode_message(message)
    writer = ItemWriter(WarningSink(CODEC.name), "gpt-5", synthesize=False)
    encode_message(message, 0, writer)
    if items is not None:
        assert (json.dumps(items), writer.out.warnings) == (json.dumps(writer.items), [])


# --- generated wire items ------------------------------------------------------------------------

_WRONG = st.sampled_from([3, None, ["x"]])
_EXTRA = st.sampled_from([{}, {}, {"type": "message"}, {"id": "msg_1"}, {"status": "completed"}])
_BLOCKS = st.one_of(
    st.fixed_dictionaries({"type": st.just("input_text"), "text": strategies.texts | _WRONG}),
    st.fixed_dictionaries(
        {"type": st.just("input_image"), "image_url": st.sampled_from(["data:image/png;base64,AAAA", "https://x/a"])},
        optional={"detail": st.sampled_from(["auto", "low", None]), "file_id": st.just("file-1")},
    ),
    st.fixed_dictionaries({"type": st.just("input_image"), "image_url": _WRONG}),
    st.fixed_dictionaries({"type": st.just("input_text"), "text": strategies.texts, "cache": st.just(1)}),
    st.fixed_dictionaries({"type": st.just("output_text"), "text": strategies.texts}),
    _WRONG,
)
_CONTENT = strategies.texts | st.lists(_BLOCKS, max_size=3) | _WRONG
_ROLES = st.sampled_from(["user", "system", "developer", "assistant", "critic", None])
_ITEMS = st.one_of(
    st.builds(lambda role, content, extra: {"role": role, "content": content, **extra}, _ROLES, _CONTENT, _EXTRA),
    st.fixed_dictionaries(
        {
            "type": st.just("function_call_output"),
            "call_id": st.sampled_from(["call_1", "call_2"]) | _WRONG,
            "output": strategies.texts | st.lists(_BLOCKS, max_size=2) | _WRONG,
        },
        optional={"name": strategies.names | _WRONG, "id": st.just("fco_1")},
    ),
    st.just({"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": "{}"}),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_ITEMS, max_size=5))
def test_malformed_items_fail_at_the_first_bad_item_with_its_path(items: list[Any]) -> None:
    """The one reader either reads every item or names the first one it cannot read: the items
    before it read alone, and its path is inside that item."""
    try:
        request = CODEC.decode_request({"model": "gpt-5", "input": items})
    except DecodeError as error:
        assert error.codec == "openai-responses"
        index = int(error.path.removeprefix("input[").partition("]")[0])
        assert error.path.startswith(f"input[{index}]") and index < len(items)
        CODEC.decode_request({"model": "gpt-5", "input": items[:index]})  # reads: the bad item is the first
        return
    assert sum(len(m.parts) or 1 for m in request.messages) >= len(items)  # no item is left out
