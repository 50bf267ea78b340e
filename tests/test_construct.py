"""``construct`` and ``maker`` (the decoders' unvalidated constructors) against ``model_validate``:
same instance, same dump (key order included), same fields set, fresh mutable defaults, pickling,
frozen-ness."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, ValidationError

import interlingua as il
from interlingua._model import replace
from interlingua.kit import construct, maker
from interlingua.testing.strategies import json_objects, keys, messages, names, requests, responses, texts

_APP = keys.map(lambda k: f"app.{k}")


def _models(value: Any) -> Iterator[BaseModel]:
    """Every model inside ``value``, outermost first."""
    if isinstance(value, BaseModel):
        yield value
        for name in type(value).model_fields:
            yield from _models(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _models(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _models(item)


def assert_constructs_like_validate(model: BaseModel) -> None:
    """The contract: construct of a model's own (checked) values is what model_validate makes."""
    cls = type(model)
    values = {name: getattr(model, name) for name in model.model_fields_set}
    made = maker(cls, *values)
    assert_built_like_validate(model, values, lambda: construct(cls, **values))
    assert_built_like_validate(model, values, lambda: made(**values))
    assert_built_like_validate(model, values, lambda: made(*values.values()))


def assert_built_like_validate(model: BaseModel, values: dict[str, Any], build: Any) -> None:
    cls = type(model)
    built = build()
    validated = cls.model_validate(values)
    assert type(built) is cls
    assert built == validated == model
    assert list(built.__dict__.items()) == list(validated.__dict__.items())
    assert built.model_fields_set == validated.model_fields_set == set(values)
    assert built.model_dump_json() == validated.model_dump_json()
    assert built.model_dump(mode="json", exclude_defaults=True) == validated.model_dump(
        mode="json", exclude_defaults=True
    )
    again = pickle.loads(pickle.dumps(built))
    assert again == built and again.model_fields_set == built.model_fields_set
    twin = build()
    for name, info in cls.model_fields.items():
        value = getattr(built, name)
        if name not in values and isinstance(value, list | dict):
            assert value is not getattr(twin, name), f"{cls.__name__}.{name}: a default shared between instances"
            assert value is not info.default, f"{cls.__name__}.{name}: the class default itself handed out"


def _with_metadata(draw: st.DrawFn, model: il.Request | il.Response) -> BaseModel:
    metadata = draw(st.dictionaries(_APP, texts, max_size=2))
    return model.with_metadata(metadata) if metadata else model


_warnings = st.one_of(
    st.builds(
        il.LossyEncode,
        codec=names,
        path=texts,
        message=texts,
        part_type=st.sampled_from(il.PART_TYPES),
        action=st.sampled_from(["dropped", "converted"]),
    ),
    st.builds(il.UnsupportedSetting, codec=names, path=texts, message=texts, setting=names),
    st.builds(il.ForeignOption, codec=names, path=texts, message=texts, provider=names, key=names),
    st.builds(il.LossyDecode, codec=names, path=texts, message=texts),
)
_costs = st.builds(
    il.Cost,
    input=st.none() | st.decimals(0, 10, places=4),
    output=st.none() | st.decimals(0, 10, places=4),
    total=st.decimals(0, 20, places=4),
    currency=st.sampled_from(["USD", "EUR"]),
    extra=st.dictionaries(names, st.decimals(0, 1, places=3), max_size=1),
)


@st.composite
def _ir_values(draw: st.DrawFn) -> BaseModel:
    """Any IR value, reaching the models the codec strategies leave out too (metadata, warnings,
    costs, handles, transcripts and their host entries)."""
    kind = draw(st.sampled_from(["request", "loose_request", "response", "transcript"]))
    if kind == "response":
        response = draw(responses())
        extra = {"warnings": draw(st.lists(_warnings, max_size=2)), "cost": draw(st.none() | _costs)}
        return _with_metadata(draw, response.model_copy(update=extra))
    if kind == "transcript":
        msgs = draw(st.lists(messages(), max_size=3))
        handle = il.MediaSource.handle(draw(names), "image/png")
        msgs.append(il.Message.user(il.Image(handle)))
        entries = [
            il.HostEntry(
                kind=draw(names),
                data=draw(json_objects()),
                at=draw(st.none() | st.just(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))),
                position=position,
            )
            for position in sorted(draw(st.lists(st.integers(0, len(msgs)), max_size=2)))
        ]
        metadata = draw(st.dictionaries(_APP, texts, max_size=2))
        return il.Transcript(messages=msgs, entries=entries, metadata=metadata)
    request = draw(requests(well_formed=kind == "request"))
    return _with_metadata(draw, request)


