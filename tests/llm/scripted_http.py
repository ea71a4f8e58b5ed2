"""The HTTP side of the scripted LLM server (scripted_server.py): the routes of OpenAI's chat,
embeddings (answered by scripted_embeddings.py), files and batch APIs and Anthropic's messages and
message batches, the slots that queue requests, and the faults as they go on the wire (429 with
Retry-After, 500, a hang past the client's timeout: held until the client gives up, so it is a
timeout however late the client's comes). What is answered comes from the ``ScriptedServer`` a
handler is made for.
"""

from __future__ import annotations

import json
import re
import select
import socket
import time
import uuid
from collections import Counter
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from llm.scripted_server import ScriptedServer

HOLD_GUARD_S = 60.0  # longest a held request waits (scripted_server.hold_after)


class ScriptedHTTPServer(ThreadingHTTPServer):
    """The socket server of one ``ScriptedServer`` (``script``): its handlers answer from it."""

    request_queue_size = 256  # the default backlog of 5 drops bursts of new connections

    def __init__(self, address: tuple[str, int], script: ScriptedServer) -> None:
        self.script = script
        super().__init__(address, ScriptedHandler)


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class ScriptedHandler(BaseHTTPRequestHandler):
    """One request to a scripted server, answered from the ``ScriptedServer`` its socket server
    carries. A test that answers otherwise (refuses every call, echoes a header) installs a
    subclass on that server (``server.httpd.RequestHandlerClass``), so other servers keep this."""

    server: ScriptedHTTPServer  # set by socketserver: the server that accepted the request
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes

    @property
    def script(self) -> ScriptedServer:
        return self.server.script

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
        with self.script.lock:
            self.script.requests.append(
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
            with self.script.lock:
                kinds = Counter(r["kind"] for r in self.script.requests)
            return self._send(200, dict(kinds))
        self._record("get", None)
        if m := re.fullmatch(r"/v1/files/([\w-]+)/content", path):
            return self._send(200, None, raw=self.script.files.get(m.group(1), b""))
        if m := re.fullmatch(r"/v1/batches/([\w-]+)", path):
            return self._send(200, self._poll(m.group(1), "openai"))
        if m := re.fullmatch(r"/v1/messages/batches/([\w-]+)/results", path):
            return self._send(200, None, raw=self.script.files[f"results-{m.group(1)}"])
        if m := re.fullmatch(r"/v1/messages/batches/([\w-]+)", path):
            return self._send(200, self._poll(m.group(1), "anthropic"))
        self._send(404, {"error": {"message": f"no route {path}"}})

    def _poll(self, batch_id: str, provider: str) -> dict[str, Any]:
        with self.script.lock:
            batch = self.script.batches[batch_id]
            batch["_polls"] += 1
            done = batch["_polls"] >= self.script.batch_polls
        public = {k: v for k, v in batch.items() if not k.startswith("_")}
        if not done:
            return public
        if provider == "openai" and batch["status"] != "completed":
            out_id = f"file-out-{batch_id}"
            self.script.files[out_id] = self.script.openai_batch_output(batch)
            batch.update(status="completed", output_file_id=out_id)
        if provider == "anthropic" and batch["processing_status"] != "ended":
            self.script.files[f"results-{batch_id}"] = self.script.anthropic_batch_results(batch)
            batch.update(
                processing_status="ended",
                ended_at=_iso(time.time()),
                results_url=f"{self.script.url}/v1/messages/batches/{batch_id}/results",
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
            self.script.batches[batch_id] = {
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
                {k: v for k, v in self.script.batches[batch_id].items() if not k.startswith("_")},
            )
        if path == "/v1/messages/batches":
            self._record("batches", body)
            batch_id = f"msgbatch_{uuid.uuid4().hex[:10]}"
            now = time.time()
            self.script.batches[batch_id] = {
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
                {k: v for k, v in self.script.batches[batch_id].items() if not k.startswith("_")},
            )
        if path == "/v1/embeddings":
            self._record("embeddings", body)
            fault = self.script.embeddings.next_fault()
            headers = {"Retry-After": "0"} if fault == "429" else {}
            return self._send(*self.script.embeddings.answer(body, fault), headers)
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

    def _work(self, seconds: float, hang: bool) -> bool:
        """Work on a request for ``seconds``, and on a hung one then until its client gives
        up (at most ``hang_s``); False when the server drops it because its client gave up
        (``drop_abandoned``, as llama.cpp, vLLM and Ollama do)."""
        if not self.script.drop_abandoned:
            if seconds:
                time.sleep(seconds)
        else:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                if self._gone():
                    return False
                time.sleep(min(0.01, max(0.0, end - time.monotonic())))
        if hang:
            self._hold(self.script.hang_s)
            return not (self.script.drop_abandoned and self._gone())
        return True

    def _hold(self, at_most: float) -> None:
        """Hold a hung request until the client gives up (closes the connection), the server
        closes, or ``at_most`` seconds pass."""
        end = time.monotonic() + at_most
        while not self.script.closing.is_set() and time.monotonic() < end:
            wait = min(0.05, max(0.0, end - time.monotonic()))
            readable, _, _ = select.select([self.connection], [], [], wait)
            if readable and self._gone():
                return
            if readable:  # data, not a close: nothing to wait on but the time
                time.sleep(wait)

    def _chat(self, provider: str, body: dict[str, Any]) -> None:
        kind = (body.get("response_format") or {}).get("type")
        if kind in self.script.reject_formats:
            with self.script.lock:
                self.script.served["rejected"] += 1
            message = f"response_format type {kind!r} is not supported"
            return self._send(400, {"error": {"message": message, "code": 400}})
        if self.script.reject_logprobs and "logprobs" in body:
            message = "logprobs is not supported by this server"
            return self._send(400, {"error": {"message": message, "code": 400}})
        fault = self.script.faults.fault_for(body)
        with self.script.lock:
            self.script.served[fault or "ok"] += 1
        if not self.script.passes():
            self.script.gate.wait(HOLD_GUARD_S)
        if self.script.slots is not None:
            self.script.slots.acquire()  # wait for a slot: the queue of a one-slot server
        worked = True
        try:
            with self.script.lock:
                self.script.active += 1
                self.script.max_active = max(self.script.max_active, self.script.active)
            worked = self._work(self.script.latency_s, fault == "hang")
        finally:
            with self.script.lock:
                self.script.active -= 1
                if worked:
                    self.script.abandoned += self._gone()
                else:
                    self.script.dropped += 1
            if self.script.slots is not None:
                self.script.slots.release()
        if not worked:
            return None  # dropped: the client is gone, nobody to answer
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
            headers = {"Retry-After": self.script.faults.retry_after} if status == 429 else {}
            return self._send(status, err, headers)
        text = self.script.answer_text(provider, body, fault)
        if provider == "openai":
            return self._send(200, self.script.openai_completion(body, text))
        self._send(200, self.script.anthropic_message(body, text))

    def _upload(self, raw: bytes) -> None:
        ctype = self.headers.get("Content-Type", "")
        msg = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {ctype}\r\n\r\n".encode() + raw)
        parts: dict[object, bytes] = {}
        for p in msg.iter_parts():
            payload = p.get_payload(decode=True)
            assert isinstance(payload, bytes), payload  # a form field, not a nested part
            parts[p.get_param("name", header="content-disposition")] = payload
        file_id = f"file-{uuid.uuid4().hex[:10]}"
        self.script.files[file_id] = parts.get("file", b"")
        self._record("files", {"purpose": (parts.get("purpose") or b"").decode()})
        self._send(
            200,
            {
                "id": file_id,
                "object": "file",
                "bytes": len(self.script.files[file_id]),
                "created_at": int(time.time()),
                "filename": "batch.jsonl",
                "purpose": "batch",
                "status": "processed",
            },
        )
