"""The wire's oracle: botocore's ``bedrock-runtime`` service model, the source of truth its SDKs are
generated from. A body is checked by botocore's own ``ParamValidator`` against the ``Converse``
input or output shape (types, required members, unknown keys, union members); the JSON wire's
base64 text is turned into bytes where the shape says blob first, as botocore's JSON parser does."""

from __future__ import annotations

import base64
import binascii
from functools import cache
from typing import Any, Literal

Kind = Literal["request", "response"]


@cache
def _shapes() -> Any:
    import botocore.session

    return botocore.session.get_session().get_service_model("bedrock-runtime").operation_model("Converse")


def validate(kind: Kind, body: Any) -> list[str]:
    """What botocore finds wrong with ``body`` as a Converse request or response: [] when none."""
    from botocore.validate import ParamValidator

    operation = _shapes()
    shape = operation.input_shape if kind == "request" else operation.output_shape
    problems: list[str] = []
    value = _blobs(body, shape, "", problems)
    if kind == "request" and isinstance(value, dict):
        value.setdefault("modelId", "model")  # in the URL on the wire, a member of the shape
    report = ParamValidator().validate(value, shape)
    if report.has_errors():
        problems.extend(line.strip() for line in report.generate_report().splitlines() if line.strip())
    return problems


def _blobs(value: Any, shape: Any, at: str, problems: list[str]) -> Any:
    """``value`` with the base64 text at each blob shape decoded to bytes."""
    kind = shape.type_name
    if kind == "blob":
        if isinstance(value, str):
            try:
                return base64.b64decode(value, validate=True)
            except binascii.Error:
                problems.append(f"{at}: not base64")
        return value
    if kind == "structure" and isinstance(value, dict) and not shape.metadata.get("document"):
        return {
            key: (_blobs(item, shape.members[key], f"{at}.{key}", problems) if key in shape.members else item)
            for key, item in value.items()
        }
    if kind == "list" and isinstance(value, list):
        return [_blobs(item, shape.member, f"{at}[{i}]", problems) for i, item in enumerate(value)]
    if kind == "map" and isinstance(value, dict):
        return {key: _blobs(item, shape.value, f"{at}.{key}", problems) for key, item in value.items()}
    return value
