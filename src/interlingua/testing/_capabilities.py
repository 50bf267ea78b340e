"""Invariant 2: a codec's declared capabilities hold. Lossy rows warn; native rows go through.

Each part type and setting gets a small probe request. A ``lossy`` row must produce a warning
about it; a ``native`` row must encode without one and come back from ``decode_request`` (the
part type present again, or the setting equal). Codecs pass their own samples where a generic
probe cannot stand for what they carry (a signed thinking block, a vendor's native tool).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._codec import Codec
from .._message import Message
from .._parts import (
    PART_TYPES,
    Audio,
    AudioOutput,
    Citation,
    CitationSource,
    ContentPart,
    Document,
    Image,
    ImageOutput,
    MediaSource,
    RedactedThinking,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    Video,
)
from .._request import NativeTool, Request, ResponseFormat, ThinkingConfig, Tool, ToolChoice
from .._warnings import LossyEncode, UnsupportedSetting

_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def _default_part(kind: str) -> ContentPart | None:
    builders: dict[str, Callable[[], ContentPart]] = {
        "text": lambda: Text("hello"),
        "image": lambda: Image(MediaSource.from_base64("image/png", _PNG)),
        "audio": lambda: Audio(MediaSource.from_base64("audio/wav", "UklGRg==")),
        "video": lambda: Video(MediaSource.from_url("https://example.com/v.mp4", "video/mp4")),
        "document": lambda: Document(MediaSource.from_base64("application/pdf", "JVBERi0xLjQK"), name="a.pdf"),
        "thinking": lambda: Thinking("let me think"),
        "redacted_thinking": lambda: RedactedThinking(),
        "image_output": lambda: ImageOutput(source=MediaSource.from_base64("image/png", _PNG)),
        "audio_output": lambda: AudioOutput(source=MediaSource.from_base64("audio/wav", "UklGRg=="), transcript="hi"),
    }
    build = builders.get(kind)
    return build() if build else None


_ASSISTANT_SIDE = {"thinking", "redacted_thinking", "image_output", "audio_output", "native"}


def _part_probe(kind: str, part: ContentPart) -> tuple[Request, str]:
    """A request holding ``part`` where it belongs, and the IR path of the part."""
    call = ToolUse("call_1", "lookup", {"q": "x"})
    if kind == "tool_use":
        messages = [
            Message.user("hi"),
            Message.assistant(part),
            Message.tool(ToolResult("call_1", "lookup", "ok")),
        ]
        return Request(model="model-1", messages=messages, max_tokens=64), "messages[1].parts[0]"
    if kind == "tool_result":
        messages = [Message.user("hi"), Message.assistant(call), Message.tool(part)]
        return Request(model="model-1", messages=messages, max_tokens=64), "messages[2].parts[0]"
    if kind in _ASSISTANT_SIDE:
        messages = [Message.user("hi"), Message.assistant(part, Text("done")), Message.user("and?")]
        return Request(model="model-1", messages=messages, max_tokens=64), "messages[1].parts[0]"
    messages = [Message.user(part, Text("what is this?"))] if kind != "text" else [Message.user(part)]
    return Request(model="model-1", messages=messages, max_tokens=64), "messages[0].parts[0]"


def _mid_conversation_system() -> list[Message]:
    return [Message.user("hi"), Message.assistant("hello"), Message.system("now be terse"), Message.user("go")]


def _json_format() -> ResponseFormat:
    properties = {"a": {"type": "string"}}
    schema = {"type": "object", "properties": properties, "required": ["a"], "additionalProperties": False}
    return ResponseFormat(type="json_schema", strict=True, json_schema=schema)  # its name is a detail row


def _cited_answer() -> list[Message]:
    source = CitationSource(type="url", url="https://example.com/a", title="A")
    answer = Text("It is so.", citations=[Citation(cited_text="so", source=source)])
    return [Message.user("hi"), Message.assistant(answer), Message.user("and?")]


def _setting_probes(samples: Mapping[str, Any]) -> dict[str, tuple[Request, Callable[[Request], Any]]]:
    """Per setting: a probe request, and how to read the setting back from a decoded request."""
    user = [Message.user("hi")]
    base: dict[str, Any] = {"model": "model-1", "messages": user, "max_tokens": 4096}
    tool = Tool(
        name="lookup",
        description="Look a thing up",
        input_schema={"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
    )

    def req(**kw: Any) -> Request:
        return Request(**{**base, **kw})

    def roles(r: Request) -> list[str]:
        return [m.role for m in r.messages]

    return {
        "system": (req(messages=[Message.system("be brief"), *user]), roles),
        "developer": (req(messages=[Message.developer("be brief"), *user]), roles),
        "mid_conversation_system": (req(messages=_mid_conversation_system()), roles),
        "tools": (req(tools=[tool]), lambda r: [t.name for t in r.tools if isinstance(t, Tool)]),
        "tool_strict": (
            req(tools=[tool.model_copy(update={"strict": True})]),
            lambda r: [t.strict for t in r.tools if isinstance(t, Tool)],
        ),
        "native_tools": (
            req(tools=[samples["native_tools"]]) if "native_tools" in samples else req(),
            lambda r: [t.data for t in r.tools if isinstance(t, NativeTool)],
        ),
        "tool_choice": (req(tools=[tool], tool_choice=ToolChoice(name="lookup")), lambda r: r.tool_choice),
        "parallel_tool_calls": (
            req(tools=[tool], tool_choice="auto", parallel_tool_calls=False),
            lambda r: r.parallel_tool_calls,
        ),
        "max_tokens": (req(max_tokens=123), lambda r: r.max_tokens),
        "temperature": (req(temperature=0.5), lambda r: r.temperature),
        "top_p": (req(top_p=0.9), lambda r: r.top_p),
        "top_k": (req(top_k=5), lambda r: r.top_k),
        "stop": (req(stop=["END"]), lambda r: r.stop),
        "seed": (req(seed=7), lambda r: r.seed),
        "presence_penalty": (req(presence_penalty=0.5), lambda r: r.presence_penalty),
        "frequency_penalty": (req(frequency_penalty=0.5), lambda r: r.frequency_penalty),
        "thinking": (
            req(thinking=samples.get("thinking_config", ThinkingConfig(budget_tokens=2048))),
            lambda r: r.thinking is not None,
        ),
        "response_format": (
            req(response_format=_json_format()),
            lambda r: r.response_format is not None and r.response_format.json_schema,
        ),
        "cache_control": (
            req(messages=[Message.user(Text("long context").with_cache_control())]),
            lambda r: [p.cache_control for m in r.messages for p in m.parts if hasattr(p, "cache_control")],
        ),
        "citations": (
            req(messages=_cited_answer()),
            lambda r: [c for m in r.messages for p in m.parts if isinstance(p, Text) for c in p.citations],
        ),
        "message_name": (
            req(messages=[Message.user("hi", name="alice"), Message.assistant("hello", name="bot"), *user]),
            lambda r: [m.name for m in r.messages],
        ),
        "message_id": (req(messages=[Message.user("hi", id="msg_1")]), lambda r: [m.id for m in r.messages]),
    }


def probe_requests(samples: Mapping[str, Any] | None = None) -> dict[str, tuple[Request, str | None]]:
    """Every probe: part type or setting -> (request, IR path of the probed part or None)."""
    samples = samples or {}
    out: dict[str, tuple[Request, str | None]] = {}
    for kind in PART_TYPES:
        part = samples.get(kind) or _default_part(kind)
        if part is None and kind == "tool_use":
            part = ToolUse("call_1", "lookup", {"q": "x"})
        if part is None and kind == "tool_result":
            part = ToolResult("call_1", "lookup", "42")
        if part is None:
            continue
        out[kind] = _part_probe(kind, part)
    for key, (request, _) in _setting_probes(samples).items():
        out[key] = (request, None)
    return out


def _warned(warnings: list[Any], kind: str, path: str | None) -> list[Any]:
    hits = []
    for w in warnings:
        if (isinstance(w, LossyEncode) and (w.part_type == kind or (path and w.path.startswith(path)))) or (
            isinstance(w, UnsupportedSetting) and (w.setting == kind or (path and w.path.startswith(path)))
        ):
            hits.append(w)
    return hits


def assert_capabilities_hold(codec: Codec, samples: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Walk every declared row of ``codec.capabilities`` and check it against behaviour.

    ``samples`` may give a part per part type (e.g. a thinking part with this codec's own
    signature), ``"native"`` (a Native of this codec's provider: required), ``"native_tools"`` (a
    NativeTool of this codec's provider: required when that row is native) and
    ``"thinking_config"``. Returns {row: "native" | "lossy"} as checked; raises AssertionError
    listing every row that disagrees.
    """
    samples = dict(samples or {})
    if "native" not in samples:
        raise AssertionError("pass samples['native']: a Native part of this codec's own provider")
    caps = codec.capabilities
    setting_readers = _setting_probes(samples)
    failures: list[str] = []
    checked: dict[str, str] = {}
    for key, (request, path) in probe_requests(samples).items():
        declared = caps.support(key)
        if key == "native_tools" and "native_tools" not in samples:
            if declared == "native":
                failures.append("native_tools: declared native, but no samples['native_tools'] to check it")
            continue
        encoded = codec.encode_request(request)
        hits = _warned(encoded.warnings, key, path)
        if declared == "lossy":
            if not hits:
                failures.append(f"{key}: declared lossy, but encoding it gave no warning")
        else:
            if hits:
                failures.append(f"{key}: declared native, but encoding it warned: {[str(h) for h in hits]}")
            else:
                problem = _round_trip_problem(codec, request, encoded.body, key, path, setting_readers)
                if problem:
                    failures.append(f"{key}: declared native, but {problem}")
        checked[key] = declared
    if failures:
        raise AssertionError(f"{codec.name} capabilities disagree with behaviour:\n  " + "\n  ".join(failures))
    return checked


def _round_trip_problem(
    codec: Codec,
    request: Request,
    body: Mapping[str, Any],
    key: str,
    path: str | None,
    readers: Mapping[str, tuple[Request, Callable[[Request], Any]]],
) -> str | None:
    decoded = codec.decode_request(body)
    if path is not None:
        if not any(p.type == key for m in decoded.messages for p in m.parts):
            return f"no {key} part came back from decode_request"
        return None
    read = readers[key][1]
    if read(decoded) != read(request):
        return f"decode_request gave {read(decoded)!r}, expected {read(request)!r}"
    return None
