"""The field-coverage walk on types of its own: paths, tags, recursion, and the two failures."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NotRequired, Required

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

import interlingua as il
from interlingua.testing import coverage_problems, covering, probe_outcome, sdk_paths


class TextBlock(TypedDict, total=False):
    type: Required[Literal["text"]]
    text: Required[str]
    cache_control: CacheMark | None


class CacheMark(TypedDict):
    type: Literal["ephemeral"]
    ttl: NotRequired[str]


class ImageBlock(TypedDict, total=False):
    type: Required[Literal["image"]]
    url: str


class Turn(TypedDict, total=False):
    role: Required[Literal["user", "assistant"]]
    content: str | list[TextBlock | ImageBlock]


class Params(TypedDict, total=False):
    model: Required[str]
    messages: Required[list[Turn]]
    metadata: dict[str, str]
    choice: ChoiceAuto | ChoiceTool


class ChoiceAuto(TypedDict):
    type: Literal["auto"]


class ChoiceTool(TypedDict):
    type: Literal["tool"]
    name: str


class Schema(BaseModel):
    """Recursive, with a camelCase alias, as google-genai's models are."""

    any_of: list[Schema] | None = Field(default=None, alias="anyOf")
    title: str | None = None


class Answer(BaseModel):
    id: str
    schema_: Annotated[Schema | None, Field(alias="schema")] = None


def test_paths_name_list_members_and_union_members_by_their_tag() -> None:
    assert sdk_paths(Params) == {
        "model",
        "messages[].role",
        "messages[].content",
        "messages[].content[text].text",
        "messages[].content[text].cache_control.type",
        "messages[].content[text].cache_control.ttl",
        "messages[].content[image].url",
        "metadata",
        "choice(tool).name",
    }


def test_a_recursive_model_is_walked_once_by_its_aliases() -> None:
    assert sdk_paths(Answer) == {"id", "schema.anyOf", "schema.title"}
    assert sdk_paths({"answer": Answer, "count": int}) == {
        "answer.id",
        "answer.schema.anyOf",
        "answer.schema.title",
        "count",
    }


DECLARED = {
    "model": ("ir", "Request.model"),
    "messages[].role": ("ir", "Message.role"),
    "messages[].content": ("ir", "Message.parts"),
    "messages[].content[text].text": ("ir", "Text.text"),
    "messages[].content[*].cache_control.*": ("ir", "Text.cache_control"),
    "messages[].content[image].*": ("native", "kept whole"),
    "metadata": ("provider_option", "verbatim"),
    "choice(*).*": ("ir", "Request.tool_choice"),
}


def test_a_complete_declaration_has_no_problem_and_the_most_specific_row_covers() -> None:
    assert coverage_problems(DECLARED, sdk_paths(Params)) == []
    assert covering(DECLARED, "messages[].content[text].text") == "messages[].content[text].text"
    assert covering(DECLARED, "messages[].content[text].cache_control.ttl") == "messages[].content[*].cache_control.*"
    assert covering(DECLARED, "messages[].content[].text") is None  # [*] stands for a tag, not for none


def test_a_new_sdk_key_and_a_stale_row_each_fail_by_path() -> None:
    declared = {k: v for k, v in DECLARED.items() if k != "metadata"}
    declared["messages[].name"] = ("ir", "Message.name")
    declared["seed"] = ("bogus", "")  # type: ignore[assignment]  # an unknown destination is reported too
    assert coverage_problems(declared, sdk_paths(Params)) == [
        "metadata: not declared (where does this SDK key go?)",
        "messages[].name: declared, but the SDK has no such key (stale)",
        "seed: unknown destination 'bogus' (one of ir, replay, meaning, native, provider_option, warned, transport)",
        "seed: declared, but the SDK has no such key (stale)",
    ]


@dataclass
class Shape:
    """A service model's shape, as the walk reads one: ``type_name`` and its members."""

    name: str
    type_name: str
    members: dict[str, Shape] = field(default_factory=dict)
    member: Shape | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


def test_service_model_shapes_are_walked_as_their_keys() -> None:
    text, flag = Shape("Text", "string"), Shape("Flag", "boolean")
    block = Shape(
        "Block", "structure", {"text": text, "image": Shape("Image", "structure", {"bytes": Shape("B", "blob")})}
    )
    block.metadata["union"] = True
    nested = Shape("Nested", "structure", {"inner": text})
    nested.members["again"] = nested  # recursive: listed once, where it recurs
    request = Shape(
        "Request",
        "structure",
        {
            "messages": Shape("Messages", "list", member=Shape("Message", "structure", {
                "role": text, "content": Shape("Blocks", "list", member=block)})),
            "fields": Shape("Document", "structure", metadata={"document": True}),
            "labels": Shape("Labels", "map"),
            "choice": Shape("Choice", "structure", {"auto": Shape("Auto", "structure"), "strict": flag}),
            "nested": nested,
        },
    )  # fmt: skip
    assert sdk_paths(request) == {
        "messages[].role",
        "messages[].content[].text",
        "messages[].content[].image.bytes",
        "fields",
        "labels",
        "choice.auto",
        "choice.strict",
        "nested.inner",
        "nested.again",
    }


class _Source:
    """Decodes ``{"name": ...}`` to a request whose document has that name (or none)."""

    def decode_request(self, body: Mapping[str, Any]) -> il.Request:
        document = il.Document(
            source=il.MediaSource.from_base64("application/pdf", "JVBERi0xLjQK"), name=body.get("name")
        )
        return il.Request(model="m", messages=[il.Message(role="user", parts=[document, il.Text("what is this?")])])


class _Target:
    """Drops every document with one warning at its part, whatever its name."""

    def encode_request(self, request: il.Request) -> il.Encoded:
        warning = il.LossyEncode(
            codec="t", path="messages[0].parts[0]", message="no documents", part_type="document", action="dropped"
        )
        return il.Encoded(body={"text": "what is this?"}, warnings=[warning])

    def http_request(self, request: il.Request, *, stream: bool, endpoint: il.Endpoint) -> il.HttpRequest:
        return il.HttpRequest(method="POST", url="https://t", headers={}, json=self.encode_request(request).body)


def test_a_key_inside_a_part_the_target_drops_whole_is_reported_with_it() -> None:
    source: Any = _Source()  # the two methods probe_outcome calls, not a whole Codec
    target: Any = _Target()
    assert probe_outcome(source, target, {"name": "a.pdf"}, {}, "messages[0].parts[0]") == "warned"
    # the same drop, seen from a key of another part, says nothing about that key
    assert probe_outcome(source, target, {"name": "a.pdf"}, {}, "messages[0].parts[1]") == "silent"
