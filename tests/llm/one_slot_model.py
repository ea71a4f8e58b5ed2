"""A local LLM server with one slot (llama.cpp ``--parallel 1``), or ``slots`` of them, as a chat
client in simulated time (simulated_clock.py): what the scripted HTTP server's ``slots`` does,
with the queue's arithmetic in place of sleeps, so a run's timeouts and latencies follow from the
model alone.

Requests are worked on in arrival order, each by the first slot to be free, ``service_s`` each:
one that arrives while every slot is busy waits for the work ahead of it. A request whose answer
would come later than its timeout fails as a timeout when the timeout runs out; the server works
on it to the end all the same (``abandoned``: work wasted), or, with ``drop_abandoned`` (as
llama.cpp, vLLM and Ollama do), drops it when its client leaves, freeing the slot then
(``dropped``). A request whose user text is in ``hangs`` hangs the first time it is sent: its
answer never comes (a dropping server frees the slot when the client leaves; a keeping one
works on it for ``hang_s``).
"""

from __future__ import annotations

from collections.abc import Collection

from llm.simulated_clock import SimClock
from toolex.llm.clients import Reply, Request, TransientError

ANSWER = '{"verdict": "no", "reason": "a different operation"}'


class OneSlotServer:
    provider, model, max_tokens = "compat", "qwen2.5-1.5b", 512

    def __init__(
        self,
        clock: SimClock,
        service_s: float,
        *,
        slots: int = 1,
        drop_abandoned: bool = False,
        hangs: Collection[str] = (),
        hang_s: float = 3600.0,
    ) -> None:
        self.clock, self.service_s = clock, service_s
        self.free_at = [0.0] * slots  # when each slot finishes the work accepted so far
        self.drop_abandoned, self.hang_s = drop_abandoned, hang_s
        self.hangs = set(hangs)  # user texts whose first request hangs
        self.received = self.timeouts = self.abandoned = self.dropped = 0
        self.max_active = 0  # the most slots busy at once

    def complete(self, request: Request) -> Reply:
        now = self.clock.now()
        self.received += 1
        hang = request.user in self.hangs
        self.hangs.discard(request.user)  # once
        slot = min(range(len(self.free_at)), key=self.free_at.__getitem__)
        start = max(now, self.free_at[slot])
        done = start + (self.hang_s if hang else self.service_s)
        if request.timeout_s is not None and done - now > request.timeout_s:
            self.timeouts += 1
            left = now + request.timeout_s  # the client gives up
            if self.drop_abandoned:
                self.dropped += 1  # worked on (if it started) until the client left
                self.free_at[slot] = max(self.free_at[slot], min(done, left))
            else:
                self.abandoned += 1  # the server works on it all the same
                self.free_at[slot] = done
            self._count_busy(now)
            self.clock.sleep(request.timeout_s)
            raise TransientError("timeout: the server did not answer in time", kind="timeout")
        self.free_at[slot] = done
        self._count_busy(now)
        self.clock.sleep(done - now)
        return Reply(ANSWER, 10, 5)

    def _count_busy(self, now: float) -> None:
        self.max_active = max(self.max_active, sum(at > now for at in self.free_at))

    @property
    def serial_s(self) -> float:
        """The server's busy time: every request received, worked one after another."""
        return self.received * self.service_s

    # the structured-output protocol of a chat client: this server takes any mode
    def mode_for(self, request: Request) -> str:
        return "none"

    def fallback(self, mode: str) -> None:
        return None

    def adopt(self, mode: str) -> None:
        pass

    def start_at(self, structured: str) -> None:
        pass
