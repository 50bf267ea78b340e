"""Probes of the ``meaning`` rows added by issue 36 item 2: those whose sense no IR field holds
(the key rides in its part's or message's echo marked ``unmapped``, ``ProviderEcho.unmapped``:
its own wire writes it back, every other wire must report it dropped), a breakpoint that is the
part's ``cache_control``, a file's ``Document.detail``, and a document in a Bedrock answer. Each
probe is one part (or message) with the key and the same part without it, so the verdict is
about the key alone."""

from __future__ import annotations

import copy

from ._coverage_probes import _C, _G, _G_ANSWER, _R, _R_ANSWER, PDF, PNG, Body, Probe, _g_system, _g_user, pair

_G_VIDEO = {"fileData": {"mimeType": "video/mp4", "fileUri": "https://example.com/a.mp4"}}
_G_AUDIO = {"inlineData": {"mimeType": "audio/wav", "data": PNG}}
_G_PDF = {"inlineData": {"mimeType": "application/pdf", "data": PDF}}
_G_SHEET = {"inlineData": {"mimeType": "text/csv", "data": "YSxiCjEsMgo="}}
_G_PNG = {"inlineData": {"mimeType": "image/png", "data": PNG}}

_GEMINI = {
    # google-genai types: VideoMetadata (startOffset, endOffset, fps), PartMediaResolution (level,
    # numTokens), Transcription (text), SpeechMetadata (speaker, style), DocumentMetadata
    # (startPage, endPage), SpreadsheetMetadata (sheetIndex, visibleCells), AudioMetadata.
    "videoMetadata.*": (_G_VIDEO, {"videoMetadata": {"startOffset": "1s", "endOffset": "5s", "fps": 2}}),
    "mediaResolution.*": (_G_PNG, {"mediaResolution": {"level": "MEDIA_RESOLUTION_HIGH"}}),
    "audioTranscription.*": (_G_AUDIO, {"audioTranscription": {"text": "hello there"}}),
    "speechMetadata.*": ({"text": "Read this calmly."}, {"speechMetadata": {"speaker": "Joe", "style": "calm"}}),
    "documentMetadata.*": (_G_PDF, {"documentMetadata": {"startPage": 1, "endPage": 2}}),
    "spreadsheetMetadata.*": (_G_SHEET, {"spreadsheetMetadata": {"sheetIndex": 1, "visibleCells": "A1:B2"}}),
    "audioMetadata.*": (_G_AUDIO, {"audioMetadata": {"startOffset": "1s", "endOffset": "3s"}}),
}
"""row under a part -> (the bare part, the key added)."""


def gemini() -> dict[str, Probe]:
    text = {"text": "what is this?"}
    probes: dict[str, Probe] = {}
    for row, (part, key) in _GEMINI.items():
        probes[f"contents[].parts[].{row}"] = pair(
            _G, _g_user({**part, **key}, text), _g_user(part, text), "messages[0].parts[0]"
        )
        probes[f"systemInstruction.parts[].{row}"] = pair(
            _G, _g_system({**part, **key}), _g_system(part), "messages[0].parts[1]"
        )
    return probes


def gemini_answers() -> dict[str, Probe]:
    probes: dict[str, Probe] = {}
    for row, (part, key) in _GEMINI.items():
        answered = []
        for parts in ([{**part, **key}, {"text": "It is so."}], [part, {"text": "It is so."}]):
            body = copy.deepcopy(_G_ANSWER)
            body["candidates"][0]["content"]["parts"] = parts
            answered.append(body)
        probes[f"candidates[].content.parts[].{row}"] = Probe(answered[0], answered[1], "message.parts[0]")
    return probes


def merged(base: dict[str, Probe], extra: dict[str, Probe]) -> dict[str, Probe]:
    assert not base.keys() & extra.keys(), sorted(base.keys() & extra.keys())
    return {**base, **extra}


