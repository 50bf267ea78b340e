"""IR stream events -> the same events with at most one part open at a time, for the encoders of
wires whose blocks follow each other (each block's stop before the next block's start)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ._stream import Echo, PartEnd, PartStart, StreamEvent, TextDelta, ThinkingDelta, ToolInputDelta
from ._warnings import WarningSink

_LATE = (TextDelta, ThinkingDelta, ToolInputDelta, Echo, PartEnd)


def one_part_open(
    events: Iterable[StreamEvent], out: WarningSink, provider: str
) -> Iterator[tuple[int, StreamEvent]]:
    """Each event with its number in ``events``; a part still open when the next part starts is
    ended there, by a ``PartEnd`` numbered as that start.

    An upstream may interleave its items: OpenRouter's Responses stream ends its reasoning item
    after the message (pydantic-ai's raw_cot_stream_openrouter), and a Chat stream's parallel calls
    stay open until its finish. Ending the earlier part at the next one's start writes what came as
    it came, each block whole. What comes for an ended part later has no block to go in: its own
    end is already written; an echo of another provider is not this wire's to write; a delta, its
    citations or an echo of ``provider`` (a signature) are reported to ``out`` as not sent.
    """
    live: int | None = None
    live_type = ""
    ended: dict[int, str] = {}  # an ended part's index -> its type
    for number, event in enumerate(events):
        if type(event) is PartStart:  # the events are final record classes: a type test is the cheap one
            if live is not None:
                ended[live] = live_type
                yield number, PartEnd(live, None)
            live, live_type = event.index, event.part.type
        elif ended and isinstance(event, _LATE) and event.index in ended:
            _late(event, ended[event.index], f"events[{number}]", out, provider)
            continue
        elif type(event) is PartEnd and event.index == live:
            live = None
        yield number, event


def _late(event: StreamEvent, part_type: str, at: str, out: WarningSink, provider: str) -> None:
    """Report what an ended part's late event carried that the wire now cannot send."""
    why = "came after the next part began (its block ended there): not sent"
    match event:
        case TextDelta() | ThinkingDelta() | ToolInputDelta():
            out.lossy(at, part_type, f"a delta that {why}")
        case PartEnd(citations=list() as citations) if citations:
            out.lossy(f"{at}.citations", "citations", f"citations that {why}")
        case Echo(echo=echo) if echo.provider == provider:
            out.lossy(f"{at}.echo", part_type, f"an echo that {why}")
        case _:
            pass  # the part's end (written at the next start) or another provider's echo
