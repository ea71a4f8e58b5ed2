"""A scripted LLM server on 127.0.0.1 for tests and benchmarks: real HTTP, scripted answers.

It speaks enough of OpenAI's ``/v1/chat/completions`` (+ ``/v1/files``, ``/v1/batches``) and
Anthropic's ``/v1/messages`` (+ ``/v1/messages/batches``) for the real ``openai`` and
``anthropic`` SDKs to talk to it. Answers come from a ``responder(provider, body) -> text``;
faults come from a ``FaultPlan`` (deterministic per request content, so a test knows which
requests fail and that their retries succeed): 429 with Retry-After, 500, a hang longer than the
client's timeout, a malformed answer, or an answer with a wrong number of sub-queries.

What real servers do besides, on request:
- an answer longer than the request's token budget (len/4 tokens) is cut there and reported as
  such (``finish_reason: length``, ``stop_reason: max_tokens``);
- ``slots=N``: at most N requests are worked on at once, the rest queue (llama.cpp
  ``--parallel N``), so latency grows with the queue; a request whose client gave up is still
  worked to the end (``abandoned`` counts them: work wasted);
- ``reject_formats``: a ``response_format`` type it refuses with HTTP 400, as servers without
  structured output do; ``reject_logprobs``: the same for a request asking log-probabilities;
- Anthropic tool use: a request forcing a tool gets its answer as that tool's input;
- OpenAI ``logprobs``: a request asking for them gets the answer's tokens with their
  log-probabilities and the top alternatives (``word_p``; see scripted_bodies.py).

Run standalone (the latency benchmark does, so the server does not share the client's GIL)::

    python tests/llm/scripted_server.py --latency 0.1     # prints the port, serves until killed
"""

from __future__ import annotations

import argparse
import json
import re
import select
import socket
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from scripted_answers import FaultPlan, _k_of, decomposition, default_responder
from scripted_bodies import anthropic_message, openai_completion


