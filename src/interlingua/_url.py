"""Names that reach a URL (a model, a deployment, an ARN, a project, a region), escaped or refused.

A model name comes from whoever calls, through the gateway from anyone holding a gateway key: put
in a URL as it is, ``m/../../v1/secrets?x=1#`` sends the request and its key elsewhere on the
upstream's host. Every codec builds its URL's names with these two functions.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from ._errors import EncodeError

_SEGMENT_SAFE = frozenset("@:")
_HOST_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?", re.IGNORECASE)


def url_segment(name: str, *, codec: str, at: str, safe: str = "") -> str:
    """``name`` as one path segment: every byte but unreserved characters (and those of ``safe``,
    ``@`` or ``:``) percent-escaped, so ``/``, ``?``, ``#``, ``%`` and control characters cannot leave
    it. An empty name, ``.`` and ``..`` (which a URL resolves away) are an EncodeError at ``at``."""
    if not set(safe) <= _SEGMENT_SAFE:
        raise ValueError(f"url_segment keeps only {sorted(_SEGMENT_SAFE)} unescaped, not {safe!r}")
    if name in ("", ".", ".."):
        raise EncodeError(codec, at, f"{name!r} cannot name one URL path segment")
    return quote(name, safe=safe)


def host_label(name: str, *, codec: str, at: str) -> str:
    """``name`` (a region or location put into a host name) when it is one DNS label (letters,
    digits, inner hyphens); anything else is an EncodeError at ``at``: it would change the host."""
    if not _HOST_LABEL.fullmatch(name):
        raise EncodeError(codec, at, f"{name[:80]!r} is not a host name label (letters, digits and hyphens)")
    return name


_VERSION = re.compile(r"v\d+(?:(?:alpha|beta)\d*)?")
"""An API version path segment: ``v1``, ``v2``, ``v1beta``, ``v1beta1``, ``v1alpha``."""


def versioned_base(
    given: str | None, default: str, *, codec: str, version: str | None, also: tuple[str, ...] = ()
) -> tuple[str, str | None]:
    """The base URL a codec puts its path after, without a trailing slash or a version segment,
    and the version segment the path starts with (None for a wire whose path has none).

    ``version`` is the segment the codec's path starts with (``/v1/messages``: ``"v1"``); ``also``
    the other versions the same wire is served at. A vendor's SDK takes its base URL with the version
    for some wires and without for others, so a ``given`` base URL may end in it or not: ending in
    ``version`` or one of ``also``, that segment is the one sent (written once, not twice); ending in
    any other version segment, it is an EncodeError at ``base_url`` that says what the wire's path is
    (it would reach another API, or none). ``default`` is the codec's own base URL (no version)."""
    base = (given or default).rstrip("/")
    head, _, last = base.rpartition("/")
    if given is None or "//" not in head or not _VERSION.fullmatch(last):
        return base, version
    if last == version or last in also:
        return head, last
    if version is None and not also:
        why = "this wire's URL has no version segment"
    else:
        why = f"a version this wire is not served at (it is at {', '.join(f'/{v}' for v in (version, *also) if v)})"
    raise EncodeError(codec, "base_url", f"{base!r} ends in /{last}, {why}; give the base URL without it")
