"""toolex.llm.deadline at the level of one network stream (no server, no timing): the call's
deadline and size bound are checked at every read, and a stop takes what has already come but
waits for nothing more. The SDKs over real sockets against dripping, stalling and flooding
servers: tests/attacks/test_servers_round2.py."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from threading import Event

import httpcore2
import httpx2
import pytest

from toolex.llm import deadline
from toolex.llm.deadline import _Call, _Stream, limits


class Wire(httpcore2.NetworkStream):
    """A connection whose bytes are ``chunks``, then silence (a read times out)."""

    def __init__(self, *chunks: bytes) -> None:
        self.chunks = list(chunks)
        self.waits: list[float | None] = []

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        self.waits.append(timeout)
        if not self.chunks:
            raise httpcore2.ReadTimeout("nothing came")
        return self.chunks.pop(0)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.waits.append(timeout)


def _reading(call: _Call, wire: Wire) -> _Stream:
    deadline._active.call = call
    return _Stream(wire)


@pytest.fixture(autouse=True)
def no_call() -> Iterator[None]:
    yield
    deadline._active.call = None


def _call(seconds: float | None = None, max_bytes: int = 1000, stop: Event | None = None) -> _Call:
    request = httpx2.Request("POST", "http://127.0.0.1/v1/x", extensions={"timeout": {"read": 60}})
    with limits(seconds, max_bytes, stop):
        return _Call(request)


def test_each_read_waits_no_longer_than_what_is_left_of_the_call() -> None:
    wire = Wire(b"a", b"b")
    stream = _reading(_call(seconds=5.0), wire)
    assert stream.read(10, timeout=60.0) + stream.read(10, timeout=60.0) == b"ab"
    assert all(w is not None and w <= 5.0 for w in wire.waits)  # the deadline, not the 60 s


def test_a_call_past_its_deadline_ends_as_a_timeout_that_says_so() -> None:
    call = _call(seconds=0.0)
    with pytest.raises(httpcore2.ReadTimeout, match="deadline"):
        _reading(call, Wire(b"a")).read(10, timeout=60.0)
    said = call.watch.reworded(RuntimeError("timed out"))
    assert str(said).startswith("timeout: no complete answer within 0 s (the whole call's")


def test_an_answer_past_its_size_bound_is_refused() -> None:
    call = _call(max_bytes=3)
    stream = _reading(call, Wire(b"ab", b"cd"))
    assert stream.read(10) == b"ab"
    with pytest.raises(httpcore2.ReadError, match="larger than 3 bytes"):
        stream.read(10)
    assert call.watch.overrun == "size"


def test_a_stop_keeps_what_has_come_and_waits_for_nothing_more() -> None:
    stop = threading.Event()
    call = _call(stop=stop)
    wire = Wire(b"the whole answer")
    stream = _reading(call, wire)
    stop.set()  # the caller stops while the answer is already on the wire
    assert stream.read(100, timeout=60.0) == b"the whole answer"
    with pytest.raises(httpcore2.ConnectError, match="stopped"):
        stream.read(100, timeout=60.0)  # nothing more came: the call ends, not at 60 s
    assert call.watch.overrun == "stopped"
    assert all(w is not None and w <= deadline.STOP_GRACE_S for w in wire.waits)
    with pytest.raises(httpcore2.ConnectError, match="stopped"):
        stream.write(b"another request")  # nothing new is sent after a stop
