"""Fine-tuning examples, both directions: one line of a tuning file as IR (a conversation, or a
prompt with a preferred and a rejected completion), what a wire declares to read and write its
tuning lines, and the losses every writer reports alike (a weight or a rejected completion the
target format cannot hold, a top-level field it does not take)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ._message import Message
from ._request import Request
from ._sniff import Sniffed
from ._warnings import WarningSink


def _no_weights() -> dict[int, int]:
    return {}


@dataclass(frozen=True, slots=True)
class TuningExample:
    """One example of a tuning file. ``request`` holds its messages, tools and settings: the whole
    conversation for supervised tuning, the prompt alone for a preference pair, whose ``chosen``
    and ``rejected`` completions (assistant messages) follow it. ``weights`` maps a message's
    index to its weight where a format marks which assistant messages are trained on (0: not
    trained on); a message without an entry is trained on."""

    request: Request
    weights: Mapping[int, int] = field(default_factory=_no_weights)
    chosen: tuple[Message, ...] | None = None
    rejected: tuple[Message, ...] | None = None

    @property
    def pair(self) -> bool:
        """Whether this is a preference pair."""
        return self.chosen is not None


Decode = Callable[[Mapping[str, Any]], TuningExample]
Encode = Callable[[TuningExample, WarningSink], dict[str, Any]]


class TuningFile(NamedTuple):
    """How a wire's fine-tuning file holds one example (``interlingua convert`` reads and writes it):
    ``sniff`` claims a line of it (kind ``request``), ``decode`` reads one (a malformed line is a
    DecodeError), ``encode`` writes one, each loss reported to the sink it is given. ``pairs``:
    the format holds preference pairs (a writer without them gets the chosen completion only)."""

    sniff: Callable[[Mapping[str, Any]], Sniffed | None]
    decode: Decode
    encode: Encode
    pairs: bool = False


def supervised(example: TuningExample, out: WarningSink) -> TuningExample:
    """The example as one conversation, for a format without preference pairs: the preferred
    completion follows the prompt, and the rejected one, which has no place, is reported."""
    if example.chosen is None:
        return example
    if example.rejected:
        out.unsupported("rejected", "rejected", "this tuning format holds one completion: the preferred one is kept")
    messages = [*example.request.messages, *example.chosen]
    return TuningExample(example.request.model_copy(update={"messages": messages}))


def unweighted(example: TuningExample, out: WarningSink, why: str) -> None:
    """Report each message a weight kept out of training, for a format that has no weights
    (``why`` says what that format trains on); a weight of 1 is every format's default."""
    for index, weight in sorted(example.weights.items()):
        if weight != 1:
            out.unsupported(f"messages[{index}].weight", "weight", why)


def kept_keys(body: Mapping[str, Any], keys: Iterable[str], out: WarningSink, why: str) -> dict[str, Any]:
    """``body`` with only the top-level ``keys`` a tuning line takes; each other one is reported
    at its key (``generationConfig``: a setting the tuning file has no place for)."""
    allowed = set(keys)
    for key in body:
        if key not in allowed:
            out.unsupported(key, key, why)
    return {key: value for key, value in body.items() if key in allowed}