@settings(max_examples=60, deadline=None)
@given(_ir_values())
def test_construct_equals_model_validate_for_every_model_inside_any_ir_value(value: BaseModel) -> None:
    for model in _models(value):
        assert_constructs_like_validate(model)


@settings(max_examples=30, deadline=None)
@given(_ir_values(), st.data())
def test_replace_equals_model_copy_with_update(value: BaseModel, data: st.DataObject) -> None:
    donor = data.draw(st.sampled_from(list(_models(value))))
    for model in _models(value):
        shared = [name for name in type(model).model_fields if name in type(donor).model_fields]
        names = data.draw(st.lists(st.sampled_from(shared), unique=True, max_size=2)) if shared else []
        changes = {name: getattr(donor, name) for name in names}
        copied = model.model_copy(update=changes)
        replaced = replace(model, **changes)
        assert replaced == copied and type(replaced) is type(model)
        assert list(replaced.__dict__.items()) == list(copied.__dict__.items())
        assert replaced.model_fields_set == copied.model_fields_set == model.model_fields_set | set(changes)


def _concrete_ir_classes() -> list[type[BaseModel]]:
    exported = (getattr(il, name) for name in il.__all__ if not name.endswith("Client") and "Stream" not in name)
    found = [c for c in exported if isinstance(c, type) and issubclass(c, BaseModel)]
    return [c for c in found if c not in (il.MediaSource, il.ModelWarning)]  # bases, never instances


_EXAMPLES: list[BaseModel] = [
    il.Text("hi", citations=[il.Citation(source=il.CitationSource(type="url", url="https://example.com"))]),
    il.Image(il.MediaSource.from_url("https://example.com/a.png")),
    il.Audio(il.MediaSource.from_base64("audio/wav", "AAAA")),
    il.Video(il.MediaSource.from_file_id("file-1", provider="acme")),
    il.Document(il.MediaSource.from_text("plain"), name="notes"),
    il.Image(il.MediaSource.handle("h1", "image/png")),
    il.Thinking("hmm").with_echo("acme", {"signature": "s"}, model="m"),
    il.RedactedThinking(),
    il.ToolUse("c1", "lookup", {"q": 1}, raw_input="{q: 1}"),
    il.ToolResult("c1", "lookup", "ok").with_cache_control("1h"),
    il.ImageOutput(source=il.MediaSource.from_base64("image/png", "AAAA")),
    il.AudioOutput(source=il.MediaSource.from_base64("audio/wav", "AAAA"), transcript="hello"),
    il.Native("acme", {"type": "x"}),
    il.Request(
        model="m",
        messages=[il.Message.system("be brief"), il.Message.user("hi")],
        tools=[il.Tool(name="lookup"), il.NativeTool(provider="acme", data={"type": "search"})],
        tool_choice=il.ToolChoice(name="lookup"),
        thinking=il.ThinkingConfig(level="low"),
        response_format=il.ResponseFormat(type="json_object"),
        provider_options={"acme": {"tier": "fast"}},
    ).with_metadata({"app.trace": "t1"}),
    il.Response(
        id="r1",
        usage=il.Usage(input_tokens=3, output_tokens=2, extra={"x": 1}),
        cost=il.Cost(total=Decimal("0.02")),
        warnings=[
            il.LossyEncode(codec="c", path="p", message="m", part_type="audio", action="dropped"),
            il.UnsupportedSetting(codec="c", path="p", message="m", setting="seed"),
            il.ForeignOption(codec="c", path="provider_options.other.n", message="m", provider="other", key="n"),
            il.LossyDecode(codec="c", path="p", message="m"),
        ],
    ),
    il.Transcript(messages=[il.Message.user("hi")], entries=[il.HostEntry(kind="app.note", position=1)]),
    il.ThinkingBudgets(low=2048, high=16384),
    il.UnknownModel(codec="c", path="model", message="m", model="acme-9"),
]


def test_the_examples_reach_every_concrete_ir_class() -> None:
    reached = {type(model) for example in _EXAMPLES for model in _models(example)}
    missing = {c.__name__ for c in _concrete_ir_classes()} - {c.__name__ for c in reached}
    assert not missing, f"add an example of {sorted(missing)} to _EXAMPLES: construct must be checked on it"


