"""gemini probes: a minimal request carrying each key its codec decodes into the IR or
provider_options, and an answer carrying each response key the conformance suite follows (moved
from the core's ``tests/conformance/_coverage_probes.py``; ``interlingua.testing.conformance``
says what a probe is). Named by this package's ``_conformance.CONFORMANCE``."""

from __future__ import annotations

import copy
from typing import Any

from interlingua.testing.conformance import (
    ANSWER_SCHEMA,
    PDF,
    PNG,
    SCHEMA,
    Body,
    Probe,
    answer,
    options,
    pair,
)

_G: Body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
_G_TOOL = {"name": "lookup", "description": "Look a thing up", "parametersJsonSchema": SCHEMA}
_G_TEXT = {"text": "what is this?"}
_G_IMAGE = {"inlineData": {"mimeType": "image/png", "data": PNG}}
_G_LINKED = {"fileData": {"mimeType": "image/png", "fileUri": "https://example.com/a.png"}}


def _g_user(*parts: Body) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": list(parts)}]}


def _g_turns(*model: Body, role: str = "model") -> dict[str, Any]:
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": role, "parts": list(model)},
            {"role": "user", "parts": [{"text": "and?"}]},
        ]
    }


def _g_call(args: Any = None, answer: Any = None) -> dict[str, Any]:
    call = {"functionCall": {"name": "lookup", "args": args or {"q": "x"}}, "thoughtSignature": "c2ln"}
    reply = {"functionResponse": {"name": "lookup", "response": answer or {"result": "42"}}}
    return {
        "tools": [{"functionDeclarations": [_G_TOOL]}],
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": [call]},
            {"role": "user", "parts": [reply]},
        ],
    }


def _g_config(**config: Any) -> dict[str, Any]:
    return {"generationConfig": config}


def _g_system(*parts: Body) -> dict[str, Any]:
    return {"systemInstruction": {"parts": [{"text": "be brief"}, *parts]}}


