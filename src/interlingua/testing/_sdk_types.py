"""Reading a vendor SDK's types as data: the wire keys of a TypedDict or pydantic model, and an
annotation with its wrappers taken off. The SDK oracle and the field-coverage walk both read the
SDK types this way, so they agree on what a key is."""

from __future__ import annotations

import functools
import typing
from typing import Any

import typing_extensions
from pydantic import BaseModel


@functools.cache
def sdk_fields(cls: type, *, by_name: bool = False) -> dict[str, Any]:
    """Wire key -> annotation: pydantic fields by alias (camelCase where the SDK generates one),
    TypedDict keys by the SDK's PropertyInfo alias where it has one. ``by_name`` adds the field
    names of a model that validates by name too (an SDK whose REST API takes snake_case and
    camelCase alike)."""
    if isinstance(cls, type) and issubclass(cls, BaseModel):
        fields = {(info.alias or name): info.annotation for name, info in cls.model_fields.items()}
        config = cls.model_config
        if by_name and (config.get("populate_by_name") or config.get("validate_by_name")):
            fields.update({name: info.annotation for name, info in cls.model_fields.items()})
        return fields
    fields = {}
    for name, annotation in typing.get_type_hints(cls, include_extras=True).items():
        alias = next((meta.alias for meta in metadata(annotation) if getattr(meta, "alias", None)), None)
        fields[alias or name] = annotation
    return fields


def metadata(annotation: Any) -> tuple[Any, ...]:
    return annotation.__metadata__ if typing.get_origin(annotation) is typing.Annotated else ()


_WRAPPERS = (typing.Required, typing.NotRequired, typing_extensions.ReadOnly)


def unwrap(annotation: Any) -> Any:
    """``annotation`` without ``Annotated``, ``Required``/``NotRequired``/``ReadOnly`` and type
    aliases (typing_extensions' ``TypeAliasType`` on Python 3.11)."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated or origin in _WRAPPERS:
            annotation = typing.get_args(annotation)[0]
        elif type(annotation).__name__ == "TypeAliasType":
            annotation = annotation.__value__
        else:
            return annotation
