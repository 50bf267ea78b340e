"""Path-aware readers: malformed wire input fails with DecodeError naming where."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua import DecodeError
from interlingua.kit import as_object, decoding, each, expect, optional, require


def test_require_names_the_missing_path() -> None:
    with pytest.raises(DecodeError) as err, decoding("acme-chat"):
        require({"messages": [{}]}["messages"][0], "role", str, "messages[0]")
    assert err.value.codec == "acme-chat"
    assert err.value.path == "messages[0].role"
    assert "missing" in err.value.reason


def test_wrong_types_say_what_was_found() -> None:
    with pytest.raises(DecodeError) as err:
        require({"content": 3}, "content", list, "messages[2]")
    assert err.value.path == "messages[2].content"
    assert err.value.reason == "expected an array, got an integer"
    with pytest.raises(DecodeError, match="expected an integer, got a boolean"):
        expect(True, int, "n")


def test_optional_reads_absent_and_null_as_default() -> None:
    assert optional({}, "n", int, "") is None
    assert optional({"n": None}, "n", int, "", 5) == 5
    assert optional({"n": 1}, "n", float, "") == 1


def test_each_walks_arrays_with_paths() -> None:
    assert list(each({"a": ["x", "y"]}, "a", "body")) == [("body.a[0]", "x"), ("body.a[1]", "y")]
    assert list(each({}, "a", "body")) == []


def test_stray_errors_become_decode_errors() -> None:
    body: dict[str, Any] = {}
    with pytest.raises(DecodeError) as err, decoding("acme-chat"):
        body["missing"]
    assert err.value.codec == "acme-chat"
    assert "KeyError" in err.value.reason


def test_a_named_decode_error_and_other_errors_pass_through_as_they_are() -> None:
    named = DecodeError("other-codec", "x", "bad")
    with pytest.raises(DecodeError) as err, decoding("acme-chat"):
        raise named
    assert err.value is named
    with pytest.raises(RuntimeError), decoding("acme-chat"):
        raise RuntimeError("not a decoding problem")


def test_as_object_accepts_sdk_like_objects() -> None:
    class Dumpable:
        def model_dump(self, **_: Any) -> dict[str, Any]:
            return {"id": "x"}

    assert as_object(Dumpable(), "") == {"id": "x"}
    with pytest.raises(DecodeError):
        as_object([1], "")


def test_retry_after_reads_seconds_milliseconds_and_dates() -> None:
    import email.utils
    import time

    from interlingua.kit import retry_after

    assert retry_after({"Retry-After": "7"}) == 7.0
    assert retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert retry_after({}) is None
    assert retry_after({"retry-after": "soon"}) is None
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    seconds = retry_after({"retry-after": later})
    assert seconds is not None and 25 < seconds <= 30


def test_error_body_is_json_or_text() -> None:
    from interlingua.kit import error_body

    assert error_body(b'{"error": {"message": "x"}}') == {"error": {"message": "x"}}
    assert error_body(b"<html>Bad Gateway</html>") == "<html>Bad Gateway</html>"
    assert error_body(b"") is None
