"""The base every IR model shares: frozen, strict about keys, cheap to import."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Self, TypeVar

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, field_validator, model_serializer
from pydantic.fields import FieldInfo

JsonObject = dict[str, Any]
"""A JSON object as it comes off the wire: values are checked where they are read."""


class IRModel(BaseModel):
    """Frozen and closed: an unknown key in IR JSON is a mistake, not data to carry.

    ``defer_build`` keeps ``import interlingua`` cheap: a model's validator is built the first
    time it is used, not when the module loads.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    def to_json_dict(self) -> JsonObject:
        """The canonical JSON form: defaults left out, so dumps stay small and stable."""
        return self.model_dump(mode="json", exclude_defaults=True)


class Hosted(IRModel):
    """Carries the host's own ``metadata``: namespaced keys (``"myapp.trace_id"``), kept in
    sorted order so a dump is deterministic. It stays in the process and in saved transcripts:
    no codec ever puts it on the wire (vendor data goes in ``provider_echoes``; request fields
    for one codec in ``provider_options``)."""

    metadata: JsonObject = {}

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
_Fresh = tuple[tuple[str, Callable[[], Any]], ...]
_DEFAULTS: dict[type[BaseModel], tuple[dict[str, Any], _Fresh]] = {}
_set = object.__setattr__


def _fresh_maker(info: FieldInfo) -> Callable[[], Any] | None:
    """How to make a field's default anew per instance: its factory, or a copy of a mutable
    default; None when the default is immutable and can be shared."""
    if info.default_factory is not None:
        return info.default_factory  # type: ignore[return-value]  # IR factories take no arguments
    if isinstance(info.default, list | dict):
        return info.default.copy
    return None


def construct(cls: type[_M], **values: Any) -> _M:
    """``cls.model_construct(**values)`` at a fraction of its cost, for values a decoder has
    already checked with the path-aware readers (PERF.md: decoders build many small parts).
    Defaults are looked up once per class; a mutable or factory-made default is made anew for
    every instance, never shared."""
    known = _DEFAULTS.get(cls)
    if known is None:
        fields = {name: info for name, info in cls.model_fields.items() if not info.is_required()}
        makers = {name: _fresh_maker(info) for name, info in fields.items()}
        plain = {name: info.default for name, info in fields.items() if makers[name] is None}
        fresh = tuple((name, make) for name, make in makers.items() if make is not None)
        known = _DEFAULTS[cls] = (plain, fresh)
    defaults, fresh = known
    state = defaults.copy()
    for name, make in fresh:
        if name not in values:
            state[name] = make()
    state.update(values)
    instance = cls.__new__(cls)
    _set(instance, "__dict__", state)
    _set(instance, "__pydantic_fields_set__", set(values))
    _set(instance, "__pydantic_extra__", None)
    _set(instance, "__pydantic_private__", None)
    return instance
