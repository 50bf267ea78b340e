"""Each caller wire driven by its official SDK client: a tool-call turn (plain or streamed through
the SDK's own accumulator) and the turn that answers the calls. Results are (id, name, input)."""

from __future__ import annotations

import functools
import json
from typing import Any

Call = tuple[str | None, str, dict[str, Any]]

PROMPT = "Use the tools."
TOOL = {
    "name": "lookup",
    "description": "Looks a thing up.",
    "schema": {"type": "object", "properties": {"name": {"type": "string"}}},
}


@functools.cache
def client(wire: str, url: str, key: str) -> Any:
    """One SDK client per wire, address and key for the session (building one is not free)."""
    if wire == "anthropic-messages":
        import anthropic

        return anthropic.Anthropic(api_key=key, base_url=url, max_retries=0)
    if wire in ("openai-chat", "openai-responses"):
        import openai

        return openai.OpenAI(api_key=key, base_url=url + "/v1", max_retries=0)
    from google import genai
    from google.genai import types

    return genai.Client(api_key=key, http_options=types.HttpOptions(base_url=url, api_version="v1beta"))


def ask(wire: str, sdk: Any, model: str, *, stream: bool = False) -> list[Call]:
    """One tool-call turn; the calls the SDK's parsed (or accumulated) answer holds."""
    return _ASK[wire](sdk, model, stream)


def answer(wire: str, sdk: Any, model: str, calls: list[Call]) -> None:
    """The next turn: the calls given back with a result each."""
    _ANSWER[wire](sdk, model, calls)


def open_stream(wire: str, sdk: Any, model: str) -> Any:
    """A raw SDK event stream (iterable, with ``close``) for the disconnect test."""
    if wire == "anthropic-messages":
        return sdk.messages.create(model=model, max_tokens=256, messages=_user(), stream=True)
    if wire == "openai-chat":
        return sdk.chat.completions.create(model=model, messages=_user(), stream=True)
    if wire == "openai-responses":
        return sdk.responses.create(model=model, input=PROMPT, stream=True)
    return sdk.models.generate_content_stream(model=model, contents=PROMPT)


# --- anthropic ------------------------------------------------------------------------------


def _user() -> list[dict[str, Any]]:
    return [{"role": "user", "content": PROMPT}]


def _anthropic_tools() -> list[dict[str, Any]]:
    return [{"name": TOOL["name"], "description": TOOL["description"], "input_schema": TOOL["schema"]}]


def _ask_anthropic(sdk: Any, model: str, stream: bool) -> list[Call]:
    kwargs = {"model": model, "max_tokens": 256, "messages": _user(), "tools": _anthropic_tools()}
    if stream:
        with sdk.messages.stream(**kwargs) as events:
            message = events.get_final_message()
    else:
        message = sdk.messages.create(**kwargs)
    return [(b.id, b.name, b.input) for b in message.content if b.type == "tool_use"]


def _answer_anthropic(sdk: Any, model: str, calls: list[Call]) -> None:
    uses = [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in calls]
    results = [{"type": "tool_result", "tool_use_id": i, "content": "found"} for i, _, _ in calls]
    messages = [*_user(), {"role": "assistant", "content": uses}, {"role": "user", "content": results}]
    sdk.messages.create(model=model, max_tokens=256, messages=messages, tools=_anthropic_tools())


# --- openai chat ----------------------------------------------------------------------------


def _chat_tools() -> list[dict[str, Any]]:
    function = {"name": TOOL["name"], "description": TOOL["description"], "parameters": TOOL["schema"]}
    return [{"type": "function", "function": function}]


def _ask_chat(sdk: Any, model: str, stream: bool) -> list[Call]:
    kwargs = {"model": model, "messages": _user(), "tools": _chat_tools()}
    if stream:
        with sdk.chat.completions.stream(**kwargs) as events:
            completion = events.get_final_completion()
    else:
        completion = sdk.chat.completions.create(**kwargs)
    calls = completion.choices[0].message.tool_calls or []
    # A streamed call with no arguments arrives as "" (the chat encoder streams an empty input as
    # no argument text; its non-streamed answer says "{}").
    return [(c.id, c.function.name, json.loads(c.function.arguments or "{}")) for c in calls]


