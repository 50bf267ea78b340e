"""The error hierarchy: bad input (with its JSON path), vendors, network. The errors that carry IR
values stand above the IR: a lossy encode's (``_warnings.LossyEncodeError``) and a broken
stream's (``_stream_errors``), so this module uses nothing of the package."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class InterlinguaError(Exception):
    """Every error interlingua raises on purpose."""


class DecodeError(InterlinguaError, ValueError):
    """Wire input that does not have the shape its codec needs, at ``path`` (``messages[2].content``)."""

    def __init__(self, codec: str, path: str, reason: str) -> None:
        self.codec = codec
        self.path = path
        self.reason = reason
        super().__init__(f"{codec or 'decode'}: {path or '<body>'}: {reason}")


class EncodeError(InterlinguaError, ValueError):
    """An IR value the codec cannot encode at all, at ``path``."""

    def __init__(self, codec: str, path: str, reason: str) -> None:
        self.codec = codec
        self.path = path
        self.reason = reason
        super().__init__(f"{codec or 'encode'}: {path or '<request>'}: {reason}")


class MissingAPIKeyError(InterlinguaError):
    """No key was given and none of the codec's environment variables is set (or a cloud door
    lacks what it authenticates with: a region, a project, credentials)."""


class ProviderError(InterlinguaError):
    """An error a vendor answered with, decoded by its codec.

    ``type`` is the vendor's error type string; ``retry_after`` (seconds) comes from the vendor's
    headers where it sent them; ``raw`` is the decoded error body.
    """

    status_code: int | None = None

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        type: str | None = None,
        codec: str = "",
        retry_after: float | None = None,
        request_id: str | None = None,
        raw: Any = None,
    ) -> None:
        self.message = message
        self.status = status
        self.type = type
        self.codec = codec
        self.retry_after = retry_after
        self.request_id = request_id
        self.raw = raw
        where = f"{codec} " if codec else ""
        super().__init__(f"{where}{status or ''} {type or 'error'}: {message}".replace("  ", " "))

    @staticmethod
    def for_status(status: int | None, message: str, **kw: Any) -> ProviderError:
        """The subclass that fits ``status`` (429 -> RateLimitError, 5xx -> ServerError, ...)."""
        cls: type[ProviderError] = _BY_STATUS.get(status or 0, ProviderError)
        if cls is ProviderError and status is not None and status >= 500:
            cls = ServerError
        return cls(message, status=status, **kw)

    def redacted(self, secrets: Sequence[str]) -> ProviderError:
        """This error with each of ``secrets`` (the caller's keys) shown as ``<hidden>`` in its
        message and its raw body: an upstream may echo the key it was sent. The same error where
        none occurs."""
        found = [secret for secret in secrets if secret]
        hidden = _hide(self.message, found), _hide(self.raw, found)
        if hidden == (self.message, self.raw):
            return self
        kw = {k: getattr(self, k) for k in ("status", "type", "codec", "retry_after", "request_id")}
        return type(self)(hidden[0], raw=hidden[1], **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        kw = {k: getattr(self, k) for k in ("status", "type", "codec", "retry_after", "request_id", "raw")}
        return (_rebuild, (type(self), self.message, kw))


def _hide(value: Any, secrets: Sequence[str]) -> Any:
    """``value`` (text, or JSON made of dicts and lists) with every secret in its text replaced."""
    if isinstance(value, str):
        for secret in secrets:
            value = value.replace(secret, "<hidden>")
        return value
    if isinstance(value, dict):
        return {_hide(k, secrets): _hide(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_hide(item, secrets) for item in value]
    if isinstance(value, bytes):
        return _hide(value.decode("utf-8", "replace"), secrets).encode() if any(
            s.encode() in value for s in secrets
        ) else value
    return value


def _rebuild(cls: type[ProviderError], message: str, kw: dict[str, Any]) -> ProviderError:
    return cls(message, **kw)


class BadRequestError(ProviderError):
    status_code = 400


class AuthenticationError(ProviderError):
    status_code = 401


class PermissionDeniedError(ProviderError):
    status_code = 403


class NotFoundError(ProviderError):
    status_code = 404


class RateLimitError(ProviderError):
    status_code = 429


class ServerError(ProviderError):
    status_code = 500


class OverloadedError(ServerError):
    """The vendor is over capacity (HTTP 529, or a 503 that says so)."""

    status_code = 529


_BY_STATUS: dict[int, type[ProviderError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    429: RateLimitError,
    529: OverloadedError,
}


class TransportError(InterlinguaError):
    """The network failed: no connection, a reset, a read that broke off."""


class TimeoutError(TransportError):
    """The vendor did not answer within the timeout."""
