"""Signed reasoning bound to where it was made: the prefix digest recorded on an echo, and the rule
an encoder reads from the catalog to withhold a block its target model would not take.

A vendor may bind a reasoning block to more than the model: to the conversation prefix it was
made under (the system prompt and tools), and to the models allowed to read it. The catalog holds
those facts per model (``[model.binding]``: ``model_bound``, ``prefix_bound``, ``readable_by``, each
with its source); a block the target cannot read, or made under another prefix, is withheld with
a LossyEncode naming the rule, never sent to be refused or dropped unseen.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from ._wire import dumps

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._message import Message
    from ._model_spec import ModelSpec
    from ._parts import ProviderEcho
    from ._request import Request

_LEADING = frozenset({"system", "developer"})
_UNBOUND = frozenset({"cache_control", "provider_echoes", "metadata"})
"""What does not change a prefix: a cache mark, vendor echoes, the host's own metadata."""


def prefix_digest(request: Request) -> str:
    """A short digest of the system prompt (the leading system and developer messages) and the
    tools of ``request``: what a vendor's prefix check compares, less the earlier messages (a
    transcript replays those as they were). Cache marks and echoes do not count."""
    leading: list[Any] = []
    for message in request.messages:
        if message.role not in _LEADING:
            break
        leading.append([_plain(part.to_json_dict()) for part in message.parts])
    tools = [_plain(tool.to_json_dict()) for tool in request.tools]
    text = dumps({"system": leading, "tools": tools})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in _UNBOUND}


def bind(message: Message, request: Request) -> Message:
    """``message`` (an answer to ``request``) with the prefix digest recorded on each echo that is
    bound to its model (signed reasoning): what :meth:`Transcript.add_response` keeps, so a later
    encode knows whether the block's prefix still holds."""
    digest: str | None = None
    parts = list(message.parts)
    changed = False
    for i, part in enumerate(parts):
        if not part.provider_echoes or not any(echo.model is not None for echo in part.provider_echoes):
            continue
        digest = digest or prefix_digest(request)
        echoes = [
            echo.model_copy(update={"prefix": digest}) if echo.model is not None else echo
            for echo in part.provider_echoes
        ]
        parts[i] = part.model_copy(update={"provider_echoes": echoes})
        changed = True
    return message.model_copy(update={"parts": parts}) if changed else message


def hosted(message: Message, host: str, model: str | None = None, provider: str | None = None) -> Message:
    """``message`` with ``host`` recorded on each echo bound to its model (the door that served it).
    ``model``, ``provider``: the model the request named and the codec's provider; a reasoning
    block's own echo that names no model (a wire whose answers do not say which model made them,
    as Converse's) is bound to that model first, so every door's signed blocks carry both."""
    parts = list(message.parts)
    changed = False
    for i, part in enumerate(parts):
        if not part.provider_echoes:
            continue
        unnamed = model is not None and part.type in _REASONING
        if unnamed or any(echo.model is not None for echo in part.provider_echoes):
            bind = model if unnamed else None
            echoes = [_stamped(e, host, bind if e.provider == provider else None) for e in part.provider_echoes]
            parts[i] = part.model_copy(update={"provider_echoes": echoes})
            changed = True
    return message.model_copy(update={"parts": parts}) if changed else message


_REASONING = frozenset({"thinking", "redacted_thinking"})


def _stamped(echo: ProviderEcho, host: str, model: str | None) -> ProviderEcho:
    if echo.model is None and model is None:
        return echo
    return echo.model_copy(update={"host": host, "model": echo.model or model})


class Binding:
    """What the target model of one encode takes of earlier turns' signed reasoning.

    ``find`` resolves a producing model's name to its catalog entry (the codec's provider).
    :meth:`withheld` answers per block, in order: a block made under another prefix makes it and
    every later block invalid on a prefix-bound model (the vendor's rule), so the first mismatch
    withholds the rest. A block is readable by its producer and the models its ``readable_by``
    names; another model gets it only where neither side is ``model_bound``. ``host``: the host
    the request goes through (the codec's ``host_for``; None: not known), against which a block's
    own (``ProviderEcho.host``) is checked where the target's entry says signatures are bound to
    their host (``BindingRules.refuses_host``)."""

    __slots__ = ("_digest", "_find", "_request", "broken", "host", "spec")

    def __init__(
        self,
        spec: ModelSpec | None,
        request: Request,
        find: Callable[[str], ModelSpec | None],
        host: str | None = None,
    ) -> None:
        self.spec = spec
        self._request = request
        self._find = find
        self.host = host
        self._digest: str | None = None
        self.broken: str | None = None

    def withheld(self, echo: ProviderEcho) -> str | None:
        """Why the block carrying ``echo`` must not be sent to the target; None: send it."""
        spec = self.spec
        if spec is None:
            return None  # an unknown target: nothing known, nothing changed on its account
        if self.broken is not None:
            return self.broken
        rules = spec.binding
        if rules is not None and rules.refuses_host(echo.host, self.host):
            return f"made through {echo.host}, which {spec.id} refuses through {self.host} ({spec.cite('hosts')})"
        if rules is not None and rules.prefix_bound and echo.prefix is not None:
            if self._digest is None:
                self._digest = prefix_digest(self._request)
            if echo.prefix != self._digest:
                source = spec.cite("binding")
                self.broken = f"an earlier block's prefix changed: {spec.id} refuses every later one ({source})"
                return f"made under another system prompt or toolset, which {spec.id} refuses ({source})"
        return None if echo.model is None else self._unreadable(spec, echo.model)

    def _unreadable(self, spec: ModelSpec, model: str) -> str | None:
        producer = self._find(model)
        if producer is None or producer.id == spec.id:
            return None  # an unknown producer: nothing known, nothing changed on its account
        bound = producer.binding
        readers = bound.readable_by if bound is not None else ()
        if "*" in readers or spec.id in readers:
            return None
        if bound is not None and bound.model_bound:
            named = ", ".join([producer.id, *readers])
            return f"thinking made by {producer.id} is read only by {named} ({producer.cite('binding')})"
        if spec.binding is not None and spec.binding.model_bound:
            return f"{spec.id} does not read thinking made by {producer.id} ({spec.cite('binding')})"
        return None
