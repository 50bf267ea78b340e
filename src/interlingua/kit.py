"""What a codec author builds with: path-aware readers, the warning sink, echo merging, and the
wire conversions every codec shares. Codecs import these instead of writing their own."""

from typing import TYPE_CHECKING

from ._lazy import lazy_names

_MODULES: dict[str, tuple[str, ...]] = {
    "._batch": (
        "BatchApi", "BatchCall", "BatchFailure", "Batching", "BatchJob", "FailureKind", "FakeBatches", "ResultFormat",
        "ResultLine", "Steps", "failure_note", "message_note", "request_note",
    ),
    "._binding": ("Binding", "bind", "prefix_digest"),
    "._cache": ("cache_ttl",),
    "._catalog": (
        "binding_of", "cap_max_tokens", "clamp_budget", "drop_prefill", "keep_sampling", "known_model", "lookup",
        "nearest_level",
    ),
    "._codec": ("BatchLine", "Counting", "ErrorBody", "ListedModel", "ModelList", "Serving"),
    "._codec_base": ("CodecBase",),
    "._eventstream": ("event_frames", "render_frames"),
    "._gcp_auth": ("gcp_token",),
    "._handles": ("find_handles", "unresolved_handle"),
    "._media_rules": ("MediaTypes",),
    "._model": ("construct", "maker"),
    "._normalize": (
        "REASONING_POLICIES", "ReasoningPolicy", "TurnRules", "encode_with_rules", "no_thinking", "normalize_request",
        "own_thinking", "unsigned_or_own_thinking",
    ),
    "._read": (
        "MAX_DEPTH", "as_object", "check_depth", "decode_with", "decoding", "describe", "each", "event_object",
        "expect", "join", "optional", "require",
    ),
    "._rules": ("CORPUS", "Rule", "RuleTable", "broken_rules", "table_check"),
    "._schema": ("SchemaDialect", "fit_schema", "schema_problems"),
    "._sigv4": ("aws_auth", "aws_region"),
    "._sniff": ("DISTINCTIVE", "Sniffed", "quoted", "stream_score"),
    "._stream": ("merge_echo",),
    "._tool_ids": ("ToolIds",),
    "._tuning": ("TuningExample", "TuningFile", "kept_keys", "supervised", "unweighted"),
    "._url": ("host_label", "url_segment", "versioned_base"),
    "._warned_stream": ("DecodedStream", "EncodedStream"),
    "._warnings": ("WarningSink", "article"),
    "._wire": (
        "arguments_text", "data_url", "dumps", "error_body", "loads", "parse_data_url", "retry_after", "tool_arguments",
    ),
    "._model_spec": ("ModelSpec",),
    "._one_open": ("one_part_open",),
}
"""Where each name lives. A name loads its module when a codec first imports it, so a codec pays
for what it uses: the batch, SigV4, event-stream and tuning helpers load with the codecs that
read them, not with every codec (docs/performance.md, "Issue 46")."""


if TYPE_CHECKING:
    from ._batch import (
        BatchApi,
        BatchCall,
        BatchFailure,
        Batching,
        BatchJob,
        FailureKind,
        FakeBatches,
        ResultFormat,
        ResultLine,
        Steps,
        failure_note,
        message_note,
        request_note,
    )
    from ._binding import Binding, bind, prefix_digest
    from ._cache import cache_ttl
    from ._catalog import (
        binding_of,
        cap_max_tokens,
        clamp_budget,
        drop_prefill,
        keep_sampling,
        known_model,
        lookup,
        nearest_level,
    )
    from ._codec import BatchLine, Counting, ErrorBody, ListedModel, ModelList, Serving
    from ._codec_base import CodecBase
    from ._eventstream import event_frames, render_frames
    from ._gcp_auth import gcp_token
    from ._handles import find_handles, unresolved_handle
    from ._media_rules import MediaTypes
    from ._model import construct, maker
    from ._model_spec import ModelSpec
    from ._normalize import (
        REASONING_POLICIES,
        ReasoningPolicy,
        TurnRules,
        encode_with_rules,
        no_thinking,
        normalize_request,
        own_thinking,
        unsigned_or_own_thinking,
    )
    from ._one_open import one_part_open
    from ._read import (
        MAX_DEPTH,
        as_object,
        check_depth,
        decode_with,
        decoding,
        describe,
        each,
        event_object,
        expect,
        join,
        optional,
        require,
    )
    from ._rules import CORPUS, Rule, RuleTable, broken_rules, table_check
    from ._schema import SchemaDialect, fit_schema, schema_problems
    from ._sigv4 import aws_auth, aws_region
    from ._sniff import DISTINCTIVE, Sniffed, quoted, stream_score
    from ._stream import merge_echo
    from ._tool_ids import ToolIds
    from ._tuning import TuningExample, TuningFile, kept_keys, supervised, unweighted
    from ._url import host_label, url_segment, versioned_base
    from ._warned_stream import DecodedStream, EncodedStream
    from ._warnings import WarningSink, article
    from ._wire import arguments_text, data_url, dumps, error_body, loads, parse_data_url, retry_after, tool_arguments

__all__ = [
    "DISTINCTIVE",
    "Sniffed",
    "article",
    "quoted",
    "stream_score",
    "ModelSpec",
    "cap_max_tokens",
    "clamp_budget",
    "drop_prefill",
    "keep_sampling",
    "lookup",
    "binding_of",
    "cache_ttl",
    "known_model",
    "Binding",
    "bind",
    "prefix_digest",
    "nearest_level",
    "BatchLine",
    "BatchFailure",
    "Batching",
    "BatchApi",
    "BatchCall",
    "BatchJob",
    "FakeBatches",
    "Steps",
    "FailureKind",
    "ResultFormat",
    "ResultLine",
    "failure_note",
    "message_note",
    "request_note",
    "Counting",
    "CodecBase",
    "ErrorBody",
    "ListedModel",
    "ModelList",
    "Serving",
    "event_frames",
    "render_frames",
    "aws_auth",
    "aws_region",
    "gcp_token",
    "find_handles",
    "unresolved_handle",
    "REASONING_POLICIES",
    "ReasoningPolicy",
    "ToolIds",
    "TuningExample",
    "TuningFile",
    "kept_keys",
    "supervised",
    "unweighted",
    "MediaTypes",
    "TurnRules",
    "CORPUS",
    "Rule",
    "RuleTable",
    "broken_rules",
    "table_check",
    "encode_with_rules",
    "no_thinking",
    "normalize_request",
    "own_thinking",
    "unsigned_or_own_thinking",
    "WarningSink",
    "SchemaDialect",
    "fit_schema",
    "schema_problems",
    "DecodedStream",
    "EncodedStream",
    "arguments_text",
    "construct",
    "maker",
    "MAX_DEPTH",
    "as_object",
    "check_depth",
    "data_url",
    "decode_with",
    "decoding",
    "describe",
    "dumps",
    "each",
    "error_body",
    "event_object",
    "expect",
    "join",
    "loads",
    "merge_echo",
    "one_part_open",
    "optional",
    "parse_data_url",
    "require",
    "retry_after",
    "tool_arguments",
    "host_label",
    "url_segment",
    "versioned_base",
]


__getattr__, __dir__ = lazy_names(__package__ or __name__, _MODULES, globals())
