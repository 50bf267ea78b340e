"""The test kit every codec's tests use, and third-party codec authors too.

- ``validate_wire`` / ``check_rules``: the SDK oracle (a body checked against the vendor SDK's own
  types, with lazy fields forced and unknown keys reported) and the vendor rules types miss;
  ``check_model_rules``: those of the target model, from the model catalog (in ``check_rules`` too).
  Each wire's oracle lives in its codec package (the codec's ``oracle`` attribute names it); it is
  built from ``Oracle``, ``Sendable``, ``RuleView`` and the SDK-type checks ``sdk_problems``,
  ``sdk_type``, ``either`` and ``request_check`` (the SDK types load when a check first runs).
- Round trips on fixture files (invariants 1 and 6), and the capabilities walk (invariant 2).
- ``sdk_paths`` / ``coverage_problems``: the field-coverage walk of a vendor SDK's types against a
  codec's ``Declaration`` (every SDK key declared, no stale row); ``probe_outcome`` /
  ``response_outcome``: a key carried, warned about, or dropped silently by another codec.
- The recorded corpora read in place (``real_fixtures``, ``real_fixture``, ``lingua_fixtures_dir``,
  ``pydantic_ai_fixtures_dir``):
  absent, their tests skip with one reason (``corpus_missing``, ``skip_without_corpus``);
  ``INTERLINGUA_REQUIRE_CORPUS=1`` makes the absence fail instead.
- ``assert_decodes_alike``: a codec's fast path against its general one (``declining`` turns the
  fast readers off).
- ``FakeVendor``: any installed wire served on loopback with scripted ``Reply``s (text, tool
  calls, streams, errors, delays), each request decoded and, with ``validate=True``, checked by the
  wire's oracle: a vendor to test an agent against offline, without keys.
- ``Conformance`` (module ``interlingua.testing.conformance``, with the probe helpers): a wire's
  conformance data, kept in its codec package and named by the codec's ``conformance`` attribute
  (``conformance_for``): the conformance suite runs every codec that names one.
- ``interlingua.testing.strategies``: hypothesis strategies for the whole IR (needs hypothesis).
- ``mutations``: mutations of real bodies and streams (a key deleted, a value nulled or retyped,
  lists cut, lone surrogates, deep nesting, an enum value in another case, with a space, with a
  homoglyph or unknown, SSE events dropped, repeated or swapped) for the typed-errors contract
  (invariant 5), driven by hypothesis or by a seeded ``random.Random``.
"""

from .._model_check import RuleView
from . import _mutations as mutations
from ._capabilities import assert_capabilities_hold, probe_requests
from ._coverage import (
    WHERE,
    Declaration,
    Outcome,
    Where,
    coverage_problems,
    covering,
    probe_outcome,
    response_outcome,
    sdk_paths,
)
from ._fake import Exchange, FakeVendor, Reply
from ._fast_paths import assert_decodes_alike, declining, decode_outcome, encode_outcome, exact_dump
from ._fixtures import (
    assert_request_round_trip,
    assert_response_round_trip,
    assert_same_json,
    assert_stream_agrees,
    corpus_missing,
    corpus_required,
    first_difference,
    lingua_fixtures_dir,
    load_body,
    load_script,
    pydantic_ai_fixtures_dir,
    read_stream_file,
    real_fixture,
    real_fixtures,
    real_fixtures_dir,
    skip_without_corpus,
    strip_none,
)
from ._oracle import Kind, Oracle, Sendable, check_model_rules, check_rules, dig, objects, oracle_for, validate_wire
from ._sdk_check import Check, either, request_check, sdk_problems, sdk_type
from ._streams import answer_events, stream_warnings
from .conformance import Conformance, Coverage, Departure, Probe, Target, conformance_for

__all__ = [
    "Check",
    "Conformance",
    "Coverage",
    "Departure",
    "Probe",
    "Target",
    "conformance_for",
    "Exchange",
    "FakeVendor",
    "Reply",
    "Kind",
    "Oracle",
    "RuleView",
    "Sendable",
    "dig",
    "either",
    "objects",
    "oracle_for",
    "request_check",
    "sdk_problems",
    "sdk_type",
    "answer_events",
    "stream_warnings",
    "WHERE",
    "Declaration",
    "Outcome",
    "Where",
    "coverage_problems",
    "covering",
    "sdk_paths",
    "assert_capabilities_hold",
    "assert_decodes_alike",
    "assert_request_round_trip",
    "assert_response_round_trip",
    "assert_same_json",
    "assert_stream_agrees",
    "check_model_rules",
    "check_rules",
    "corpus_missing",
    "corpus_required",
    "declining",
    "decode_outcome",
    "encode_outcome",
    "exact_dump",
    "first_difference",
    "load_body",
    "lingua_fixtures_dir",
    "pydantic_ai_fixtures_dir",
    "load_script",
    "probe_outcome",
    "mutations",
    "probe_requests",
    "read_stream_file",
    "real_fixture",
    "real_fixtures",
    "real_fixtures_dir",
    "response_outcome",
    "skip_without_corpus",
    "strip_none",
    "validate_wire",
]
