"""The base every IR model shares: frozen, strict about keys, cheap to import.

This is the one module that relies on pydantic details beyond its public API (issue 25's "one
measured trick"): the slot setters of ``BaseModel`` called directly, ``__pydantic_extra__`` /
``__pydantic_private__`` answered by the class (always empty on an IR model), the fields set kept
as a shared frozenset until read, and ``maker``'s generated constructors. Everything else in the
IR and every codec uses public pydantic only (attribute reads, ``model_construct``,
``model_copy``). ``tests/test_construct.py`` holds these builds to what ``model_validate`` and
``model_construct`` make, on pydantic 2.11.0 (the floor ``pyproject.toml`` declares, run by
``.ci/matrix``) and the newest pydantic the dev requirements install (2.14.x, the main CI run).

Measured, and why it stays: the same construction on public pydantic only (branch
``pydantic2``: ``model_construct``'s four attribute writes per instance through one cached
per-class plan, no slots, no ``exec``) costs 22-33% more instructions per round trip of every
codec's bench workload (callgrind, ``PYTHONHASHSEED=0``; by codec: 3.22M -> 4.25M, 2.71M ->
3.40M, 1.86M -> 2.47M, 2.81M -> 3.43M, figures per wire in docs/performance.md) and 24-30% more
on the conversion bench (the bench's chat request decoded and encoded to each of the three other
first wires: +23.7%, +29.6%, +27.5%), against the 10% a single path may cost; ``model_construct`` itself,
three times base. The cost is per IR
object decoded (about 6,000 instructions each: two more slot stores, a new set that lives as long
as the instance and wakes the garbage collector), so making the public path affordable means
decoders that build fewer objects, not a cleverer constructor.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from dataclasses import FrozenInstanceError
from inspect import Signature
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, field_validator, model_serializer
from pydantic.fields import FieldInfo
from typing_extensions import dataclass_transform

_F = TypeVar("_F", bound=Callable[[], Any])

JsonObject = dict[str, Any]
"""A JSON object as it comes off the wire: values are checked where they are read."""


def stated(factory: _F) -> _F:
    """Mark a ``default_factory`` as taking no arguments, so asking costs nothing.

    pydantic's ``model_construct`` asks ``inspect.signature`` of every default factory on every
    call (uncached in pydantic 2.14: pydantic/pydantic#11034). For a builtin such as ``list`` that
    parses its text signature, about 30 µs a field, so ``Text.model_construct(text="hi")`` took
    130 µs; a function with ``__signature__`` set answers at once (15 µs in all)."""
    setattr(factory, "__signature__", Signature())  # noqa: B010  # mypy: no such attribute on a callable
    return factory


@stated
def empty_list() -> list[Any]:
    """``default_factory`` of the IR's list fields (``list`` itself: see ``stated``)."""
    return []


@stated
def empty_dict() -> dict[str, Any]:
    """``default_factory`` of the IR's dict fields (``dict`` itself: see ``stated``)."""
    return {}


# The slot setters of every pydantic model, called directly: ``object.__setattr__`` would look the
# name up through the class first, on each slot store (two an IR instance, four any other model).
_SLOTS = BaseModel.__dict__
_new = object.__new__
_set_dict = _SLOTS["__dict__"].__set__
_get_fields_set = _SLOTS["__pydantic_fields_set__"].__get__
_set_fields_set = _SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__


def _always_empty(what: str) -> property:
    """A pydantic slot an IR model never fills: it reads ``None`` and refuses a value (pydantic
    itself writes ``None`` or ``{}`` into it)."""

    def write(self: Any, value: Any) -> None:
        if value:
            raise TypeError(f"IR models hold no {what}: {value!r}")

    return property(lambda self: None, write)


def _fields_set_read(self: Any) -> set[str]:
    """An instance's ``model_fields_set``: a maker leaves its one shared frozenset in the slot,
    which becomes the instance's own ``set`` the first time anyone reads it, so what pydantic and
    users see (and may add to: ``model_copy(update=)`` does) is a set of the instance's own."""
    names = _get_fields_set(self)
    if type(names) is frozenset:
        names = set(names)
        _set_fields_set(self, names)
    return names  # type: ignore[no-any-return]  # the slot holds a set of field names


class IRModel(BaseModel):
    """Frozen and closed: an unknown key in IR JSON is a mistake, not data to carry.

    ``defer_build`` keeps ``import interlingua`` cheap: a model's validator is built the first
    time it is used, not when the module loads.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    # pydantic keeps four slots on every instance. Two of them never hold anything on an IR
    # model (no extra keys, no private attributes), so the class answers them and the ``maker``
    # does not store them: two slot stores of four per instance (PERF.md: decoders build
    # hundreds). pydantic writes them too (validation, copies, pickling), always empty here.
    if not TYPE_CHECKING:
        __pydantic_extra__ = _always_empty("extra fields")
        __pydantic_private__ = _always_empty("private attributes")
        # A maker stores one frozenset of its names per instance, not a new set: building and
        # freeing that set was a tenth of an instance's cost. Read, it becomes a set of its own.
        __pydantic_fields_set__ = property(_fields_set_read, _set_fields_set)

    def to_json_dict(self) -> JsonObject:
        """The canonical JSON form: defaults left out, so dumps stay small and stable."""
        return self.model_dump(mode="json", exclude_defaults=True)


class Hosted(IRModel):
    """Carries the host's own ``metadata``: namespaced keys (``"myapp.trace_id"``), kept in
    sorted order so a dump is deterministic. It stays in the process and in saved transcripts:
    no codec ever puts it on the wire (vendor data goes in ``provider_echoes``; request fields
    for one codec in ``provider_options``)."""

    metadata: JsonObject = Field(default_factory=empty_dict)
    """The host's own data, namespaced keys (``"myapp.trace_id"``); never sent to a vendor."""

    @field_validator("metadata")
    @classmethod
    def _namespaced_and_sorted(cls, value: JsonObject) -> JsonObject:
        for key in value:
            namespace, dot, name = key.partition(".")
            if not (namespace and dot and name):
                raise ValueError(f"metadata key {key!r} needs a namespace: 'myapp.{key}'")
        keys = list(value)
        return value if keys == sorted(keys) else dict(sorted(value.items()))

    def with_metadata(self, values: JsonObject | None = None, /, **more: Any) -> Self:
        """A copy with these entries added (a ``None`` value removes its key). Keyword names
        cannot hold a dot, so pass namespaced keys in a dict: ``with_metadata({"myapp.k": 1})``."""
        merged = {**self.metadata, **(values or {}), **more}
        kept = self._namespaced_and_sorted({k: v for k, v in merged.items() if v is not None})
        return self.model_copy(update={"metadata": kept})


class _Tagged(IRModel):
    """A union member whose tag (``type``, or the field ``tag_field`` names) is always dumped.

    The tag has a default so constructors need not repeat it, but ``exclude_defaults`` would then
    drop it and the union could not be read back; the serializer puts it back, first.
    """

    tag_field: ClassVar[str] = "type"

    @model_serializer(mode="wrap")
    def _dump_with_tag(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            return {self.tag_field: getattr(self, self.tag_field), **data}
        return data


_M = TypeVar("_M", bound=BaseModel)
_Maker = Callable[[dict[str, Any]], Any]
_MAKERS: dict[type[BaseModel], _Maker] = {}
_SHAPED: dict[tuple[type[BaseModel], tuple[str, ...]], Callable[..., Any]] = {}

_NAMESPACE: dict[str, Any] = {
    "_new": _new,
    "_set_dict": _set_dict,
    "_set_fields_set": _set_fields_set,
    "_set_extra": _set_extra,
    "_set_private": _set_private,
    "_deepcopy": deepcopy,
}
_EMPTY: dict[Any, str] = {list: "[]", dict: "{}", set: "set()"}
_EMPTY_SLOTS = "\n    _set_extra(_instance, None)\n    _set_private(_instance, None)"  # any other model


def construct(cls: type[_M], /, **values: Any) -> _M:
    """An instance of ``cls`` from values a decoder has already checked with the path-aware
    readers, without validating them again (PERF.md: decoders build many small parts).

    The result equals ``cls.model_validate`` of the same values: fields in declaration order (so
    dumps keep the same key order), ``model_fields_set`` the names given, every mutable or
    factory-made default made anew. Each class gets its own constructor, generated once on first
    use, so a call is a dict lookup and straight-line code: a third faster than looking defaults
    up in a loop, four to ten times faster than ``model_construct`` (``bench/bench_core.py``). A
    missing required field or an unknown name raises ``TypeError``: a misspelt keyword must not
    drop a value unseen.
    """
    try:
        make = _MAKERS[cls]
    except KeyError:
        make = _MAKERS[cls] = _compile(cls)
    instance: _M = make(values)
    return instance


def maker(cls: type[_M], /, *names: str) -> Callable[..., _M]:
    """``construct`` for one call shape, at about two thirds of its cost: a constructor of ``cls``
    taking exactly the fields ``names`` (as keywords, or positionally in this order), every other
    field at its default, and ``model_fields_set`` those names. Made once, where a decoder module
    loads, for the shapes it builds most (``_M = maker(Message, "role", "parts")``); there is
    nothing left to decide per call. An unknown name or a required field left out raises
    ``TypeError`` here, when the maker is made, not when it is first called."""
    key = (cls, names)
    made = _SHAPED.get(key)
    if made is None:
        made = _SHAPED[key] = _compile_shape(cls, names)
    return made


def replace(model: _M, /, **changes: Any) -> _M:
    """``model.model_copy(update=changes)`` for checked values, at a fraction of its cost: the
    fields keep their order, ``model_fields_set`` grows by the changed names, nothing is
    validated (pydantic's copy does not validate either). For IR models only: they forbid
    extra keys and hold no private attributes."""
    copy = _new(type(model))
    _set_dict(copy, {**model.__dict__, **changes})
    _set_fields_set(copy, changes.keys() | _get_fields_set(model))  # the slot as stored: no copy made
    return copy


def _default(info: FieldInfo, slot: str, namespace: dict[str, Any]) -> str:
    """The expression that makes this field's default for one instance, as pydantic would: an
    empty collection built fresh, a filled one deep-copied, anything else shared as is."""
    factory = info.default_factory
    if factory in _EMPTY:  # ``[]`` in the source, not a call to ``list``: three times cheaper
        return _EMPTY[factory]
    if factory is empty_list or factory is empty_dict:
        return _EMPTY[type(factory())]
    if factory is not None:
        namespace[slot] = factory
        return f"{slot}()"
    default = info.default
    if type(default) in _EMPTY:
        namespace[slot] = default
        return _EMPTY[type(default)] if not default else f"_deepcopy({slot})"
    namespace[slot] = default
    return slot


def _unusual(cls: type[BaseModel]) -> bool:
    """A model whose construction needs pydantic's own ``model_construct``: none of the IR's;
    kept right for any other model rather than fast."""
    return bool(
        cls.__pydantic_post_init__
        or cls.__private_attributes__
        or cls.__pydantic_root_model__
        or any(
            info.alias or info.validation_alias or info.default_factory_takes_validated_data
            for info in cls.model_fields.values()
        )
    )


def _compile(cls: type[_M]) -> _Maker:
    """Source for one class's constructor: a dict display in field order, then its slots."""
    fields = cls.model_fields
    if _unusual(cls):
        return lambda values: cls.model_construct(**values)
    namespace = {**_NAMESPACE, "_cls": cls, "_FIELDS": frozenset(fields)}
    entries = []
    for i, (name, info) in enumerate(fields.items()):
        if info.is_required():
            entries.append(f"{name!r}: values[{name!r}]")
        else:
            entries.append(
                f"{name!r}: values[{name!r}] if {name!r} in values else {_default(info, f'_d{i}', namespace)}"
            )
    lines = ",\n            ".join(entries)
    checks = f"""
    try:
        state = {{
            {lines}
        }}
    except KeyError as missing:
        raise TypeError(f"construct({{_cls.__name__}}): missing required field {{missing}}") from None
    names = set(values)
    if not names <= _FIELDS:
        raise TypeError(f"construct({{_cls.__name__}}): unknown fields {{sorted(names - _FIELDS)}}")"""
    return _define(f"<construct {cls.__qualname__}>", "values", checks, "state", "names", namespace)


def _compile_shape(cls: type[_M], names: tuple[str, ...]) -> Callable[..., _M]:
    """Source for one shape's constructor: the field values in declaration order as a dict
    display, the names given as one shared frozenset (an IR model's class turns it into a set
    of the instance's own when read) or, for any other model, a set display. Helpers in its
    namespace start with ``_``, which no field name can (pydantic keeps those for private
    attributes)."""
    fields = cls.model_fields
    unknown = [name for name in names if name not in fields]
    missing = [name for name, info in fields.items() if info.is_required() and name not in names]
    twice = sorted({name for name in names if names.count(name) > 1})
    for problem, found in (("unknown fields", unknown), ("missing required fields", missing), ("named twice", twice)):
        if found:
            raise TypeError(f"maker({cls.__name__}): {problem} {found}")
    if _unusual(cls):
        return lambda *args, **kwargs: cls.model_construct(**dict(zip(names, args, strict=False)), **kwargs)
    namespace = {**_NAMESPACE, "_cls": cls}
    entries = [
        f"{name!r}: {name if name in names else _default(info, f'_d{i}', namespace)}"
        for i, (name, info) in enumerate(fields.items())
    ]
    if issubclass(cls, IRModel):  # one frozenset for every instance (see ``IRModel``)
        namespace["_given"] = frozenset(names)
        given = "_given"
    else:
        given = "{" + ", ".join(map(repr, names)) + "}" if names else "set()"
    state = "{" + ", ".join(entries) + "}"
    return _define(f"<maker {cls.__qualname__}{names}>", ", ".join(names), "", state, given, namespace)


def _define(
    label: str, params: str, checks: str, state: str, given: str, namespace: dict[str, Any]
) -> Callable[..., Any]:
    """Compile ``make(params)`` in ``namespace``: ``checks`` (source lines, which may bind the
    names ``state`` and ``given`` use), then an instance of ``_cls`` with its pydantic slots
    stored directly: the dict ``state`` and the fields set ``given`` (source expressions), no
    extra fields, no private attributes (an IR model's class answers those two itself: see
    ``IRModel``). What ``construct`` and ``maker`` share."""
    empty = "" if issubclass(namespace["_cls"], IRModel) else _EMPTY_SLOTS
    source = f"""
def make({params}):{checks}
    _instance = _new(_cls)
    _set_dict(_instance, {state})
    _set_fields_set(_instance, {given}){empty}
    return _instance
"""
    exec(compile(source, label, "exec"), namespace)
    made: Callable[..., Any] = namespace["make"]
    return made


_setattr = object.__setattr__


@dataclass_transform(frozen_default=True)  # type checkers see frozen dataclasses
class Record:
    """An immutable slotted record for the many small values that need no validation (stream
    events, SSE events). A subclass names its fields in ``__slots__ = __match_args__ = (...)``
    and sets them in its ``__init__`` with ``object.__setattr__``; this gives it equality and
    hashing by value within one class, a dataclass-style repr, ``match`` patterns, no assignment
    after construction, and pickling despite that.

    Not ``@dataclass(frozen=True, slots=True)``: a dataclass compiles its methods from generated
    source when its module loads, about 0.6 ms a class (PERF.md's import budget is 40 ms in all);
    building one costs the same either way."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> tuple[Any, ...]:
        return self._values()

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self.__match_args__, state, strict=True):
            _setattr(self, name, value)
