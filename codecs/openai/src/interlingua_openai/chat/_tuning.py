"""OpenAI fine-tuning lines <-> TuningExample, both directions: supervised lines and preference pairs.

- Supervised: ``{messages, tools, parallel_tool_calls}``, a Chat request without a model; an
  assistant message's ``weight`` (0 or 1) says whether it is trained on
  (https://platform.openai.com/docs/guides/supervised-fine-tuning, "multi-turn chat examples";
  the OpenAPI spec's FineTuneChatCompletionRequestAssistantMessage: "Controls whether the
  assistant message is trained against (0 or 1)").
- Preference (DPO): ``{input: {messages, tools, parallel_tool_calls}, preferred_output: [...],
  non_preferred_output: [...]}``, each output a list of assistant messages
  (https://developers.openai.com/api/docs/guides/direct-preference-optimization, "Data format").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from interlingua import DecodeError, Message, ProviderEcho, Request, WarningSink
from interlingua.kit import DISTINCTIVE, Sniffed, TuningExample, TuningFile, expect, kept_keys, merge_echo, require

if TYPE_CHECKING:
    from ._codec import OpenAIChatCodec

KEYS = ("messages", "tools", "parallel_tool_calls")
"""The keys of a supervised line and of a preference pair's ``input``."""
PAIR = ("input", "preferred_output", "non_preferred_output")
_WHY = "an OpenAI fine-tuning line holds messages, tools and parallel_tool_calls only"


def sniff(line: Mapping[str, Any]) -> Sniffed | None:
    """A preference pair by its outputs; a supervised line by ``messages`` with no ``model`` (a
    ``weight`` on a message is a sign only these lines have)."""
    if "preferred_output" in line or "non_preferred_output" in line:
        return Sniffed("request", DISTINCTIVE, "has 'preferred_output' (an OpenAI preference pair)")
    messages = line.get("messages")
    if "model" in line or not isinstance(messages, list):
        return None
    if any(isinstance(message, Mapping) and "weight" in message for message in messages):
        return Sniffed("request", DISTINCTIVE, "has 'messages' with a 'weight' (an OpenAI fine-tuning line)")
    return Sniffed("request", 1.5, "has 'messages' and no 'model' (an OpenAI fine-tuning line)")


def tuning_file(codec: OpenAIChatCodec) -> TuningFile:
    return TuningFile(sniff, partial(decode, codec), partial(encode, codec), pairs=True)


# -- reading ------------------------------------------------------------------------------------


def decode(codec: OpenAIChatCodec, line: Mapping[str, Any]) -> TuningExample:
    if not any(key in line for key in PAIR):
        request = codec.decode_request(line)
        messages, weights = _weights_taken(request.messages, codec.provider)
        return TuningExample(request.model_copy(update={"messages": messages}), weights)
    prompt = _under(codec, "input", lambda: codec.decode_request(require(line, "input", dict, "")))
    chosen = _completion(codec, line, "preferred_output")
    rejected = _completion(codec, line, "non_preferred_output")
    return TuningExample(prompt, chosen=chosen, rejected=rejected)


def _completion(codec: OpenAIChatCodec, line: Mapping[str, Any], key: str) -> tuple[Message, ...]:
    def read() -> tuple[Message, ...]:
        return tuple(codec.decode_request({"messages": require(line, key, list, "")}).messages)

    completion: tuple[Message, ...] = _under(codec, key, read)
    return completion


def _under(codec: OpenAIChatCodec, key: str, read: Callable[[], Any]) -> Any:
    """``read()``, a DecodeError's path put under ``key`` (the pair's part it was reading)."""
    try:
        return read()
    except DecodeError as err:
        path = err.path if err.path.startswith(key) else f"{key}.{err.path}" if err.path else key
        raise DecodeError(codec.name, path, err.reason) from None


def _weights_taken(messages: Sequence[Message], provider: str) -> tuple[list[Message], dict[int, int]]:
    """The messages without their ``weight`` (the decoder keeps it in the message's echo) and the
    weights by message index."""
    kept: list[Message] = []
    weights: dict[int, int] = {}
    for index, message in enumerate(messages):
        echoes: list[ProviderEcho] = []
        for echo in message.provider_echoes:
            wire = echo.data.get("wire")
            if echo.provider == provider and isinstance(wire, dict) and "weight" in wire:
                weights[index] = expect(wire["weight"], int, f"messages[{index}].weight")
                rest = {key: value for key, value in wire.items() if key != "weight"}
                data = {**echo.data, "wire": rest} if rest else {k: v for k, v in echo.data.items() if k != "wire"}
                if data:
                    echoes.append(echo.model_copy(update={"data": data}))
                continue
            echoes.append(echo)
        changed = weights.get(index) is not None
        kept.append(message.model_copy(update={"provider_echoes": echoes}) if changed else message)
    return kept, weights


# -- writing ------------------------------------------------------------------------------------


def encode(codec: OpenAIChatCodec, example: TuningExample, out: WarningSink) -> dict[str, Any]:
    if example.chosen is None:
        messages = _weights_given(example.request.messages, example.weights, codec.provider)
        return kept_keys(_body(codec, example.request.model_copy(update={"messages": messages}), out), KEYS, out, _WHY)
    prompt = kept_keys(_body(codec, example.request, out), KEYS, out, _WHY)
    line: dict[str, Any] = {"input": prompt}
    for key, completion in (("preferred_output", example.chosen), ("non_preferred_output", example.rejected or ())):
        messages = [*example.request.messages, *completion]
        whole = _body(codec, example.request.model_copy(update={"messages": messages}), None)
        line[key] = whole.get("messages", [])[len(prompt.get("messages", [])) :]
    return line


def _body(codec: OpenAIChatCodec, request: Request, out: WarningSink | None) -> dict[str, Any]:
    """The Chat body of ``request`` without a model; its warnings go to ``out`` (None: a
    completion's, already reported with the prompt's)."""
    encoded = codec.encode_request(request.model_copy(update={"model": None}))
    if out is not None:
        out.warnings.extend(encoded.warnings)
    return dict(encoded.body)


def _weights_given(messages: Sequence[Message], weights: Mapping[int, int], provider: str) -> list[Message]:
    """The messages with each weight back in the message's echo, where the encoder writes it."""
    if not weights:
        return list(messages)
    marked: list[Message] = []
    for index, message in enumerate(messages):
        weight = weights.get(index)
        if weight is not None:
            own = next((echo.data.get("wire") for echo in message.provider_echoes if echo.provider == provider), None)
            wire = {**own, "weight": weight} if isinstance(own, dict) else {"weight": weight}
            echoes = merge_echo(list(message.provider_echoes), ProviderEcho(provider=provider, data={"wire": wire}))
            message = message.model_copy(update={"provider_echoes": echoes})
        marked.append(message)
    return marked
