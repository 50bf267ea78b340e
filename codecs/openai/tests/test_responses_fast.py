"""openai-responses: the readers and writers of common items (``responses/_fast.py``) against the
careful ones. Wherever the fast ones answer, a body decodes to the same IR (values, types and set
fields) and an IR encodes to the same body with the same warnings; bad input fails with the same
DecodeError. Checked on the real corpus, the golden fixtures, the benchmark transcript and
generated IR and wire items; and the common shapes of real traffic do take the fast path."""

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
    Encoded,
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
from interlingua.kit import Turn, encode_with_rules
from interlingua.testing import (
    assert_decodes_alike,
    assert_same_json,
    declining,
    encode_outcome,
    load_body,
    load_script,
    real_fixtures,
    skip_without_corpus,
    strategies,
)
from interlingua_openai.responses import OpenAIResponsesCodec, _fast, _request
from interlingua_openai.responses._items import ItemWriter, encode_careful

CODEC = OpenAIResponsesCodec()
ROOT = Path(__file__).resolve().parents[3]
GOLDEN = sorted(p for p in (ROOT / "fixtures/openai-responses/request").glob("*.json") if ".ir." not in p.name)
REQUESTS = [*real_fixtures("openai-responses", "request"), *GOLDEN]
FAST = ("decode_own_message", "decode_assistant_string", "decode_call_output", "encode_message")


def careful_only() -> AbstractContextManager[None]:
    """Every fast reader and writer declines, so each item and message goes the careful way."""
    return declining(_fast, *FAST)


def _transcript_body() -> dict[str, Any]:
    """The benchmark's 40-message transcript, as the body it encodes to."""
    bench = load_script(ROOT / "bench/bench_openai_responses.py")
    body: dict[str, Any] = CODEC.encode_request(bench.transcript()).body
    return body


def _assert_decodes_alike(body: Any) -> Request | None:
    return assert_decodes_alike(CODEC.decode_request, careful_only, body)


def _encoded(request: Request) -> tuple[Any, list[Any]]:
    encoded: Encoded = CODEC.encode_request(request)
    return encoded.body, encoded.warnings


def _assert_encodes_alike(request: Request) -> tuple[Any, list[Any]]:
    fast = _encoded(request)
    with careful_only():
        careful = _encoded(request)
    assert json.dumps(fast[0]) == json.dumps(careful[0])  # same keys in the same order
    assert fast[1] == careful[1]
    return fast


# --- the recorded traffic ------------------------------------------------------------------------


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_fast_and_careful_paths_agree_on_every_recorded_request(path: Path) -> None:
    body = load_body(path)
    request = _assert_decodes_alike(body)
    assert request is not None
    assert_same_json(body, _assert_encodes_alike(request)[0])


def test_fast_and_careful_paths_agree_on_the_benchmark_transcript() -> None:
    body = _transcript_body()
    request = _assert_decodes_alike(body)
    assert request is not None and len(request.messages) == 40
    assert _assert_encodes_alike(request) == (body, [])


def _taken(items: list[Any]) -> list[str]:
    """Which items of an input list a fast reader takes, named by type and content shape."""
    taken = []
    for item in items:
        shape = f"{item.get('type', item.get('role'))}:{type(item.get('content', item.get('output'))).__name__}"
        found = (
            _fast.decode_own_message(item)
            or _fast.decode_assistant_string(item, after_content=False)
            or _fast.decode_call_output(item, {})
        )
        if found is not None:
            taken.append(shape)
    return taken


def test_the_common_shapes_of_real_traffic_take_the_fast_path() -> None:
    skip_without_corpus()
    taken: set[str] = set()
    for path in real_fixtures("openai-responses", "request"):
        items = load_body(path)["input"]
        taken.update(_taken(items if isinstance(items, list) else []))
    assert taken == {"user:str", "user:list", "function_call_output:str", "assistant:str"}


