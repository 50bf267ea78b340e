"""Warnings are true (DESIGN.md invariant 2): every warning the real corpora's cross conversions
give names something absent or changed in the target body. The judge (``_crossings``) decodes
each target body with the target's codec and looks for the warned value in what came back."""

from __future__ import annotations

import pytest

from interlingua import AnyWarning, CacheControl, ForeignOption, LossyEncode, Message, Request, Text, UnsupportedSetting
from interlingua.testing import corpus_missing, corpus_required, skip_without_corpus

from ._crossings import crossings, false_alarms, recordings
from .conftest import BY_ID

CORPORA = ("real", "lingua", "pydantic-ai")


@pytest.mark.parametrize("corpus", CORPORA)
def test_every_warning_of_a_corpus_cross_conversion_names_a_real_loss(corpus: str) -> None:
    skip_without_corpus("real" if corpus == "pydantic-ai" else corpus)  # type: ignore[arg-type]
    if not recordings(corpus):
        reason = corpus_missing("real") or f"the {corpus} corpus is not beside shared/fixtures/real"
        if corpus_required():
            raise FileNotFoundError(reason)
        pytest.skip(reason)
    found, warned = [], 0
    for recording, request, target in crossings(corpus):
        encoded = target.codec.encode_request(request)
        warned += len(encoded.warnings)
        found += [f"{recording.id} -> {target.id}: {alarm}" for alarm in false_alarms(request, target, encoded)]
    assert warned > 0  # the corpus was read and crosses with real losses
    assert found == [], f"{len(found)} false alarms, the first: " + "\n".join(found[:10])


# --- the judge itself: it catches a false alarm of each kind, and passes a true warning ---------

CHAT = BY_ID["openai-chat"]
ANTHROPIC = BY_ID["anthropic-messages"]


def _request(**fields: object) -> Request:
    return Request.model_validate({"model": "claude-sonnet-4-5", "messages": [Message.user("hi")], **fields})


def test_the_judge_catches_an_option_that_crossed_as_the_ir_field_of_its_name() -> None:
    request = _request(max_tokens=100, provider_options={"openai": {"max_tokens": 100}})
    encoded = ANTHROPIC.codec.encode_request(request)
    assert [type(w) for w in encoded.warnings] == [ForeignOption]  # as a decoder that kept the spelling gave
    assert false_alarms(request, ANTHROPIC, encoded) == [f"ForeignOption {encoded.warnings[0]}"]


def test_the_judge_catches_a_setting_and_a_part_that_came_back_unchanged() -> None:
    request = _request(temperature=0.5)
    encoded = ANTHROPIC.codec.encode_request(request)
    made_up: list[AnyWarning] = [
        UnsupportedSetting(codec="x", path="temperature", message="m", setting="temperature"),
        LossyEncode(codec="x", path="messages[0].parts[0]", message="m", part_type="text", action="dropped"),
    ]
    alarms = false_alarms(request, ANTHROPIC, type(encoded)(encoded.body, made_up))
    assert [alarm.split()[0] for alarm in alarms] == ["UnsupportedSetting", "LossyEncode"]


def test_the_judge_passes_warnings_about_what_was_really_lost() -> None:
    marked = Text("hi", cache_control=CacheControl(ttl="5m"))
    request = _request(top_k=5, messages=[Message.user(marked)], provider_options={"gemini": {"cachedContent": "c"}})
    request = request.model_copy(update={"model": CHAT.model})
    encoded = CHAT.codec.encode_request(request)
    paths = {w.path for w in encoded.warnings}
    assert paths == {"top_k", "messages[0].parts[0]", "provider_options.gemini.cachedContent"}
    assert false_alarms(request, CHAT, encoded) == []
