"""A local LLM server with one slot (llama.cpp ``--parallel 1``), as a chat client in simulated
time (simulated_clock.py): what the scripted HTTP server's ``slots=1`` does, with the queue's
arithmetic in place of sleeps, so a run's timeouts and latencies follow from the model alone.

Requests are worked on one at a time in arrival order, ``service_s`` each: one that arrives
while the slot is busy waits for every request ahead of it. A request whose answer would come
later than its timeout fails as a timeout when the timeout runs out, and the server still works
on it to the end (``abandoned``: work wasted, as a real server wastes it).
"""

from __future__ import annotations

from simulated_clock import SimClock

from toolex.llm.clients import Reply, Request, TransientError

ANSWER = '{"verdict": "no", "reason": "a different operation"}'


class OneSlotServer:
    provider, model, max_tokens = "compat", "qwen2.5-1.5b", 512

    def __init__(self, clock: SimClock, service_s: float) -> None:
        self.clock, self.service_s = clock, service_s
        self.free_at = 0.0  # when the slot finishes the work accepted so far
        self.received = self.timeouts = self.abandoned = 0

    def complete(self, request: Request) -> Reply:
        now = self.clock.now()
        self.received += 1
        done = max(now, self.free_at) + self.service_s
        self.free_at = done
        if request.timeout_s is not None and done - now > request.timeout_s:
            self.timeouts += 1
            self.abandoned += 1  # the client gives up; the server works on it all the same
            self.clock.sleep(request.timeout_s)
            raise TransientError("timeout: the server did not answer in time", kind="timeout")
        self.clock.sleep(done - now)
        return Reply(ANSWER, 10, 5)

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