def gemini() -> dict[str, Probe]:
    at = "messages[0].parts[0]"
    tools = {"tools": [{"functionDeclarations": [_G_TOOL]}]}
    config = "generationConfig"
    return {
        "contents[].role": pair(
            _G, _g_turns({"text": "hello"}), _g_turns({"text": "hello"}, role="user"), "messages[1]"
        ),
        "contents[].parts[].text": pair(_G, _g_user(_G_TEXT, {"text": "hi"}), {}, at),
        "contents[].parts[].thought": pair(
            _G,
            _g_turns({"text": "let me think", "thought": True}, {"text": "done"}),
            _g_turns({"text": "done"}),
            "messages[1].parts[0]",
        ),
        "contents[].parts[].functionCall.*": pair(_G, _g_call(args={"q": "y"}), _g_call(), "messages[1].parts[0]"),
        "contents[].parts[].functionResponse.*": pair(
            _G, _g_call(answer={"result": "43"}), _g_call(), "messages[2].parts[0]"
        ),
        "contents[].parts[].inlineData.*": pair(_G, _g_user(_G_IMAGE, _G_TEXT), _g_user(_G_TEXT), at),
        "contents[].parts[].fileData.*": pair(_G, _g_user(_G_LINKED, _G_TEXT), _g_user(_G_TEXT), at),
        "systemInstruction.parts[].text": pair(_G, _g_system(), {}, "messages[0]"),
        "systemInstruction.parts[].inlineData.*": pair(_G, _g_system(_G_IMAGE), _g_system(), "messages[0].parts[1]"),
        "systemInstruction.parts[].fileData.*": pair(_G, _g_system(_G_LINKED), _g_system(), "messages[0].parts[1]"),
        "tools[].functionDeclarations[].name": pair(_G, tools, {}, "tools[0]"),
        "tools[].functionDeclarations[].description": pair(
            _G,
            tools,
            {"tools": [{"functionDeclarations": [{"name": "lookup", "parametersJsonSchema": SCHEMA}]}]},
            "tools[0]",
        ),
        "tools[].functionDeclarations[].parametersJsonSchema": pair(
            _G,
            tools,
            {"tools": [{"functionDeclarations": [{**_G_TOOL, "parametersJsonSchema": {"type": "object"}}]}]},
            "tools[0]",
        ),
        "tools[].functionDeclarations[].parameters.*": pair(
            _G,
            {
                "tools": [
                    {
                        "functionDeclarations": [
                            {
                                "name": "lookup",
                                "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}},
                            }
                        ]
                    }
                ]
            },
            {"tools": [{"functionDeclarations": [{"name": "lookup", "parameters": {"type": "OBJECT"}}]}]},
            "tools[0]",
        ),
        "toolConfig.functionCallingConfig.mode": pair(
            _G, {**tools, "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}, tools, "tool_choice"
        ),
        "toolConfig.functionCallingConfig.allowedFunctionNames": pair(
            _G,
            {**tools, "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["lookup"]}}},
            {**tools, "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}},
            "tool_choice",
        ),
        "generationConfig.maxOutputTokens": pair(_G, _g_config(maxOutputTokens=256), {}, "max_tokens"),
        "generationConfig.temperature": pair(_G, _g_config(temperature=0.5), {}, "temperature"),
        "generationConfig.topP": pair(_G, _g_config(topP=0.9), {}, "top_p"),
        "generationConfig.topK": pair(_G, _g_config(topK=5), {}, "top_k"),
        "generationConfig.stopSequences": pair(_G, _g_config(stopSequences=["END"]), {}, "stop"),
        "generationConfig.seed": pair(_G, _g_config(seed=7), {}, "seed"),
        "generationConfig.presencePenalty": pair(_G, _g_config(presencePenalty=0.5), {}, "presence_penalty"),
        "generationConfig.frequencyPenalty": pair(_G, _g_config(frequencyPenalty=0.5), {}, "frequency_penalty"),
        "generationConfig.responseMimeType": pair(
            _G, _g_config(responseMimeType="application/json"), {}, "response_format"
        ),
        "generationConfig.responseJsonSchema": pair(
            _G,
            _g_config(responseMimeType="application/json", responseJsonSchema=ANSWER_SCHEMA),
            _g_config(responseMimeType="application/json"),
            "response_format",
        ),
        "generationConfig.thinkingConfig.thinkingBudget": pair(
            _G, _g_config(thinkingConfig={"thinkingBudget": 2048}), {}, "thinking"
        ),
        "generationConfig.thinkingConfig.thinkingLevel": pair(
            _G, _g_config(thinkingConfig={"thinkingLevel": "HIGH"}), {}, "thinking"
        ),
        "generationConfig.thinkingConfig.includeThoughts": pair(
            _G,
            _g_config(thinkingConfig={"thinkingLevel": "HIGH", "includeThoughts": True}),
            _g_config(thinkingConfig={"thinkingLevel": "HIGH"}),
            "thinking",
        ),
        "toolConfig.*": pair(
            _G,
            {"toolConfig": {"retrievalConfig": {"languageCode": "en"}}},
            {},
            "provider_options.gemini.toolConfig",
        ),
        f"{config}.*": pair(_G, _g_config(candidateCount=2), {}, "provider_options.gemini.generationConfig"),
        **options(
            _G,
            "gemini",
            {
                "safetySettings[].*": (
                    "safetySettings",
                    [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_ONLY_HIGH"}],
                ),
                "cachedContent": ("cachedContent", "cachedContents/abc"),
                "labels": ("labels", {"team": "a"}),
            },
        ),
    }


# --- responses: stop reason, usage, citations, thinking ------------------------------------------


_G_ANSWER: Body = {
    "candidates": [{"content": {"role": "model", "parts": [{"text": "It is so."}]}, "finishReason": "STOP"}],
    "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
    "modelVersion": "gemini-3-pro-preview",
    "responseId": "r1",
}


def gemini_answers() -> dict[str, Probe]:
    usage = _G_ANSWER["usageMetadata"]
    said = _G_ANSWER["candidates"][0]
    return {
        "candidates[].finishReason": answer(
            _G_ANSWER, "stop_reason", candidates=[{**said, "finishReason": "MAX_TOKENS"}]
        ),
        "usageMetadata.promptTokenCount": answer(
            _G_ANSWER, "usage", usageMetadata={**usage, "promptTokenCount": 20, "totalTokenCount": 25}
        ),
        "usageMetadata.candidatesTokenCount": answer(
            _G_ANSWER, "usage", usageMetadata={**usage, "candidatesTokenCount": 9, "totalTokenCount": 19}
        ),
        "usageMetadata.cachedContentTokenCount": answer(
            _G_ANSWER, "usage", usageMetadata={**usage, "cachedContentTokenCount": 4}
        ),
        "usageMetadata.thoughtsTokenCount": answer(
            _G_ANSWER, "usage", usageMetadata={**usage, "thoughtsTokenCount": 3, "totalTokenCount": 18}
        ),
        "candidates[].content.parts[].thought": answer(
            _G_ANSWER,
            "message.parts[0]",
            candidates=[
                {
                    **said,
                    "content": {
                        "role": "model",
                        "parts": [{"text": "let me think", "thought": True}, {"text": "It is so."}],
                    },
                }
            ],
        ),
    }


# The meaning rows whose sense no IR field holds (issue 36 item 2): the key rides in its part's or
# message's echo marked ``unmapped`` (``ProviderEcho.unmapped``); its own wire writes it back and
# every other wire must report it dropped. Each probe is one part with the key and without it.

_G_VIDEO = {"fileData": {"mimeType": "video/mp4", "fileUri": "https://example.com/a.mp4"}}
_G_AUDIO = {"inlineData": {"mimeType": "audio/wav", "data": PNG}}
_G_PDF = {"inlineData": {"mimeType": "application/pdf", "data": PDF}}
_G_SHEET = {"inlineData": {"mimeType": "text/csv", "data": "YSxiCjEsMgo="}}
_G_PNG = {"inlineData": {"mimeType": "image/png", "data": PNG}}

_GEMINI: dict[str, tuple[Body, Body]] = {
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


def meaning() -> dict[str, Probe]:
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


def meaning_answers() -> dict[str, Probe]:
    probes: dict[str, Probe] = {}
    for row, (part, key) in _GEMINI.items():
        answered = []
        for parts in ([{**part, **key}, {"text": "It is so."}], [part, {"text": "It is so."}]):
            body = copy.deepcopy(_G_ANSWER)
            body["candidates"][0]["content"]["parts"] = parts
            answered.append(body)
        probes[f"candidates[].content.parts[].{row}"] = Probe(answered[0], answered[1], "message.parts[0]")
    return probes