@pytest.mark.parametrize("example", _EXAMPLES, ids=lambda e: type(e).__name__)
def test_construct_equals_model_validate_for_every_ir_class(example: BaseModel) -> None:
    for model in _models(example):
        assert_constructs_like_validate(model)


def test_key_order_is_the_declaration_order_whatever_the_call_order() -> None:
    built = construct(il.ProviderEcho, model="m", data={"k": 1}, provider="acme")
    assert list(built.model_dump()) == ["provider", "data", "model", "unmapped", "prefix", "host"]
    assert built.model_dump_json() == il.ProviderEcho(provider="acme", data={"k": 1}, model="m").model_dump_json()


def test_mutable_defaults_are_fresh_per_instance_and_deep_copied() -> None:
    first, second = construct(il.Text, text="a"), construct(il.Text, text="b")
    assert first.citations == [] and first.citations is not second.citations
    assert first.provider_echoes is not second.provider_echoes and first.metadata is not second.metadata
    tool = construct(il.Tool, name="t")
    assert tool.input_schema == {"type": "object", "properties": {}}
    default = il.Tool.model_fields["input_schema"].default
    assert tool.input_schema is not default and tool.input_schema["properties"] is not default["properties"]


def test_factory_defaults_are_called_per_instance() -> None:
    first, second = construct(il.Response), construct(il.Response)
    assert first.message == il.Message(role="assistant") and first.usage == il.Usage()
    assert first.message is not second.message and first.usage is not second.usage
    assert first.model_fields_set == set()


def test_a_constructed_model_is_frozen() -> None:
    text = construct(il.Text, text="a")
    with pytest.raises(ValidationError, match="frozen"):
        text.text = "b"  # type: ignore[misc]  # the point: assignment is refused
    assert text.text == "a"


def test_a_missing_required_field_is_a_type_error_naming_it() -> None:
    with pytest.raises(TypeError, match=r"construct\(ToolUse\): missing required field 'name'"):
        construct(il.ToolUse, id="c1")


def test_an_unknown_field_is_a_type_error_not_a_silent_drop() -> None:
    with pytest.raises(TypeError, match=r"construct\(Text\): unknown fields \['txet'\]"):
        construct(il.Text, text="a", txet="b")


def test_copies_of_a_constructed_model_keep_its_fields_set() -> None:
    text = construct(il.Text, text="a")
    changed = text.model_copy(update={"text": "b"})
    assert changed.text == "b" and changed.model_fields_set == {"text"} and text.text == "a"
    assert text.with_cache_control("5m").cache_control == il.CacheControl(ttl="5m")


class _Aliased(BaseModel):
    """Not an IR model: an alias sends construct to pydantic's own model_construct."""

    value: int = Field(alias="v")
    items: list[int] = []


def test_a_model_with_aliases_falls_back_to_model_construct() -> None:
    built = construct(_Aliased, v=3)
    by_alias: dict[str, Any] = {"v": 3}
    assert built == _Aliased.model_construct(**by_alias) == _Aliased(**by_alias)
    assert built.items == [] and built.items is not construct(_Aliased, v=4).items


def test_fields_named_like_the_parameters_pass_through() -> None:
    response = construct(il.Response, model="m1")
    assert response.model == "m1"
    assert replace(response, model="m2").model == "m2" and response.model == "m1"


def test_a_maker_is_checked_when_it_is_made() -> None:
    with pytest.raises(TypeError, match=r"maker\(ToolUse\): missing required fields \['name'\]"):
        maker(il.ToolUse, "id")
    with pytest.raises(TypeError, match=r"maker\(Text\): unknown fields \['txet'\]"):
        maker(il.Text, "text", "txet")
    with pytest.raises(TypeError, match=r"maker\(Text\): named twice \['text'\]"):
        maker(il.Text, "text", "text")


def test_a_maker_takes_exactly_its_fields_and_is_made_once_per_shape() -> None:
    text = maker(il.Text, "text", "provider_echoes")
    assert maker(il.Text, "text", "provider_echoes") is text
    assert maker(il.Text, "provider_echoes", "text") is not text  # another order of positions
    with pytest.raises(TypeError):
        text(text="a")  # provider_echoes is one of its fields: no default for it
    with pytest.raises(TypeError):
        text(text="a", provider_echoes=[], citations=[])  # not one of its fields
    assert maker(il.Usage)() == il.Usage() and maker(il.Usage)().model_fields_set == set()