class ScriptedServer:
    def __init__(
        self,
        responder: Callable[[str, dict], str] = default_responder,
        *,
        latency_s: float = 0.0,
        faults: FaultPlan | None = None,
        hang_s: float = 1.0,
        batch_polls: int = 1,
        slots: int | None = None,
        reject_formats: tuple[str, ...] = (),
        usage: dict[str, Any] | None = None,
        word_p: Callable[[dict], float] | None = None,
        reject_logprobs: bool = False,
    ) -> None:
        self.reject_logprobs = reject_logprobs  # 400 to a request asking log-probabilities
        self.usage = usage  # reported instead of the real token counts (a lying server)
        # P of each word the answer writes, for requests asking log-probabilities (default 0.8)
        self.word_p = word_p
        self.responder, self.latency_s, self.hang_s = responder, latency_s, hang_s
        self.slots = threading.Semaphore(slots) if slots else None
        self.reject_formats = reject_formats
        self.active = self.max_active = self.abandoned = 0  # requests being worked on
        self.faults = faults or FaultPlan()
        self.batch_polls = batch_polls  # GETs of a batch before it reports completion
        self.requests: list[dict[str, Any]] = []
        self.served: Counter = Counter()  # (path kind, outcome) -> count
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()
        self.httpd = _Server(("127.0.0.1", 0), _handler(self))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def refuse_all(self, status: int = 401) -> None:
        """Answer every POST with ``status`` (a revoked key, say), after reading the body so
        the kept-alive connection stays in sync."""

        def refuse(handler: BaseHTTPRequestHandler) -> None:
            handler._record("refused", json.loads(handler._body() or b"{}"))
            handler._send(
                status,
                {
                    "type": "error",
                    "error": {"type": "authentication_error", "message": "invalid api key"},
                },
            )

        self.httpd.RequestHandlerClass.do_POST = refuse

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


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # the default backlog of 5 drops bursts of new connections


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _handler(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in two writes

        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

        def _send(
            self,
            status: int,
            payload: Any,
            headers: dict[str, str] | None = None,
            raw: bytes | None = None,
        ) -> None:
            data = raw if raw is not None else json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout); nothing to answer

        def _record(self, kind: str, body: Any) -> None:
            with server.lock:
                server.requests.append(
                    {
                        "kind": kind,
                        "path": self.path,
                        "body": body,
                        "t": time.monotonic(),
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                    }
                )

        def _body(self) -> bytes:
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if path == "/_stats":
                with server.lock:
                    kinds = Counter(r["kind"] for r in server.requests)
                return self._send(200, dict(kinds))
            self._record("get", None)
            if m := re.fullmatch(r"/v1/files/([\w-]+)/content", path):
                return self._send(200, None, raw=server.files.get(m.group(1), b""))
            if m := re.fullmatch(r"/v1/batches/([\w-]+)", path):
                return self._send(200, self._poll(m.group(1), "openai"))
            if m := re.fullmatch(r"/v1/messages/batches/([\w-]+)/results", path):
                return self._send(200, None, raw=server.files[f"results-{m.group(1)}"])
            if m := re.fullmatch(r"/v1/messages/batches/([\w-]+)", path):
                return self._send(200, self._poll(m.group(1), "anthropic"))
            self._send(404, {"error": {"message": f"no route {path}"}})

        def _poll(self, batch_id: str, provider: str) -> dict[str, Any]:
            with server.lock:
                batch = server.batches[batch_id]
                batch["_polls"] += 1
                done = batch["_polls"] >= server.batch_polls
            public = {k: v for k, v in batch.items() if not k.startswith("_")}
            if not done:
                return public
            if provider == "openai" and batch["status"] != "completed":
                out_id = f"file-out-{batch_id}"
                server.files[out_id] = server.openai_batch_output(batch)
                batch.update(status="completed", output_file_id=out_id)
            if provider == "anthropic" and batch["processing_status"] != "ended":
                server.files[f"results-{batch_id}"] = server.anthropic_batch_results(batch)
                batch.update(
                    processing_status="ended",
                    ended_at=_iso(time.time()),
                    results_url=f"{server.url}/v1/messages/batches/{batch_id}/results",
                )
            return {k: v for k, v in batch.items() if not k.startswith("_")}

        def do_POST(self) -> None:
            path = self.path.split("?")[0]
            raw = self._body()
            if path == "/v1/files":
                return self._upload(raw)
            body = json.loads(raw or b"{}")
            if path == "/v1/batches":
                self._record("batches", body)
                batch_id = f"batch_{uuid.uuid4().hex[:10]}"
                server.batches[batch_id] = {
                    "id": batch_id,
                    "object": "batch",
                    "endpoint": body["endpoint"],
                    "input_file_id": body["input_file_id"],
                    "completion_window": "24h",
                    "status": "in_progress",
                    "created_at": int(time.time()),
                    "output_file_id": None,
                    "error_file_id": None,
                    "_polls": 0,
                }
                return self._send(
                    200,
                    {k: v for k, v in server.batches[batch_id].items() if not k.startswith("_")},
                )
            if path == "/v1/messages/batches":
                self._record("batches", body)
                batch_id = f"msgbatch_{uuid.uuid4().hex[:10]}"
                now = time.time()
                server.batches[batch_id] = {
                    "id": batch_id,
                    "type": "message_batch",
                    "processing_status": "in_progress",
                    "request_counts": {
                        "processing": len(body["requests"]),
                        "succeeded": 0,
                        "errored": 0,
                        "canceled": 0,
                        "expired": 0,
                    },
                    "ended_at": None,
                    "created_at": _iso(now),
                    "expires_at": _iso(now + 86400),
                    "cancel_initiated_at": None,
                    "archived_at": None,
                    "results_url": None,
                    "_requests": body["requests"],
                    "_polls": 0,
                }
                return self._send(
                    200,
                    {k: v for k, v in server.batches[batch_id].items() if not k.startswith("_")},
                )
            provider = {"/v1/chat/completions": "openai", "/v1/messages": "anthropic"}.get(path)
            if provider is None:
                return self._send(404, {"error": {"message": f"no route {path}"}})
            self._record("chat" if provider == "openai" else "messages", body)
            self._chat(provider, body)

        def _gone(self) -> bool:
            """Whether the client closed the connection (it gave up waiting)."""
            try:
                readable, _, _ = select.select([self.connection], [], [], 0)
                return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                return True

        def _chat(self, provider: str, body: dict[str, Any]) -> None:
            kind = (body.get("response_format") or {}).get("type")
            if kind in server.reject_formats:
                with server.lock:
                    server.served["rejected"] += 1
                message = f"response_format type {kind!r} is not supported"
                return self._send(400, {"error": {"message": message, "code": 400}})
            if server.reject_logprobs and "logprobs" in body:
                message = "logprobs is not supported by this server"
                return self._send(400, {"error": {"message": message, "code": 400}})
            fault = server.faults.fault_for(body)
            with server.lock:
                server.served[fault or "ok"] += 1
            if server.slots is not None:
                server.slots.acquire()  # wait for a slot: the queue of a one-slot server
            try:
                with server.lock:
                    server.active += 1
                    server.max_active = max(server.max_active, server.active)
                if server.latency_s:
                    time.sleep(server.latency_s)
                if fault == "hang":
                    time.sleep(server.hang_s)
            finally:
                with server.lock:
                    server.active -= 1
                    server.abandoned += self._gone()
                if server.slots is not None:
                    server.slots.release()
            if fault == "hang":
                return self._send(200, {"late": True})
            if fault in ("429", "500"):
                status = int(fault)
                err = {
                    "type": "error",
                    "error": {
                        "type": "rate_limit_error" if status == 429 else "api_error",
                        "message": "scripted fault",
                    },
                }
                headers = {"Retry-After": server.faults.retry_after} if status == 429 else {}
                return self._send(status, err, headers)
            text = server.answer_text(provider, body, fault)
            if provider == "openai":
                return self._send(200, server.openai_completion(body, text))
            self._send(200, server.anthropic_message(body, text))

        def _upload(self, raw: bytes) -> None:
            ctype = self.headers.get("Content-Type", "")
            msg = BytesParser(policy=HTTP).parsebytes(
                f"Content-Type: {ctype}\r\n\r\n".encode() + raw
            )
            parts = {
                p.get_param("name", header="content-disposition"): p.get_payload(decode=True)
                for p in msg.iter_parts()
            }
            file_id = f"file-{uuid.uuid4().hex[:10]}"
            server.files[file_id] = parts.get("file", b"")
            self._record("files", {"purpose": (parts.get("purpose") or b"").decode()})
            self._send(
                200,
                {
                    "id": file_id,
                    "object": "file",
                    "bytes": len(server.files[file_id]),
                    "created_at": int(time.time()),
                    "filename": "batch.jsonl",
                    "purpose": "batch",
                    "status": "processed",
                },
            )

    return Handler


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--latency", type=float, default=0.0)
    args = ap.parse_args()
    with ScriptedServer(latency_s=args.latency) as server:
        print(server.httpd.server_address[1], flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
