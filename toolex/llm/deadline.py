"""A total deadline and a size bound on every HTTP call the LLM and embedding clients make.

The SDKs' timeouts are httpx's, which bound each socket operation, not the call: a read timeout
of 5 s lets a server that sends one byte a second hold a call forever (issue 37.8), and nothing
bounds how much a server sends (a 200,000-wide vector per text filled memory for minutes). So the
SDK clients are built over :func:`http_client`, whose network streams check every read and write
of a call against

- its deadline: the call's timeout, counted once from when the request starts (the SDK's own
  per-call ``timeout`` is that budget, and :func:`limits` may set another), so connecting,
  sending and the whole answer, headers and body, fit in it however the server paces its bytes;
- its size bound: the bytes received, headers included (``DEFAULT_MAX_BYTES``, or what
  :func:`limits` says an answer can reasonably be, e.g. an embedding request's texts times the
  vector width);
- a stop event (:func:`limits`'s ``stop``): a caller stopping its work (Ctrl-C, SIGTERM) ends
  the calls in flight within ``STOP_POLL_S``, instead of after a server that never answers
  times out; an answer already on the wire is still read (it may be paid for).

A call past one of them fails as a timeout (the deadline) or a dropped connection (size, stop)
inside the SDK, whose error the caller then rewords from the :class:`Watch` its ``limits`` block
gives: what ended the call, with the figure (``Watch.reworded``). The checks run in the calling
thread (the SDKs are synchronous), kept per thread, so the executor's workers each bound their own
calls. It patches one private attribute of httpcore (the pool's network backend): a test drives
a dripping server through each SDK, so an httpcore that changes it fails there, not in use.
"""

from __future__ import annotations

import contextlib
import ssl
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

import httpcore2
import httpx2

from toolex.llm.failures import PermanentError, TransientError

DEFAULT_MAX_BYTES = 64 * 2**20  # an answer larger than this is no chat answer or batch status
STOP_POLL_S = 0.25  # how often a call in flight looks whether its caller stopped
STOP_GRACE_S = 0.05  # how long a stopped call waits for more of an answer already coming


@dataclass
class Watch:
    """What ended a call made inside :func:`limits`: ``"deadline"``, ``"size"``, ``"stopped"``
    or None (it ended on its own, answered or failed), with the bounds it had."""

    seconds: float | None
    max_bytes: int
    overrun: str | None = None

    def reworded(self, error: Exception) -> Exception:
        """``error`` (an SDK failure classified by toolex.llm.failures) saying what ended the
        call when a bound did; else ``error`` itself."""
        if self.overrun == "deadline":
            return TransientError(
                f"timeout: no complete answer within {self.seconds:.3g} s (the whole call's "
                "deadline, however the server paces its bytes)",
                kind="timeout",
            )
        if self.overrun == "size":
            return PermanentError(
                f"the answer is larger than {_size(self.max_bytes)}, more than any answer to "
                "this request can be; refused unread"
            )
        if self.overrun == "stopped":
            return TransientError("stopped: the run was interrupted", kind="stopped")
        return error


def _size(n: int) -> str:
    return f"{n / 2**20:,.1f} MB" if n >= 2**20 else f"{n:,} bytes"


class _Bounds(NamedTuple):
    seconds: float | None
    max_bytes: int
    stop: threading.Event | None
    watch: Watch | None


_NONE = _Bounds(None, DEFAULT_MAX_BYTES, None, None)
_local = threading.local()  # .bounds: the _Bounds of the innermost open limits() block


@contextlib.contextmanager
def limits(
    seconds: float | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    stop: threading.Event | None = None,
) -> Iterator[Watch]:
    """Bound the HTTP calls this thread makes in the block: each within ``seconds`` (None: the
    SDK's per-call timeout) and ``max_bytes``, and ended once ``stop`` is set. Yields the
    :class:`Watch` of the block's last call."""
    watch = Watch(seconds, max_bytes)
    outer = getattr(_local, "bounds", _NONE)
    _local.bounds = _Bounds(seconds, max_bytes, stop, watch)
    try:
        yield watch
    finally:
        _local.bounds = outer


class _Call:
    """One request's budget: its deadline, bytes received so far and its stop event."""

    def __init__(self, request: httpx2.Request) -> None:
        bounds: _Bounds = getattr(_local, "bounds", _NONE)
        seconds, self.max_bytes, self.stop = bounds.seconds, bounds.max_bytes, bounds.stop
        if seconds is None:  # the SDK's timeout for this call is its budget
            timeout = request.extensions.get("timeout") or {}
            seconds = timeout.get("read") if isinstance(timeout, dict) else None
        self.deadline = None if seconds is None else time.monotonic() + float(seconds)
        self.received = 0
        self.watch = bounds.watch or Watch(seconds, self.max_bytes)
        self.watch.seconds, self.watch.max_bytes, self.watch.overrun = seconds, self.max_bytes, None

    def slice(
        self, op_end: float | None, error: type[Exception], reading: bool = True
    ) -> float | None:
        """How long the next socket wait may last: until the operation's own timeout, the
        deadline or (``reading``) the next look at the stop event, whichever comes first; raises
        ``error`` (httpcore's timeout) past the deadline or the operation's timeout. Once
        stopped, nothing new is sent or connected (ConnectError), and a read only takes what
        has already come (``STOP_GRACE_S``): an answer the server finished sending is kept."""
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            self.watch.overrun = "deadline"
            raise error("the call's deadline passed")
        if op_end is not None and now >= op_end:
            raise error("timed out")
        ends = [t for t in (op_end, self.deadline) if t is not None]
        wait = min(ends) - now if ends else None
        if self.stop is None:
            return wait
        if self.stop.is_set():
            if not reading:
                self.stopped()
            return STOP_GRACE_S if wait is None else min(wait, STOP_GRACE_S)
        if not reading:  # a connect or a send is one wait: the stop is seen after it
            return wait
        return STOP_POLL_S if wait is None else min(wait, STOP_POLL_S)

    def stopped(self) -> None:
        """Raise for a call ended by its caller's stop, if it was stopped."""
        if self.stop is not None and self.stop.is_set():
            self.watch.overrun = "stopped"
            raise httpcore2.ConnectError("stopped: the run was interrupted")

    def count(self, n: int) -> None:
        self.received += n
        if self.received > self.max_bytes:
            self.watch.overrun = "size"
            raise httpcore2.ReadError(f"the answer is larger than {_size(self.max_bytes)}")


