"""openai-chat's conformance data: its places in the target list (OpenAI's own host and the
DeepSeek, Mistral and OpenRouter dialects), its field-coverage contract and probes, and its
documented departures from its capabilities, each with its source. The codec's ``conformance``
attribute names it; ``interlingua.testing.conformance`` says what each field is."""

from __future__ import annotations

import re
import typing
from typing import Any

from interlingua import Request, ToolResult
from interlingua.testing.conformance import Conformance, Coverage, Departure, Target, merged

from . import _probes

_BASE = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
_FAMILY = ("openai-chat", "deepseek", "mistral", "openrouter")  # target keys of the host and its dialects


def _request_types() -> Any:
    from openai.types.chat import completion_create_params

    hints = typing.get_type_hints(completion_create_params.CompletionCreateParamsBase, include_extras=True)
    return {**hints, "stream": bool}


def _response_types() -> Any:
    from openai.types.chat import ChatCompletion

    return ChatCompletion


def _tool_message_of_results(request: Request, path: str) -> bool:
    """Whether the message at ``path`` (``messages[i]...``) holds tool results and nothing else:
    on a chat wire it becomes tool messages, which have no ``name``."""
    message = request.messages[int(path[len("messages[") : path.index("]")])]
    return bool(message.parts) and all(isinstance(p, ToolResult) for p in message.parts)


_FOREIGN = (  # its own options, which every other target reports
    ("n", {**_BASE, "n": 2}),
    ("logprobs", {**_BASE, "logprobs": True}),
    ("top_logprobs", {**_BASE, "top_logprobs": 3}),
    ("web_search_options", {**_BASE, "web_search_options": {"search_context_size": "low"}}),
    ("logit_bias", {**_BASE, "logit_bias": {"50256": -100}}),
)

CONFORMANCE = Conformance(
    targets=(
        Target("openai-chat", "gpt-4.1", real_folder="openai-chat", foreign_options=_FOREIGN),
        Target(
            "deepseek",
            "deepseek-reasoner",
            dialect="deepseek",
            foreign_options=(("logprobs", {**_BASE, "model": "deepseek-chat", "logprobs": True}),),
        ),
        Target("mistral", "magistral-medium-latest", dialect="mistral", real_folder="mistral"),
        Target("openrouter", "anthropic/claude-sonnet-4.5", dialect="openrouter"),
    ),
    smallest=_BASE,
    coverage=Coverage(
        "interlingua_openai.chat._coverage",
        _request_types,
        _response_types,
        sdk=("openai", "3.57.0"),
        model="gpt-5",
        response_rows=frozenset(
            {"choices[].finish_reason", "usage.prompt_tokens", "choices[].message.annotations[].*"}
        ),
    ),
    requests=lambda: merged(_probes.openai_chat(), _probes.meaning()),
    answers=_probes.chat_answers,
    model_row="model",
    lingua_folders=("chat-completions",),
    # OpenRouter reasoning_details, DeepSeek reasoning_content, Mistral thinking blocks. OpenAI's
    # Chat Completions has no reasoning on the wire at all (its ``thinking`` row is lossy).
    replays_own_reasoning=frozenset({"openrouter", "deepseek", "mistral"}),
    # Id rules are the host's: api.openai.com's 40 characters and Mistral's 9 from their
    # dialects' rule rows, none on DeepSeek or OpenRouter.
    tool_ids={
        "openai-chat": lambda i: len(i) <= 40,
        "deepseek": lambda i: True,
        "openrouter": lambda i: True,
        "mistral": lambda i: re.fullmatch(r"[a-zA-Z0-9]{9}", i) is not None,
    },
    documented={
        **{
            (chat, "thinking"): Departure(
                lambda r, f: r.thinking is not None and r.thinking.budget_tokens is not None,
                "lossy",
                "openai-chat note: a budget is sent as the nearest effort with a warning",
            )
            for chat in _FAMILY
        },
        **{
            (chat, "message_name"): Departure(
                lambda r, f: _tool_message_of_results(r, f.path),
                "lossy",
                "openai-chat note: a tool message has no name",
            )
            for chat in _FAMILY
        },
    },
)