def _answer_chat(sdk: Any, model: str, calls: list[Call]) -> None:
    tool_calls = [
        {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}} for i, n, a in calls
    ]
    results = [{"role": "tool", "tool_call_id": i, "content": "found"} for i, _, _ in calls]
    messages = [*_user(), {"role": "assistant", "content": None, "tool_calls": tool_calls}, *results]
    sdk.chat.completions.create(model=model, messages=messages, tools=_chat_tools())


# --- openai responses -----------------------------------------------------------------------


def _responses_tools() -> list[dict[str, Any]]:
    return [{"type": "function", "strict": False, "name": TOOL["name"], "parameters": TOOL["schema"]}]


def _ask_responses(sdk: Any, model: str, stream: bool) -> list[Call]:
    kwargs = {"model": model, "input": PROMPT, "tools": _responses_tools()}
    if stream:
        with sdk.responses.stream(**kwargs) as events:
            response = events.get_final_response()
    else:
        response = sdk.responses.create(**kwargs)
    return [(o.call_id, o.name, json.loads(o.arguments)) for o in response.output if o.type == "function_call"]


def _answer_responses(sdk: Any, model: str, calls: list[Call]) -> None:
    items: list[dict[str, Any]] = [{"role": "user", "content": PROMPT}]
    items += [{"type": "function_call", "call_id": i, "name": n, "arguments": json.dumps(a)} for i, n, a in calls]
    items += [{"type": "function_call_output", "call_id": i, "output": "found"} for i, _, _ in calls]
    sdk.responses.create(model=model, input=items, tools=_responses_tools())


# --- gemini ---------------------------------------------------------------------------------


def _gemini_config() -> Any:
    from google.genai import types

    declaration = types.FunctionDeclaration(
        name=TOOL["name"], description=TOOL["description"], parameters_json_schema=TOOL["schema"]
    )
    return types.GenerateContentConfig(tools=[types.Tool(function_declarations=[declaration])])


def _ask_gemini(sdk: Any, model: str, stream: bool) -> list[Call]:
    if stream:
        chunks = list(sdk.models.generate_content_stream(model=model, contents=PROMPT, config=_gemini_config()))
        found = [call for chunk in chunks for call in (chunk.function_calls or [])]
    else:
        found = sdk.models.generate_content(model=model, contents=PROMPT, config=_gemini_config()).function_calls or []
    return [(c.id, c.name, c.args or {}) for c in found]


def _answer_gemini(sdk: Any, model: str, calls: list[Call]) -> None:
    from google.genai import types

    asked = [types.Part(function_call=types.FunctionCall(id=i, name=n, args=a)) for i, n, a in calls]
    answered = [
        types.Part(function_response=types.FunctionResponse(id=i, name=n, response={"result": "found"}))
        for i, n, _ in calls
    ]
    contents = [
        types.Content(role="user", parts=[types.Part(text=PROMPT)]),
        types.Content(role="model", parts=asked),
        types.Content(role="user", parts=answered),
    ]
    sdk.models.generate_content(model=model, contents=contents, config=_gemini_config())


_ASK = {
    "anthropic-messages": _ask_anthropic,
    "openai-chat": _ask_chat,
    "openai-responses": _ask_responses,
    "gemini": _ask_gemini,
}
_ANSWER = {
    "anthropic-messages": _answer_anthropic,
    "openai-chat": _answer_chat,
    "openai-responses": _answer_responses,
    "gemini": _answer_gemini,
}


def ask_with_text(wire: str, sdk: Any, model: str, text: str) -> None:
    """A plain turn whose prompt is ``text`` (the size-limit test)."""
    if wire == "anthropic-messages":
        sdk.messages.create(model=model, max_tokens=16, messages=[{"role": "user", "content": text}])
    elif wire == "openai-chat":
        sdk.chat.completions.create(model=model, messages=[{"role": "user", "content": text}])
    elif wire == "openai-responses":
        sdk.responses.create(model=model, input=text)
    else:
        sdk.models.generate_content(model=model, contents=text)
