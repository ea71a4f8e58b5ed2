"""How a failed LLM call is classified: worth retrying, or not.

``TransientError`` (429, 5xx, timeouts, connection failures: worth retrying, with the server's
Retry-After when given; ``kind`` says which) and ``PermanentError`` (bad key, bad request:
retrying the same request cannot help). ``classify`` maps an SDK exception to one of them
without ever carrying headers or keys into the message.
"""

from __future__ import annotations

import email.utils
import time
from typing import Any


class TransientError(Exception):
    """Worth retrying: rate limit, server error, timeout, dropped connection.

    ``kind`` is ``timeout``, ``rate_limit`` (429), ``overloaded`` (503, 529), ``server`` (other
    5xx) or ``connection``; the first three say the server has more work than it can take."""

    def __init__(
        self, message: str, retry_after: float | None = None, kind: str = "server"
    ) -> None:
        super().__init__(message)
        self.retry_after, self.kind = retry_after, kind


class PermanentError(Exception):
    """Retrying the same request cannot succeed (authentication, invalid request)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def retry_after_seconds(headers: Any) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


_KINDS = {429: "rate_limit", 503: "overloaded", 529: "overloaded", 408: "timeout"}


def classify(exc: Exception, sdk: Any) -> Exception:
    """Map an SDK exception to TransientError / PermanentError, without leaking headers."""
    if isinstance(exc, sdk.APITimeoutError):
        return TransientError("timeout: the server did not answer in time", kind="timeout")
    if isinstance(exc, sdk.APIConnectionError):
        return TransientError(f"connection error: {type(exc).__name__}", kind="connection")
    if isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        msg = f"HTTP {status}: {_short(exc)}"
        if status == 429 or status >= 500 or status == 408:
            return TransientError(
                msg, retry_after_seconds(exc.response.headers), _KINDS.get(status, "server")
            )
        return PermanentError(msg, status)
    return PermanentError(f"{type(exc).__name__}: {exc}")


def _short(exc: object) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:200]
    return str(getattr(exc, "message", exc))[:200]
