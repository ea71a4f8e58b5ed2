"""Secrets a server sends back (issue 27, point 8): a server that echoes the request's
Authorization header (``Bearer <key>``, or ``Basic base64(user:password)`` for a URL with
credentials) or its URL (a ``?api_key=``) in an error body, an HTML page or an answer. No known
secret, raw, percent-encoded or base64, is in any cell of any table, any byte of the store's
files, anything printed, or any log line: importing wordllama no longer turns on the HTTP
client's request log. Loopback servers only."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from attacks.conftest import Ran
from attacks.hostile_server import ScriptedServer, hostile, is_decompose
from attacks.tally import Tally
from toolex.store import Store

PASSWORD = "hunter2-Pa55w0rd-echo"
USER = "alice"
OPENAI_KEY = "sk-proj-echoedkey0123456789abcdefXYZ"
COMPAT_KEY = "compat-echoed-key-5a6b7c8d"
QUERY_KEY = "qk-echoed-3f2e1d0c9b8a"


def secrets() -> dict[str, str]:
    """Each secret and the forms a leak of it takes (raw, percent-encoded, Basic-auth base64)."""
    pair = f"{USER}:{PASSWORD}"
    basic = base64.b64encode(pair.encode()).decode()
    out = {}
    for secret in (PASSWORD, OPENAI_KEY, COMPAT_KEY, QUERY_KEY, pair):
        out[secret] = secret
        out[f"{secret} (percent-encoded)"] = quote(secret, safe="")
        out[f"{secret} (base64)"] = base64.b64encode(secret.encode()).decode().rstrip("=")
    out["Basic base64(user:password)"] = basic.rstrip("=")
    return out


def leaks(text: str | bytes) -> list[str]:
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    return [name for name, form in secrets().items() if form in text]


def cells(db: str) -> str:
    with Store.open(db, read_only=True) as store:
        tables = [r["table_name"] for r in store.rows("store/41_tables.sql")]
        return "\n".join(str(store.user_sql(f'SELECT * FROM "{t}"').to_pylist()) for t in tables)


def files(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def _completion(server: ScriptedServer, body: dict[str, Any], text: str) -> bytes:
    return json.dumps(server.openai_completion(body, text)).encode()


def echo(
    where: str, server: ScriptedServer
) -> Callable[[dict[str, str], dict[Any, Any]], tuple[int, bytes] | None]:
    """A fault that puts the request's Authorization header, path and query where ``where``
    says (decompose requests are answered, so verify runs and meets it)."""

    def fault(headers: dict[str, str], body: dict[str, Any]) -> tuple[int, bytes] | None:
        sent = f"{headers.get('authorization')} at {headers[':path']}"
        if where == "401 error body":
            return 401, json.dumps({"error": {"message": f"Incorrect API key: {sent}"}}).encode()
        if is_decompose(body):
            return None
        if where == "500 error body":
            return 500, json.dumps({"error": {"message": f"upstream refused {sent}"}}).encode()
        if where == "HTML page":
            return 200, f"<html><body>proxy error for {sent}</body></html>".encode()
        verdict = {"verdict": "yes", "reason": f"the request carried {sent}"}
        return 200, _completion(server, body, json.dumps(verdict))

    return fault


def _serve(where: str) -> ScriptedServer:
    server = ScriptedServer()
    return hostile(server, echo(where, server))


PLACES = ["401 error body", "500 error body", "HTML page", "answer text"]
JUDGES = ["compat with user:password", "compat with ?api_key=", "compat key", "openai key"]


def _spec(judge: str, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch) -> str:
    host = server.url.removeprefix("http://")
    monkeypatch.setenv("TOOLEX_COMPAT_API_KEY", COMPAT_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    if judge == "openai key":
        monkeypatch.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
        return "openai:gpt-4o-mini"
    if judge == "compat with user:password":
        return f"compat:http://{USER}:{PASSWORD}@{host}/v1#m"
    if judge == "compat with ?api_key=":
        monkeypatch.setenv("OPENAI_BASE_URL", f"{server.url}/v1?api_key={QUERY_KEY}")
        return "openai:gpt-4o-mini"
    return f"compat:{server.url}/v1#m"


@pytest.mark.parametrize("judge", JUDGES)
def test_an_echoed_secret_is_never_stored_nor_printed(
    bench_db: str,
    tmp_path: Path,
    toolex: Callable[..., Ran],
    monkeypatch: pytest.MonkeyPatch,
    judge: str,
) -> None:
    tally = Tally("secrets: echoed by the server")
    config = tmp_path / "fast.toml"
    config.write_text("[llm]\nmax_attempts = 2\nbackoff_base_s = 0.01\nbackoff_max_s = 0.02\n")
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    for n, where in enumerate(PLACES):
        with _serve(where) as server:
            spec = _spec(judge, server, monkeypatch)
            ran = toolex(
                "expand", "--benchmark", "plain", "--judge", spec, "--expansion", f"e{n}",
                "--prescreen", "off", "--config", str(config), "--db", bench_db,
            )  # fmt: skip
            assert server.count("chat") > 0
            sent = [r["headers"].get("authorization", "") for r in server.requests]
        secret_sent = any(leaks(s) for s in sent) or "api_key" in judge
        assert secret_sent, sent  # the server did get a secret to echo
        shown = ran.out + ran.err
        tally.record(f"{judge}, {where}: printed", ran.outcome, leaked=bool(leaks(shown)))
        assert not leaks(shown), (where, leaks(shown), shown[-800:])
    for query in ("SELECT error, response FROM llm_calls", "FROM stage_failures", "FROM verdicts"):
        ran = toolex("sql", query, "--format", "json", "--db", bench_db)
        tally.record(f"{judge}: toolex sql {query}", ran.outcome, leaked=bool(leaks(ran.out)))
    stored = cells(bench_db)
    assert "<key hidden>" in stored  # the echo was stored, redacted
    tally.record(f"{judge}: every cell", "correct result", leaked=bool(leaks(stored)))
    on_disk = files(tmp_path)
    tally.record(f"{judge}: every byte on disk", "correct result", leaked=bool(leaks(on_disk)))
    assert not leaks(stored) and not leaks(on_disk), (leaks(stored), leaks(on_disk))
    tally.check()


def test_no_dependency_turns_on_a_request_log(bench_db: str, tmp_path: Path) -> None:
    """The installed `toolex`, -q, a compat URL with a password: importing wordllama (the
    pre-screen) used to make the HTTP client log each request URL on stderr."""
    tally = Tally("secrets: echoed by the server")
    with _serve("answer text") as server:
        host = server.url.removeprefix("http://")
        spec = f"compat:http://{USER}:{PASSWORD}@{host}/v1#m"
        env = {**os.environ, "TOOLEX_COMPAT_API_KEY": COMPAT_KEY}
        done = subprocess.run(
            [str(Path(sys.executable).with_name("toolex")), "-q", "expand", "--benchmark",
             "plain", "--judge", spec, "--db", bench_db],
            capture_output=True, text=True, env=env, timeout=300,
        )  # fmt: skip
        assert server.count("chat") > 0
    tally.record(
        "-q expand with the pre-screen",
        "correct result" if done.returncode == 0 else "clean error",
        leaked=bool(leaks(done.stdout + done.stderr)),
    )
    assert done.returncode == 0, done.stderr
    assert "HTTP Request" not in done.stderr and "127.0.0.1" not in done.stderr, done.stderr
    assert not leaks(done.stdout + done.stderr)
    tally.check()
