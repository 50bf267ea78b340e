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