def test_a_maker_of_a_model_with_aliases_falls_back_to_model_construct() -> None:
    made = maker(_Aliased, "value")
    assert made(3) == made(value=3) == _Aliased.model_construct(value=3)


def test_every_ir_default_factory_states_its_signature() -> None:
    """pydantic's ``model_construct`` runs ``inspect.signature`` on each default factory on every
    call; for ``list`` or ``dict`` that costs about 30 µs a field (see ``_model.stated``)."""
    for cls in _concrete_ir_classes():
        for name, info in cls.model_fields.items():
            factory = info.default_factory
            if factory is not None:
                assert "__signature__" in vars(factory), f"{cls.__name__}.{name}: default_factory={factory!r}"
    assert il.Text.model_construct(text="a") == il.Text("a") and il.Response.model_construct() == il.Response()


class _Plain(BaseModel):
    """Not an IR model and nothing unusual about it: construct builds it with the compiled
    constructor, which must then store pydantic's extra and private slots itself."""

    value: int
    items: list[int] = []


def test_a_plain_model_gets_the_slots_an_ir_class_answers_itself() -> None:
    built, made = construct(_Plain, value=3), maker(_Plain, "value")(3)
    for model in (built, made):
        assert model == _Plain(value=3) and _Plain(value=3) == model  # pydantic's __eq__ reads both slots
        assert model.__pydantic_extra__ is None and model.__pydantic_private__ is None
        assert model.model_copy(update={"value": 4}) == _Plain(value=4)
        assert pickle.loads(pickle.dumps(model)) == model


def test_an_ir_model_answers_extra_and_private_from_its_class_and_holds_neither() -> None:
    """The two slots the maker leaves unset read as empty through every path pydantic uses
    (equality, copies, pickling, validation), and a value in them is refused, not lost."""
    made = maker(il.Text, "text")("a")
    validated = il.Text.model_validate({"text": "a"})
    for text in (made, validated, construct(il.Text, text="a"), replace(made, text="a")):
        assert text.__pydantic_extra__ is None and text.__pydantic_private__ is None
        assert text.model_extra is None and text == validated
        assert copy.copy(text) == copy.deepcopy(text) == pickle.loads(pickle.dumps(text)) == text
        assert text.model_copy(update={"text": "b"}).text == "b"
    with pytest.raises(TypeError, match="IR models hold no extra fields"):
        object.__setattr__(made, "__pydantic_extra__", {"x": 1})
    with pytest.raises(TypeError, match="IR models hold no private attributes"):
        object.__setattr__(made, "__pydantic_private__", {"_x": 1})
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        il.Text.model_validate({"text": "a", "x": 1})


def test_instances_of_one_maker_share_no_fields_set_however_it_is_reached() -> None:
    """A maker stores one frozenset for all its instances; whoever reads ``model_fields_set``
    (a user, ``model_copy``, ``replace``, pickling, ``exclude_unset``) gets a ``set`` of that
    instance's own, so adding to one never shows on another."""
    make = maker(il.Text, "text")
    first, second, third = make("a"), make("b"), make("c")
    fields = first.model_fields_set
    assert type(fields) is set and fields == {"text"}
    fields.add("citations")
    assert first.model_fields_set == {"text", "citations"} and second.model_fields_set == {"text"}
    updated = third.model_copy(update={"citations": []})
    assert updated.model_fields_set == {"text", "citations"} and third.model_fields_set == {"text"}
    replaced = replace(make("d"), cache_control=il.CacheControl())
    assert replaced.model_fields_set == {"text", "cache_control"} and type(replaced.model_fields_set) is set
    for copied in (copy.copy(make("e")), copy.deepcopy(make("e")), pickle.loads(pickle.dumps(make("e")))):
        assert type(copied.model_fields_set) is set and copied.model_fields_set == {"text"}
    assert make("f").model_dump(exclude_unset=True) == il.Text("f").model_dump(exclude_unset=True)
    assert make("g").model_fields_set == {"text"} and type(il.Text("g").model_fields_set) is set
    empty = maker(il.CacheControl)()
    assert empty.model_fields_set == set() and type(empty.model_fields_set) is set
