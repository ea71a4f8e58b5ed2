"""The in-flight limiter on its own: hand-computed AIMD steps."""

from __future__ import annotations

import threading

from llm.simulated_clock import SimClock
from toolex.llm.limiter import QUEUE_RATIO, Limiter, Ticket

NEVER = threading.Event()


def take(limiter: Limiter, n: int) -> list[Ticket]:
    tickets = []
    for _ in range(n):
        ticket = limiter.acquire(NEVER)
        assert ticket is not None  # only a set stop event makes acquire give up
        tickets.append(ticket)
    return tickets


def test_a_cut_halves_once_per_episode_and_never_below_one() -> None:
    lim = Limiter(cap=16)
    burst = take(lim, 12)
    lim.cut(burst[0])
    lim.cut(burst[1])  # sent before the cut: the same episode
    assert (lim.limit, lim.cuts) == (8.0, 1)
    for t in burst:
        lim.release(t)
    [later] = take(lim, 1)
    lim.cut(later)  # sent after it: a new sign
    lim.release(later)
    assert (lim.limit, lim.cuts) == (4.0, 2)
    for _ in range(5):
        [t] = take(lim, 1)
        lim.cut(t)
        lim.release(t)
    assert lim.limit == 1.0 and lim.allowed == 1 and lim.lowest == 1


def test_growth_is_one_per_answer_up_to_the_last_cut_then_one_per_round() -> None:
    lim = Limiter(cap=16, start=1)
    for expected in (2.0, 3.0, 4.0):  # the limit in use: +1 per answer (cap unknown so far)
        tickets = take(lim, lim.allowed)
        lim.release(tickets[-1], latency=0.1)
        for t in tickets[:-1]:
            lim.release(t)  # no latency: not an answer
        assert lim.limit == expected
    [t] = take(lim, 1)
    lim.cut(t)
    lim.release(t)
    assert lim.limit == lim.threshold == 2.0
    first, second = take(lim, 2)
    lim.release(second, latency=0.1)
    assert lim.limit == 2.5  # at the threshold: 1/limit per answer
    lim.release(first, latency=0.1)  # sent while the limit was not yet in use
    assert lim.limit == 2.5


def test_an_unused_limit_does_not_grow() -> None:
    lim = Limiter(cap=16, start=4)
    [t] = take(lim, 1)  # one call where four may run
    lim.release(t, latency=0.1)
    assert lim.limit == 4.0


def test_a_queued_answer_cuts_on_a_local_server_only() -> None:
    for watch, expected in ((True, 1.5), (False, 4.0)):
        lim = Limiter(cap=16, start=2, watch_latency=watch)
        [alone] = take(lim, 1)
        lim.release(alone, latency=1.0)  # the fastest: 1 s of work; the limit was not in use
        a, b = take(lim, 2)
        lim.release(b, latency=QUEUE_RATIO * 1.0)  # waited, but not more than one call's worth
        assert lim.limit == 3.0
        lim.release(a)
        a, b, c = take(lim, 3)
        lim.release(c, latency=QUEUE_RATIO * 1.0 + 0.5)  # queued behind more than one call
        assert lim.limit == expected, watch
    lim = Limiter(cap=16, start=1, watch_latency=True)
    lim.release(take(lim, 1)[0], latency=1.0)
    lim.release(take(lim, 1)[0], latency=10.0)  # alone in flight: slow, but not queued here
    assert lim.cuts == 0


def test_acquire_waits_for_room_and_gives_up_when_stopped() -> None:
    """On a simulated clock (simulated_clock.py): the waiter has had a minute to take a place
    before the room is made, whatever the machine's load (issue 25: a 0.15 s sleep and a 2 s
    join stood in for that)."""
    clock = SimClock()
    lim = Limiter(cap=1, clock=clock)
    [held] = take(lim, 1)
    stop = clock.event()
    got = []
    waiter = clock.thread(lambda: got.append(lim.acquire(stop)), (), "waiter")
    waiter.start()
    clock.sleep(60.0)
    assert not got and lim.in_flight == 1  # no room
    lim.release(held)
    clock.finish()  # the waiter takes the place and ends
    assert got and got[0] is not None and lim.in_flight == 1
    assert got[0].sent <= 60.1  # the place was taken when it was made (within one 0.1 s poll)
    stop.set()
    assert lim.acquire(stop) is None
    assert lim.peak == 1


def test_a_local_server_is_not_stacked_past_its_timeout() -> None:
    """45 s answers and a 60 s timeout: a second call in flight would wait 90 s."""
    lim = Limiter(cap=16, start=1, watch_latency=True, timeout_s=60.0)
    lim.release(take(lim, 1)[0], latency=45.0)
    assert lim.limit == 1.0
    roomy = Limiter(cap=16, start=1, watch_latency=True, timeout_s=300.0)
    for _ in range(8):
        tickets = take(roomy, roomy.allowed)
        roomy.release(tickets[-1], latency=45.0)
        for t in tickets[:-1]:
            roomy.release(t)
    assert roomy.limit == 5.0  # 5 x 45 s = 225 s <= 0.8 x 300 s; 6 would not fit


def test_slots_are_a_floor_no_cut_goes_below() -> None:
    """issue 28.3: a timeout on a 2-slot server halved the limit to 1 and left a slot idle."""
    lim = Limiter(cap=2, start=2, watch_latency=True, floor=2)
    for _ in range(3):
        [t] = take(lim, 1)
        lim.timed_out(t)
        lim.release(t)
    assert lim.cuts == 3 and lim.allowed == lim.lowest == 2
    assert Limiter(cap=4, floor=9).floor == 4  # never above the cap


def test_a_timeout_gives_the_place_back_unless_the_server_keeps_abandoned_work() -> None:
    """On a simulated clock: "right after the timeout" is within the fastest answer's time of
    it however slowly the machine runs this test."""
    clock = SimClock()
    lim = Limiter(cap=2, start=2, watch_latency=True, timeout_s=300.0, clock=clock)
    [warm] = take(lim, 1)
    lim.release(warm, latency=100.0)  # the fastest answer: 100 s
    [t] = take(lim, 1)
    assert lim.timed_out(t) == 0.0 and lim.keeps_abandoned is None  # unknown: no hold
    lim.release(t)
    [probe] = take(lim, 1)  # sent right after the timeout: an abandoned copy would be running
    lim.release(probe, latency=QUEUE_RATIO * 100.0 + 1)  # ...and it waited behind one
    assert lim.keeps_abandoned is True
    [t] = take(lim, 1)
    assert lim.timed_out(t) == 100.0  # now the place is kept for the fastest answer's time
    lim.release(t)
    [probe] = take(lim, 1)
    lim.release(probe, latency=100.0)  # no wait this time: the server dropped it
    assert lim.keeps_abandoned is False
    [t] = take(lim, 1)
    lim.timed_out(t)
    lim.release(t)
    clock.sleep(100.0)  # the fastest answer's time later an abandoned copy would be done
    [probe] = take(lim, 1)
    lim.release(probe, latency=QUEUE_RATIO * 100.0 + 1)  # a wait then says nothing about it
    assert lim.keeps_abandoned is False
    late = Limiter(cap=2, watch_latency=True, timeout_s=60.0, clock=clock)
    late.keeps_abandoned = True
    late.release(take(late, 1)[0], latency=100.0)
    assert late.timed_out(take(late, 1)[0]) == 60.0  # never longer than the timeout
