"""A scripted LLM server on 127.0.0.1 for tests and benchmarks: real HTTP, scripted answers.

It speaks enough of OpenAI's ``/v1/chat/completions`` (+ ``/v1/files``, ``/v1/batches``,
``/v1/embeddings``: scripted_embeddings.py) and
Anthropic's ``/v1/messages`` (+ ``/v1/messages/batches``) for the real ``openai`` and
``anthropic`` SDKs to talk to it. Answers come from a ``responder(provider, body) -> text``;
faults come from a ``FaultPlan`` (deterministic per request content, so a test knows which
requests fail and that their retries succeed): 429 with Retry-After, 500, a hang (held until the
client times out and hangs up, at most ``hang_s``), a malformed answer, or an answer with a wrong
number of sub-queries.

What real servers do besides, on request:
- an answer longer than the request's token budget (len/4 tokens) is cut there and reported as
  such (``finish_reason: length``, ``stop_reason: max_tokens``);
- ``slots=N``: at most N requests are worked on at once, the rest queue (llama.cpp
  ``--parallel N``), so latency grows with the queue; a request whose client gave up is still
  worked to the end (``abandoned`` counts them: work wasted), or with ``drop_abandoned`` dropped
  at once, its slot freed (``dropped`` counts them), as llama.cpp, vLLM and Ollama do;
- ``reject_formats``: a ``response_format`` type it refuses with HTTP 400, as servers without
  structured output do; ``reject_logprobs``: the same for a request asking log-probabilities;
- Anthropic tool use: a request forcing a tool gets its answer as that tool's input;
- OpenAI ``logprobs``: a request asking for them gets the answer's tokens with their
  log-probabilities and the top alternatives (``word_p``; see scripted_bodies.py).

The HTTP side (routes, slots, faults on the wire) is scripted_http.py.

Run standalone (the benchmarks do, so the server does not share the client's GIL)::

    python tests/llm/scripted_server.py --latency 0.1     # prints the port, serves until killed
    python tests/llm/scripted_server.py --model small --slots 2 --drop-abandoned --hang-every 50
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

if not __package__:  # run as a script (the benchmarks start it): its helpers are under tests/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from llm.scripted_answers import FaultPlan, _k_of, decomposition, default_responder, small_model
from llm.scripted_bodies import anthropic_message, openai_completion
from llm.scripted_embeddings import EmbeddingScript
from llm.scripted_http import HOLD_GUARD_S, ScriptedHandler, ScriptedHTTPServer


class ScriptedServer:
    def __init__(
        self,
        responder: Callable[[str, dict[str, Any]], str] = default_responder,
        *,
        latency_s: float = 0.0,
        faults: FaultPlan | None = None,
        hang_s: float = HOLD_GUARD_S,
        batch_polls: int = 1,
        slots: int | None = None,
        reject_formats: tuple[str, ...] = (),
        usage: dict[str, Any] | None = None,
        word_p: Callable[[dict[str, Any]], float] | None = None,
        reject_logprobs: bool = False,
        drop_abandoned: bool = False,
    ) -> None:
        self.drop_abandoned = drop_abandoned  # stop working on a request whose client left
        self.reject_logprobs = reject_logprobs  # 400 to a request asking log-probabilities
        self.usage = usage  # reported instead of the real token counts (a lying server)
        # P of each word the answer writes, for requests asking log-probabilities (default 0.8)
        self.word_p = word_p
        self.responder, self.latency_s, self.hang_s = responder, latency_s, hang_s
        self.slots = threading.Semaphore(slots) if slots else None
        self.reject_formats = reject_formats
        self.active = self.max_active = self.abandoned = self.dropped = 0  # requests worked on
        self.faults = faults or FaultPlan()
        self.batch_polls = batch_polls  # GETs of a batch before it reports completion
        self.requests: list[dict[str, Any]] = []
        self.served: Counter[str] = Counter()  # (path kind, outcome) -> count
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()
        self.closing = threading.Event()  # set when the server closes: held requests end
        self.gate = threading.Event()  # open: chat requests pass (see hold_after)
        self.gate.set()
        self._let_through: int | None = None
        self.embeddings = EmbeddingScript()  # /v1/embeddings: vectors, faults, texts seen
        self.httpd = ScriptedHTTPServer(("127.0.0.1", 0), self)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.closing.set()
        self.release()
        self.httpd.shutdown()
        self.httpd.server_close()

    def refuse_all(self, status: int = 401, *, hold_others: bool = False) -> None:
        """Answer every POST with ``status`` (a revoked key, say), after reading the body so
        the kept-alive connection stays in sync. ``hold_others``: only the first request is
        answered at once; the others wait until the server closes (at most ``HOLD_GUARD_S``, so
        a client that wrongly waits for them fails instead of hanging), so a test sees what the
        client does after the first refusal however its threads are scheduled."""
        arrived = iter(range(1_000_000))

        class Refusing(ScriptedHandler):
            def do_POST(self) -> None:
                self._record("refused", json.loads(self._body() or b"{}"))
                with self.script.lock:
                    first = next(arrived) == 0
                if hold_others and not first:
                    self.script.closing.wait(HOLD_GUARD_S)
                self._send(
                    status,
                    {
                        "type": "error",
                        "error": {"type": "authentication_error", "message": "invalid api key"},
                    },
                )

        self.httpd.RequestHandlerClass = Refusing

    def hold_after(self, n: int) -> None:
        """Answer the next ``n`` chat requests and hold every later one (counted and faulted
        as it arrives) until ``release()`` or the server closes, at most ``HOLD_GUARD_S``: a
        client then cannot finish a stage before the test acts, however fast it runs."""
        with self.lock:
            self._let_through = n
            self.gate.clear()

    def release(self) -> None:
        with self.lock:
            self._let_through = None
            self.gate.set()

    def passes(self) -> bool:
        """Whether a chat request arriving now is answered at once (see ``hold_after``)."""
        with self.lock:
            if self._let_through is None:
                return True
            self._let_through -= 1
            return self._let_through >= 0

    def count(self, kind: str) -> int:
        """Requests received for ``chat``, ``messages``, ``files``, ``batches``..."""
        with self.lock:
            return sum(1 for r in self.requests if r["kind"] == kind)

    # -- answers -------------------------------------------------------------------------------

    def answer_text(self, provider: str, body: dict[str, Any], fault: str | None) -> str:
        if fault == "malformed":
            return 'Sure! Here is my answer: {"verdict": yes'
        if fault == "wrong_k":
            return decomposition((_k_of(body) or 1) + 1)
        return self.responder(provider, body)

    def openai_completion(self, body: dict[str, Any], text: str) -> dict[str, Any]:
        return openai_completion(body, text, self.usage, self.word_p)

    def anthropic_message(self, body: dict[str, Any], text: str) -> dict[str, Any]:
        return anthropic_message(body, text)

    # -- batches -------------------------------------------------------------------------------

    def openai_batch_output(self, batch: dict[str, Any]) -> bytes:
        lines = []
        for raw in self.files[batch["input_file_id"]].decode().splitlines():
            req = json.loads(raw)
            body = req["body"]
            text = self.answer_text("openai", body, self.faults.fault_for(body))
            lines.append(
                json.dumps(
                    {
                        "id": f"batch_req_{uuid.uuid4().hex[:8]}",
                        "custom_id": req["custom_id"],
                        "response": {
                            "status_code": 200,
                            "request_id": uuid.uuid4().hex,
                            "body": self.openai_completion(body, text),
                        },
                        "error": None,
                    }
                )
            )
        return ("\n".join(lines) + "\n").encode()

    def anthropic_batch_results(self, batch: dict[str, Any]) -> bytes:
        lines = []
        for req in batch["_requests"]:
            body = req["params"]
            text = self.answer_text("anthropic", body, self.faults.fault_for(body))
            lines.append(
                json.dumps(
                    {
                        "custom_id": req["custom_id"],
                        "result": {
                            "type": "succeeded",
                            "message": self.anthropic_message(body, text),
                        },
                    }
                )
            )
        return ("\n".join(lines) + "\n").encode()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--latency", type=float, default=0.0)
    ap.add_argument("--slots", type=int, default=None, help="requests worked on at once")
    ap.add_argument("--drop-abandoned", action="store_true", help="drop what a client left")
    ap.add_argument("--hang-every", type=int, default=0, help="every Nth request never answers")
    ap.add_argument("--model", choices=("default", "small"), default="default")
    args = ap.parse_args()
    faults = FaultPlan(rate=1 / args.hang_every, kinds=("hang",)) if args.hang_every else None
    with ScriptedServer(
        small_model if args.model == "small" else default_responder,
        latency_s=args.latency,
        slots=args.slots,
        drop_abandoned=args.drop_abandoned,
        faults=faults,
        hang_s=3600,
    ) as server:
        print(server.httpd.server_address[1], flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
