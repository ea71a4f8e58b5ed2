"""A server on 127.0.0.1 that answers every request with a well-formed HTTP answer sent the way a
hostile or broken server sends it (issue 37.8): dripped a few bytes at a time (``drip``: each
gap far inside any per-read timeout, the whole far past a call's deadline), headers then silence
(``stall``), a huge answer sent as fast as the client reads (``flood``: e.g. a 200,000-wide
vector per text), or a body that claims a gigabyte and never ends (``endless``). Raw sockets, so
the pacing is exactly what is written here; every connection ends when the client hangs up or
the server closes.

``answer(path, body) -> bytes`` gives the JSON body for a request (an embeddings answer, a chat
completion, an Anthropic message); ``requests`` counts the requests that arrived, and ``waiting``
is set once one is being answered (a test sends a signal only after it)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

GAP_S = 0.25  # between two dripped pieces: far inside any per-read timeout a test sets
PIECE = 1  # bytes per dripped piece
ENDLESS = 1 << 30  # bytes an endless body claims (and would send, were anyone still reading)


def chat_answer(path: str, body: dict[str, Any]) -> bytes:
    """A chat answer in the form the path asks for: OpenAI chat completions or Anthropic."""
    text = json.dumps({"verdict": "yes", "reason": "paced answer"})
    if path.endswith("/messages"):
        return json.dumps(
            {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": body.get("model", "m"),
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 10, "output_tokens": 5},
            }
        ).encode()
    return json.dumps(
        {
            "id": "c1",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "m"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
    ).encode()


def embeddings_answer(width: int, value: str = "0.001") -> Callable[[str, dict[str, Any]], bytes]:
    """An embeddings answer of one ``width``-wide vector of ``value`` per input text."""

    def answer(path: str, body: dict[str, Any]) -> bytes:
        texts = body.get("input")
        n = 1 if isinstance(texts, str) else len(texts or [])
        row = "[" + ",".join([value] * width) + "]"
        data = ",".join(f'{{"object":"embedding","index":{i},"embedding":{row}}}' for i in range(n))
        return (
            f'{{"object":"list","model":"m","data":[{data}],'
            f'"usage":{{"prompt_tokens":{n},"total_tokens":{n}}}}}'
        ).encode()

    return answer


class PacingServer:
    def __init__(
        self,
        mode: str,
        answer: Callable[[str, dict[str, Any]], bytes] = chat_answer,
        *,
        hold_after: int | None = None,
    ) -> None:
        """``hold_after``: the first that many requests are answered whole at once (``served``
        counts them; ``texts`` holds their inputs), every later one gets ``mode``."""
        assert mode in ("drip", "stall", "flood", "endless", "drip headers"), mode
        self.mode, self.answer, self.hold_after = mode, answer, hold_after
        self.requests = self.served = 0
        self.texts: list[str] = []
        self.lock = threading.Lock()
        self.held = threading.Event()  # set when a request past ``hold_after`` arrived
        self.waiting = threading.Event()
        self.closing = threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def __enter__(self) -> PacingServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.closing.set()
        self.thread.join(timeout=10)
        self.sock.close()

    def _accept(self) -> None:
        while not self.closing.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _read_request(self, conn: socket.socket) -> tuple[str, dict[str, Any]] | None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return None
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1]
        length = next(
            (int(v) for k, _, v in (x.partition(":") for x in lines[1:])
             if k.strip().lower() == "content-length"),
            0,
        )  # fmt: skip
        while len(rest) < length:
            chunk = conn.recv(65536)
            if not chunk:
                return None
            rest += chunk
        try:
            body = json.loads(rest or b"{}")
        except ValueError:  # a file upload (multipart), not JSON
            body = {}
        return path.split("?")[0], body if isinstance(body, dict) else {}

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(1.0)
        with conn:
            try:
                while not self.closing.is_set():
                    got = self._read_request(conn)
                    if got is None:
                        return
                    with self.lock:
                        self.requests += 1
                        whole = self.hold_after is not None and self.requests <= self.hold_after
                    self.waiting.set()
                    body = self.answer(*got)
                    length = ENDLESS if self.mode == "endless" and not whole else len(body)
                    head = (
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {length}\r\n\r\n"
                    ).encode()
                    if whole:
                        conn.sendall(head + body)
                        with self.lock:
                            self.served += 1
                            texts = got[1].get("input")
                            self.texts.extend([texts] if isinstance(texts, str) else texts or [])
                        continue
                    self.held.set()
                    for piece in self._pieces(head, body):
                        if self.closing.is_set():
                            return
                        conn.sendall(piece)
            except OSError:
                return  # the client hung up: what a deadline does

    def _pieces(self, head: bytes, body: bytes) -> Iterator[bytes]:
        if self.mode == "drip headers":
            for i in range(len(head)):
                yield head[i : i + 1]
                time.sleep(GAP_S)
            yield body
            return
        yield head
        if self.mode == "stall":
            self.closing.wait(600)  # until the client hangs up or the server closes
            return
        if self.mode == "flood":
            for i in range(0, len(body), 1 << 16):
                yield body[i : i + (1 << 16)]
            return
        if self.mode == "endless":
            yield b'{"id": "c1", "object": "chat.completion", "pad": "'
            filler = b"x" * (1 << 16)
            for _ in range(ENDLESS >> 16):
                yield filler
            return
        for i in range(0, len(body), PIECE):
            yield body[i : i + PIECE]
            time.sleep(GAP_S)
