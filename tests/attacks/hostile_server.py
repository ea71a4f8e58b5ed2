"""A scripted LLM server (tests/llm/scripted_server.py) made hostile: every chat request, or
those a predicate picks, gets a chosen status and raw body instead of an answer (a 500, a 429,
``{"choices": []}``, an HTML page, an error body echoing the request's Authorization header).
The rest are answered as the scripted server answers them. Loopback only."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from llm.llm_support import COMPAT_KEY, ScriptedServer
from llm.scripted_answers import _k_of
from llm.scripted_http import ScriptedHandler

__all__ = ["COMPAT_KEY", "ScriptedServer", "hostile", "is_decompose", "BODIES"]

# (status, raw body) -> what a broken or hostile server sends instead of an answer.
BODIES: dict[str, tuple[int, bytes]] = {
    "HTTP 500": (500, b'{"error": {"message": "internal error", "type": "server_error"}}'),
    "HTTP 429": (429, b'{"error": {"message": "rate limited", "type": "rate_limit"}}'),
    "empty choices": (200, b'{"id": "x", "object": "chat.completion", "choices": []}'),
    "a non-JSON body": (200, b"<html><body>502 Bad Gateway</body></html>"),
}

# A request's headers (":path": its path and query) and body -> (status, raw body), or None:
# answer it as usual.
Fault = Callable[[dict[str, str], dict[str, Any]], tuple[int, bytes] | None]


def is_decompose(body: dict[str, Any]) -> bool:
    return _k_of(body) is not None


def hostile(server: ScriptedServer, fault: Fault) -> ScriptedServer:
    """Make ``server`` send ``fault``'s answer to the chat requests it picks; record every
    request (``server.count("chat")``) as the scripted server does."""

    class Hostile(ScriptedHandler):
        def do_POST(self) -> None:
            # Any other POST is a chat call too: the OpenAI SDK mangles a base URL with a query
            # (``/v1?api_key=K`` posts to ``/v1/?api_key=Kchat/completions``).
            if "/files" in self.path or "/batches" in self.path:
                return super().do_POST()
            raw = self._body()
            body = json.loads(raw or b"{}")
            headers = {k.lower(): v for k, v in self.headers.items()} | {":path": self.path}
            sent = fault(headers, body)
            if sent is None:
                self._record("chat", body)
                return self._chat("openai", body)
            self._record("chat", body)
            status, data = sent
            retry = {"Retry-After": "0.01"} if status == 429 else None
            self._send(status, None, retry, raw=data)

    server.httpd.RequestHandlerClass = Hostile
    return server
