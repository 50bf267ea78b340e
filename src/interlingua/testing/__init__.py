"""The test kit every codec's tests use, and third-party codec authors too.

- ``validate_wire`` / ``check_rules``: the SDK oracle (a body checked against the vendor SDK's own
  types, with lazy fields forced and unknown keys reported) and the vendor rules types miss;
  ``check_model_rules``: those of the target model, from the model catalog (in ``check_rules`` too).
- Round trips on fixture files (invariants 1 and 6), and the capabilities walk (invariant 2).
- ``assert_decodes_alike``: a codec's fast path against its general one (``declining`` turns the
  fast readers off).
- ``interlingua.testing.strategies``: hypothesis strategies for the whole IR (needs hypothesis).
"""

from typing import Any

from ._capabilities import assert_capabilities_hold, probe_requests
from ._fast_paths import assert_decodes_alike, declining, decode_outcome, encode_outcome, exact_dump
from ._fixtures import (
    assert_request_round_trip,
    assert_response_round_trip,
    assert_same_json,
    assert_stream_agrees,
    first_difference,
    lingua_fixtures_dir,
    load_body,
    load_script,
    read_stream_file,
    real_fixtures,
    real_fixtures_dir,
    strip_none,
)


def __getattr__(name: str) -> Any:
    # The oracle pulls in the vendor SDKs' types; load it only when a test asks for it.
    if name in ("validate_wire", "check_rules"):
        from . import _oracle

        return getattr(_oracle, name)
    if name == "check_model_rules":
        from ._model_rules import check_model_rules

        return check_model_rules
    raise AttributeError(name)


__all__ = [
    "assert_capabilities_hold",
    "assert_decodes_alike",
    "assert_request_round_trip",
    "assert_response_round_trip",
    "assert_same_json",
    "assert_stream_agrees",
    "check_model_rules",
    "check_rules",
    "declining",
    "decode_outcome",
    "encode_outcome",
    "exact_dump",
    "first_difference",
    "load_body",
    "lingua_fixtures_dir",
    "load_script",
    "probe_requests",
    "read_stream_file",
    "real_fixtures",
    "real_fixtures_dir",
    "strip_none",
    "validate_wire",
]