def test_every_item_and_message_of_the_benchmark_transcript_takes_the_fast_path() -> None:
    body = _transcript_body()
    calls = [item for item in body["input"] if item.get("type") == "function_call"]
    assert len(_taken(body["input"])) + len(calls) == len(body["input"]) == 53
    request = CODEC.decode_request(body)
    assert [m.role for m in request.messages if _fast.encode_message(m, []) is None] == []


def test_the_image_detail_decode_kept_is_written_back_by_the_fast_writer() -> None:
    url = "data:image/png;base64,AAAA"
    for block in (
        {"type": "input_image", "image_url": url},
        {"type": "input_image", "image_url": url, "detail": "low"},
    ):
        body = {"model": "m", "input": [{"role": "user", "content": [block]}]}
        request = _assert_decodes_alike(body)
        assert request is not None and _fast.encode_message(request.messages[0], []) == body["input"]
        assert _assert_encodes_alike(request) == (body, [])


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
@given(_REQUESTS)
def test_fast_and_careful_paths_agree_on_generated_ir(request: Request) -> None:
    body, _ = _assert_encodes_alike(request)
    _assert_decodes_alike(body)


@given(_MESSAGES)
def test_the_fast_writer_answers_only_with_what_the_careful_one_writes_without_a_warning(message: Message) -> None:
    turns: list[Turn] = []
    items = _fast.encode_message(message, turns)
    ids = [
        p.id if isinstance(p, ToolUse) else p.tool_use_id for p in message.parts if isinstance(p, ToolUse | ToolResult)
    ]
    assert [(role, list(noted)) for role, noted in turns] == ([] if items is None else [(message.role, ids)])
    writer = ItemWriter(WarningSink(CODEC.name), "gpt-5", synthesize=False)
    encode_careful(message, "messages[0]", writer)
    if items is not None:
        assert (json.dumps(items), writer.out.warnings) == (json.dumps(writer.items), [])


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_REQUESTS, strategies.requests(well_formed=False)), st.booleans())
def test_checking_the_rules_from_the_turns_written_encodes_as_checking_them_first(
    request: Request, strict: bool
) -> None:
    """The codec writes first and checks the rules from the turns its writer noted; the same
    body, warnings or error as normalizing first (``encode_with_rules``), fixed or not."""
    codec = OpenAIResponsesCodec()  # tool ids rewritten by another example stay out
    expected = encode_outcome(lambda: _checking_first(codec, request, strict))
    assert encode_outcome(lambda: codec.encode_request(request, strict=strict)) == expected


def _checking_first(codec: OpenAIResponsesCodec, request: Request, strict: bool) -> Encoded:
    """How the codec encoded before it noted turns: the turn rules first, then the writer."""
    return encode_with_rules(
        request,
        codec.rules,
        lambda ready, strict: _request.encode_request(ready, strict=strict, budgets=codec.budgets),
        codec=codec.name,
        strict=strict,
        reasoning="drop",
    )


def test_a_request_fixed_by_the_rules_writes_again_only_the_messages_the_fix_made() -> None:
    """The messages a fix keeps are the same objects: their items come back from the first pass."""
    request = CODEC.decode_request(_transcript_body())
    tools = [i for i, m in enumerate(request.messages) if m.role == "tool"][:3]
    broken = request.model_copy(update={"messages": [m for i, m in enumerate(request.messages) if i not in tools]})
    written: list[Message] = []
    original = _fast.encode_message

    def noting(message: Message, turns: list[Turn]) -> list[Any] | None:
        written.append(message)
        return original(message, turns)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_fast, "encode_message", noting)
        encoded = CODEC.encode_request(broken)
    paths = [w.path for w in encoded.warnings]
    assert paths == ["messages[2].parts[1]", "messages[3].parts[1]", "messages[4].parts[1]"]  # unanswered
    again = written[len(broken.messages) :]  # the tool messages of the error results added, only
    assert [m.role for m in again] == ["tool"] * 3 and not any(m is given for m in again for given in broken.messages)
    assert encoded == _checking_first(CODEC, broken, strict=False)


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
def test_fast_and_careful_paths_agree_on_generated_items_and_their_errors(items: list[Any]) -> None:
    _assert_decodes_alike({"model": "gpt-5", "input": items})