def openai_chat() -> dict[str, Probe]:
    # openai types: ChatCompletionContentPartTextParam.prompt_cache_breakpoint (mode, ttl) and
    # ChatCompletionAssistantMessageParam.function_call (name, arguments), deprecated.
    mark = {"prompt_cache_breakpoint": {"mode": "explicit", "ttl": "30m"}}
    text = {"type": "text", "text": "what is this?"}
    system = [{"role": "system", "content": [{**text, "text": "be brief"}]}, {"role": "user", "content": "hi"}]
    marked = [{**system[0], "content": [{**text, "text": "be brief", **mark}]}, system[1]]
    said = {"role": "assistant", "content": "Looking."}
    call = {"function_call": {"name": "lookup", "arguments": '{"q": "x"}'}}
    turns = [{"role": "user", "content": "hi"}, said, {"role": "user", "content": "and?"}]
    called = [turns[0], {**said, **call}, turns[2]]
    return {
        "messages[*].content[*].prompt_cache_breakpoint.*": pair(
            _C,
            {"messages": [{"role": "user", "content": [{**text, **mark}]}]},
            {"messages": [{"role": "user", "content": [text]}]},
            "messages[0].parts[0]",
        ),
        "messages[*].content[].prompt_cache_breakpoint.*": pair(
            _C, {"messages": marked}, {"messages": system}, "messages[0].parts[0]"
        ),
        "messages[assistant].function_call.*": pair(_C, {"messages": called}, {"messages": turns}, "messages[1]"),
    }


_R_PDF = {"type": "input_file", "file_id": "file_1"}
_R_MARK = {"prompt_cache_breakpoint": {"mode": "explicit", "ttl": "30m"}}
_R_THOUGHT = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "let me think"}]}
_R_RAW = {"content": [{"type": "reasoning_text", "text": "first, the units"}]}


def _r_output(block: Body, bare: Body) -> Probe:
    def call(output: list[Body]) -> Body:
        return {
            "input": [
                {"role": "user", "content": "hi"},
                {"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": '{"q": "x"}'},
                {"type": "function_call_output", "call_id": "call_1", "output": output},
            ]
        }

    return pair(_R, call([block]), call([bare]), "messages[2].parts[0].content[0]")


def openai_responses() -> dict[str, Probe]:
    # openai types: ResponseInputFileParam.detail (auto, low, high), ResponseInputTextParam and
    # ResponseInputFileParam.prompt_cache_breakpoint, ResponseReasoningItemParam.content.
    text = {"type": "input_text", "text": "what is this?"}

    def user(*blocks: Body) -> Body:
        return {"input": [{"role": "user", "content": list(blocks)}]}

    said = {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant"}
    said = {**said, "content": [{"type": "output_text", "text": "It is so.", "annotations": []}]}

    def turns(*items: Body) -> Body:
        return {"input": [{"role": "user", "content": "hi"}, *items, {"role": "user", "content": "and?"}]}

    return {
        "input[message].content[input_file].detail": pair(
            _R, user({**_R_PDF, "detail": "low"}, text), user(_R_PDF, text), "messages[0].parts[0]"
        ),
        "input[message].content[*].prompt_cache_breakpoint.*": pair(
            _R, user({**text, **_R_MARK}), user(text), "messages[0].parts[0]"
        ),
        "input[function_call_output].output[input_file].detail": _r_output({**_R_PDF, "detail": "low"}, _R_PDF),
        "input[function_call_output].output[*].prompt_cache_breakpoint.*": _r_output({**_R_PDF, **_R_MARK}, _R_PDF),
        "input[reasoning].content[].*": pair(
            _R, turns({**_R_THOUGHT, **_R_RAW}, said), turns(_R_THOUGHT, said), "messages[1].parts[0]"
        ),
    }


def responses_answers() -> dict[str, Probe]:
    said = _R_ANSWER["output"][0]
    return {
        "output[reasoning].content[].*": Probe(
            {**copy.deepcopy(_R_ANSWER), "output": [{**_R_THOUGHT, **_R_RAW}, said]},
            {**copy.deepcopy(_R_ANSWER), "output": [_R_THOUGHT, said]},
            "message.parts[0]",
        )
    }


def bedrock_answers() -> dict[str, Probe]:
    """A document in an answer (botocore's ``DocumentBlock`` in ``ContentBlock``): its ``context``
    and ``citations`` decode to ``Document.context`` / ``Document.citations`` as in a request."""
    from ._probes_bedrock import _ANSWER

    pdf = {"format": "pdf", "name": "report", "source": {"bytes": PDF}}
    fields = {"context": {"context": "from the finance team"}, "citations.*": {"citations": {"enabled": True}}}
    probes = {}
    for row, extra in fields.items():
        answered = []
        for document in ({**pdf, **extra}, pdf):
            body = copy.deepcopy(_ANSWER)
            body["output"]["message"]["content"].insert(0, {"document": document})
            answered.append(body)
        probes[f"output.message.content[].document.{row}"] = Probe(answered[0], answered[1], "message.parts[0]")
    return probes
