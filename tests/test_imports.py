"""What ``import interlingua`` exposes and what it leaves unloaded (PERF.md's import budget), and
the slotted records that replaced dataclasses to keep that import cheap."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

import interlingua as il
import interlingua.kit as kit


def _loaded_after(code: str, modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` a fresh interpreter has loaded after running ``code``."""
    probe = f"import sys\n{code}\nprint(' '.join(m for m in {modules!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    return out.split()


def test_every_name_in_all_resolves_and_is_listed_by_dir() -> None:
    assert len(il.__all__) == len(set(il.__all__))
    assert [name for name in il.__all__ if getattr(il, name, None) is None] == []
    assert set(il.__all__) <= set(dir(il))
    assert [name for name in kit.__all__ if getattr(kit, name, None) is None] == []


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        il.Nope  # noqa: B018  # the point: it does not exist


def test_lazy_names_are_the_objects_of_their_modules() -> None:
    from interlingua._budgets import ThinkingBudgets
    from interlingua._client import Client
    from interlingua._transcript import Transcript

    assert (il.Transcript, il.ThinkingBudgets, il.Client) == (Transcript, ThinkingBudgets, Client)


_DEFERRED = ("interlingua._client", "interlingua._transcript", "interlingua._budgets", "httpx2", "asyncio")
_SDKS = ("anthropic", "openai", "google.genai", "google.auth", "botocore", "cohere", "httpx2")


def test_import_interlingua_leaves_transport_transcripts_and_budgets_unloaded() -> None:
    assert _loaded_after("import interlingua", _DEFERRED) == []
    assert _loaded_after("import interlingua as il; il.Transcript", _DEFERRED) == ["interlingua._transcript"]


_IR = ("interlingua._model", "interlingua._parts", "interlingua._message", "interlingua._warnings", "pydantic.fields")


def test_import_interlingua_builds_no_pydantic_model_until_a_name_of_the_ir_is_asked_for() -> None:
    """Issue 46 item 2: the IR's classes (and pydantic's field machinery under them) load with
    the first IR name used, not with the package."""
    assert _loaded_after("import interlingua", _IR) == []
    assert _loaded_after("from interlingua import Text", _IR) == [
        "interlingua._model",
        "interlingua._parts",
        "pydantic.fields",
    ]
    assert _loaded_after("import interlingua as il; il.Message", _IR) == [*_IR[:3], "pydantic.fields"]


_PLUGIN_SRC = Path(__file__).parent / "plugin_codec" / "src"
_KIT_EXTRAS = ("interlingua._batch", "interlingua._sigv4", "interlingua._eventstream", "interlingua._gcp_auth")


def test_a_codec_loads_the_kit_modules_it_reads_and_no_others() -> None:
    """The lumen plugin (tests/plugin_codec) reads the kit's readers, turn rules and codec base,
    and no batch, SigV4, event-stream or Google auth helper: none of those loads with it."""
    code = f"import sys; sys.path.insert(0, {str(_PLUGIN_SRC)!r}); import interlingua_lumen"
    assert _loaded_after(code, ("interlingua._normalize", "interlingua._codec_base", *_KIT_EXTRAS)) == [
        "interlingua._normalize",
        "interlingua._codec_base",
    ]


def test_loading_every_codec_imports_no_vendor_sdk_and_no_transport() -> None:
    """DESIGN.md: a codec never imports its SDK at import time; the transport loads on first use."""
    load_all = "import interlingua as il; assert len([il.get_codec(n) for n in il.codecs()]) >= 4"
    assert _loaded_after(load_all, (*_SDKS, "interlingua._client")) == []


# --- the records (stream and SSE events) -------------------------------------------------------


def test_records_compare_by_value_within_one_type_only() -> None:
    assert il.TextDelta(0, "a") == il.TextDelta(0, "a")
    assert il.TextDelta(0, "a") != il.TextDelta(0, "b")
    assert il.TextDelta(0, "a") != il.ThinkingDelta(0, "a")
    assert hash(il.PartEnd(1)) == hash(il.PartEnd(1))
    assert il.ServerSentEvent("x") == il.ServerSentEvent(data="x", event="message", id="", retry=None)


def test_records_are_frozen() -> None:
    delta = il.TextDelta(0, "a")
    with pytest.raises(FrozenInstanceError):
        delta.text = "b"  # type: ignore[misc]  # the point: assignment is refused
    with pytest.raises(FrozenInstanceError):
        del delta.text  # nor deletion
    assert delta.text == "a"


def test_records_have_a_dataclass_style_repr() -> None:
    assert repr(il.MessageEnd("end_turn")) == (
        "MessageEnd(stop_reason='end_turn', raw_stop_reason=None, usage=None, cost=None)"
    )
    assert repr(il.ServerSentEvent("x", event="ping")) == "ServerSentEvent(data='x', event='ping', id='', retry=None)"


def test_records_pickle_and_copy() -> None:
    events = [
        il.MessageStart(id="m", provider_echoes=[il.ProviderEcho(provider="acme", data={"k": 1})]),
        il.PartStart(0, il.Text("")),
        il.Echo(None, il.ProviderEcho(provider="acme", data={})),
        il.MessageEnd("tool_use", "tool_calls", il.Usage(input_tokens=3)),
        il.ServerSentEvent("data", event="delta", id="7", retry=10),
    ]
    assert pickle.loads(pickle.dumps(events)) == events
    assert [copy.copy(e) for e in events] == events == copy.deepcopy(events)


def test_records_match_positionally_by_field_order() -> None:
    match il.ToolInputDelta(2, '{"a"'):
        case il.ToolInputDelta(index, piece):
            assert (index, piece) == (2, '{"a"')
        case _:
            pytest.fail("no match")


def test_a_message_start_gets_its_own_echo_list() -> None:
    first, second = il.MessageStart(), il.MessageStart()
    assert first.provider_echoes == [] and first.provider_echoes is not second.provider_echoes


def test_warning_text_takes_the_article_its_noun_sounds_with() -> None:
    from interlingua.kit import article

    nouns = ["anthropic", "openai", "acme", "image", "audio", "user", "url", "unsigned", "tool_use", "gemini"]
    assert [article(noun) for noun in nouns] == [
        "an anthropic",
        "an openai",
        "an acme",
        "an image",
        "an audio",
        "a user",
        "a url",
        "an unsigned",
        "a tool_use",
        "a gemini",
    ]


def test_the_kit_pricing_and_testing_are_attributes_loaded_on_first_use() -> None:
    import subprocess
    import sys

    script = (
        "import sys, interlingua as il\n"
        "assert 'interlingua.kit' not in sys.modules and 'interlingua.pricing' not in sys.modules\n"
        "print(il.kit.article('acme'), il.pricing.estimate.__name__, il.testing.strip_none({'a': None}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout == "an acme estimate {}\n"
