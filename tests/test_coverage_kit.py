"""The field-coverage walk on types of its own: paths, tags, recursion, and the two failures."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, Required

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from interlingua.testing import coverage_problems, covering, sdk_paths


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
        "seed: unknown destination 'bogus' (one of ir, echo, native, provider_option, warned, transport)",
        "seed: declared, but the SDK has no such key (stale)",
    ]