_active = threading.local()  # .call: the _Call whose request this thread is sending or reading


def _current() -> _Call | None:
    return getattr(_active, "call", None)


def _connect_timeout(timeout: float | None) -> float | None:
    """A connection's (or TLS handshake's) timeout, cut to what is left of the call's deadline
    (one wait: a stop is seen when it ends, at most the connect timeout later)."""
    call = _current()
    if call is None:
        return timeout
    op_end = None if timeout is None else time.monotonic() + timeout
    return call.slice(op_end, httpcore2.ConnectTimeout, reading=False)


class _Stream(httpcore2.NetworkStream):
    """A network stream whose every read and write keeps to the active call's budget."""

    def __init__(self, inner: httpcore2.NetworkStream) -> None:
        self.inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        call = _current()
        if call is None:
            return self.inner.read(max_bytes, timeout)
        op_end = None if timeout is None else time.monotonic() + timeout
        while True:
            wait = call.slice(op_end, httpcore2.ReadTimeout)  # raises past a bound
            try:
                data = self.inner.read(max_bytes, wait)
            except httpcore2.ReadTimeout:
                call.stopped()  # nothing more came after a stop: the call ends
                continue  # a slice ended: the next one raises if a bound did
            call.count(len(data))
            return data

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        call = _current()
        if call is None:
            return self.inner.write(buffer, timeout)
        # One write of the whole buffer within what is left: a body is small next to the
        # time it has, and a half-sent request cannot be resumed anyway.
        return self.inner.write(buffer, call.slice(None, httpcore2.WriteTimeout, reading=False))

    def close(self) -> None:
        self.inner.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore2.NetworkStream:
        timeout = _connect_timeout(timeout)
        return _Stream(self.inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> object:
        return self.inner.get_extra_info(info)


class _Backend(httpcore2.NetworkBackend):
    """The pool's network backend, its streams wrapped in :class:`_Stream`."""

    def __init__(self, inner: httpcore2.NetworkBackend) -> None:
        self.inner = inner

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.NetworkStream:
        stream = self.inner.connect_tcp(
            host, port, _connect_timeout(timeout), local_address, socket_options
        )
        return _Stream(stream)

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.NetworkStream:
        return _Stream(
            self.inner.connect_unix_socket(path, _connect_timeout(timeout), socket_options)
        )

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


class _Body(httpx2.SyncByteStream):
    """A response body read under its call's budget (httpx reads it after the transport
    returned the headers)."""

    def __init__(self, inner: Iterable[bytes], call: _Call) -> None:
        self.inner, self.call = inner, call

    def __iter__(self) -> Iterator[bytes]:
        chunks = iter(self.inner)
        while True:
            outer, _active.call = _current(), self.call
            try:
                chunk = next(chunks)
            except StopIteration:
                return
            finally:
                _active.call = outer
            yield chunk

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()


class DeadlineTransport(httpx2.HTTPTransport):
    """httpx's transport whose connections keep to each call's deadline and size bound."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        pool = self._pool
        pool._network_backend = _Backend(pool._network_backend)  # the one private hook

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        call = _Call(request)
        outer, _active.call = _current(), call
        try:
            response = super().handle_request(request)
        finally:
            _active.call = outer
        assert isinstance(response.stream, httpx2.SyncByteStream)  # what a sync transport gives
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_Body(response.stream, call),
            extensions=response.extensions,
        )


def http_client(sdk: ModuleType) -> httpx2.Client:
    """The httpx client for an SDK client (``openai`` or ``anthropic``, the module), as the SDK
    would build it (its timeouts, connection limits, redirects, the environment's proxies), over
    :class:`DeadlineTransport`."""
    from httpx2._utils import get_environment_proxies

    limits_ = sdk.DEFAULT_CONNECTION_LIMITS
    mounts: dict[str, httpx2.BaseTransport | None] = {
        key: None if url is None else DeadlineTransport(limits=limits_, proxy=url)
        for key, url in get_environment_proxies().items()
    }
    client: httpx2.Client = sdk.DefaultHttpxClient(
        transport=DeadlineTransport(limits=limits_), mounts=mounts, limits=limits_
    )
    return client
