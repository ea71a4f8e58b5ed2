"""Secrets, round two (issue 37, point 12): 15 of 82 probes leaked. Credentials in a
`compat-embed:` URL that the server echoed were stored and printed; an Anthropic answer echoing
the key landed in verdict reasons; `?code=`, `?credential=` and `?bearer=` values were not
secrets; a key echoed percent-encoded in lower case, or in hex, was not recognised.

Every probe class is here, each run through `toolex` against a loopback server that echoes the
secret it was sent, in every encoding of :func:`encodings` at once (as is, percent-encoded in
either case, byte by byte, hex in either case, ``\\x`` and JSON ``\\u00`` escapes, base64 plain
and URL-safe, Basic auth): no form is in anything printed, in any cell of any table or in any
byte of the store's files, and the echo was stored (redacted), so the test saw it go through."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from llm.scripted_http import ScriptedHandler

from attacks.bounded import Bounded, run_bounded
from attacks.hostile_server import ScriptedServer, is_decompose
from attacks.tally import Tally
from toolex.store import Store

PASSWORD = "hunter2-Pa55w0rd-round2"
USER = "alice"
OPENAI_KEY = "sk-proj-round2key0123456789abcdefXYZ"
ANTHROPIC_KEY = "sk-ant-round2-key-9f8e7d6c5b4a"
COMPAT_KEY = "compat-round2-key-1a2b3c4d"
QUERY = {  # ?name=value in a base URL, each a secret of its own
    "code": "oauth-code-5d6e7f8a9b",
    "credential": "cred-value-0f1e2d3c4b",
    "bearer": "bearer-value-6a7b8c9d0e",
    "api_key": "qk-round2-3f2e1d0c9b8a",
}


def encodings(secret: str) -> dict[str, str]:
    """The forms a server may echo ``secret`` in."""
    raw = secret.encode()
    b64 = base64.b64encode(raw).decode()
    return {
        "as is": secret,
        "percent-encoded": quote(secret, safe=""),
        "percent-encoded, lower case": quote(secret, safe="").lower(),
        "every byte percent-encoded": "".join(f"%{b:02X}" for b in raw),
        "every byte percent-encoded, lower case": "".join(f"%{b:02x}" for b in raw),
        "hex": raw.hex(),
        "hex, upper case": raw.hex().upper(),
        "\\x escapes": "".join(f"\\x{b:02x}" for b in raw),
        "JSON \\u00 escapes": "".join(f"\\u{b:04x}" for b in raw),
        "base64": b64,
        "base64, unpadded": b64.rstrip("="),
        "base64, URL-safe": base64.urlsafe_b64encode(raw).decode().rstrip("="),
    }


def every_form(secrets: list[str]) -> str:
    """One text holding every secret in every encoding, as an echo would."""
    return " | ".join(f for s in secrets for f in encodings(s).values())


def leaks(text: str | bytes, secrets: list[str]) -> list[str]:
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    return [
        f"{s[:6]}... {name}" for s in secrets for name, form in encodings(s).items() if form in text
    ]


def cells(db: str) -> str:
    """Every cell of every table as its own text (not a repr, which would double the
    backslashes of an escaped form)."""
    with Store.open(db, read_only=True) as store:
        tables = [r["table_name"] for r in store.rows("store/41_tables.sql")]
        rows = [row for t in tables for row in store.user_sql(f'SELECT * FROM "{t}"').to_pylist()]
    return "\n".join(str(value) for row in rows for value in row.values())


def files(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


# A request's path, headers and body -> (status, JSON body) to send, or None: answer as usual.
Reply = Callable[[str, dict[str, str], dict[str, Any]], tuple[int, dict[str, Any]] | None]


def echoing(reply: Reply) -> ScriptedServer:
    """The scripted server, answering what ``reply`` picks with what it gives."""
    server = ScriptedServer()

    class Echoing(ScriptedHandler):
        def do_POST(self) -> None:
            body = json.loads(self._body() or b"{}")
            headers = {k.lower(): v for k, v in self.headers.items()}
            self._record("embeddings" if "embeddings" in self.path else "chat", body)
            sent = reply(self.path, headers, body)
            if sent is not None:
                return self._send(*sent)
            if "embeddings" in self.path:
                return self._send(*self.script.embeddings.answer(body, None))
            self._chat("anthropic" if "/messages" in self.path else "openai", body)

    server.httpd.RequestHandlerClass = Echoing
    return server


def _run(args: list[str], env: dict[str, str]) -> Bounded:
    """``toolex ARGS`` in a forked child (its store closed when it ends), with only ``env``'s
    keys and base URLs set."""
    unset: dict[str, str | None] = dict.fromkeys(
        ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TOOLEX_COMPAT_API_KEY", "OPENAI_BASE_URL",
         "ANTHROPIC_BASE_URL")
    )  # fmt: skip
    return run_bounded(*args, env={**unset, **env})


def _check(
    tally: Tally, case: str, ran: Bounded, db: str, folder: Path, secrets: list[str]
) -> None:
    shown = ran.out + ran.err
    tally.record(f"{case}: printed", ran.outcome, leaked=bool(leaks(shown, secrets)))
    stored = cells(db)
    tally.record(f"{case}: every cell", "correct result", leaked=bool(leaks(stored, secrets)))
    on_disk = files(folder)
    tally.record(f"{case}: every byte", "correct result", leaked=bool(leaks(on_disk, secrets)))
    assert "<key hidden>" in stored, case  # the echo was stored, redacted
    assert not leaks(shown, secrets), leaks(shown, secrets)
    assert not leaks(stored, secrets), leaks(stored, secrets)


def test_a_compat_embed_urls_credentials_echoed_back(bench_db: str, tmp_path: Path) -> None:
    """user:password and four secret query values in a `compat-embed:` URL; the server echoes
    them (and the Authorization header) in every encoding, in an error body."""
    tally = Tally("secrets, round two")
    secrets = [PASSWORD, f"{USER}:{PASSWORD}", COMPAT_KEY, *QUERY.values()]

    def reply(
        path: str, headers: dict[str, str], body: dict[str, Any]
    ) -> tuple[int, dict[str, Any]] | None:
        said = f"{headers.get('authorization')} at {path}: {every_form(secrets)}"
        return 400, {"error": {"message": f"bad input from {said}", "code": 400}}

    with echoing(reply) as server:
        host = server.url.removeprefix("http://")
        query = "&".join(f"{k}={v}" for k, v in QUERY.items())
        spec = f"compat-embed:http://{USER}:{PASSWORD}@{host}/v1?{query}#m"
        ran = _run(
            ["retrieve", "--benchmark", "plain", "--retriever", spec, "--run", "r", "--db",
             bench_db], {"TOOLEX_COMPAT_API_KEY": COMPAT_KEY},
        )  # fmt: skip
        assert server.count("embeddings") > 0
    assert ran.outcome == "clean error", ran.err[-500:]
    _check(tally, "compat-embed URL", ran, bench_db, tmp_path, secrets)
    tally.check()


def _verdict_echo(secrets: list[str], provider: str) -> Reply:
    """Answer decompositions as usual, and each verdict with a reason echoing the request's key
    header in every encoding (OpenAI: the answer text; Anthropic: the forced tool's input)."""

    def reply(
        path: str, headers: dict[str, str], body: dict[str, Any]
    ) -> tuple[int, dict[str, Any]] | None:
        if is_decompose(body):
            return None
        sent = headers.get("x-api-key") or headers.get("authorization") or ""
        verdict = {"verdict": "yes", "reason": f"{sent} / {path} / {every_form(secrets)}"}
        if provider == "anthropic":
            return 200, {
                "id": "msg_echo", "type": "message", "role": "assistant", "model": body["model"],
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "verdict",
                             "input": verdict}],
                "stop_reason": "tool_use", "usage": {"input_tokens": 9, "output_tokens": 9},
            }  # fmt: skip
        return 200, {
            "id": "c", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": json.dumps(verdict)}}],
            "usage": {"prompt_tokens": 9, "completion_tokens": 9, "total_tokens": 18},
        }  # fmt: skip

    return reply


JUDGES = {
    "anthropic key in verdict reasons": ("anthropic", [ANTHROPIC_KEY]),
    "openai key, every encoding": ("openai", [OPENAI_KEY]),
    "compat URL ?code= ?credential= ?bearer=": ("compat", list(QUERY.values())),
}


@pytest.mark.parametrize("case", list(JUDGES))
def test_a_key_echoed_in_an_answer_never_reaches_a_table(
    bench_db: str, tmp_path: Path, case: str
) -> None:
    tally = Tally("secrets, round two")
    provider, secrets = JUDGES[case]
    config = tmp_path / "fast.toml"
    with echoing(_verdict_echo(secrets, provider)) as server:
        lines = "[llm]\nmax_attempts = 2\nbackoff_base_s = 0.01\n"
        env = {"OPENAI_API_KEY": OPENAI_KEY, "ANTHROPIC_API_KEY": ANTHROPIC_KEY}
        if provider == "anthropic":
            spec = "anthropic:claude-3-5-haiku-20241022"
            lines += f'anthropic_base_url = "{server.url}"\n'
        elif provider == "openai":
            spec = "openai:gpt-4o-mini"
            lines += f'openai_base_url = "{server.url}/v1"\n'
        else:
            query = "&".join(f"{k}={v}" for k, v in QUERY.items())
            spec = f"compat:{server.url}/v1?{query}#m"
        config.write_text(lines)
        ran = _run(
            ["expand", "--benchmark", "plain", "--judge", spec, "--prescreen", "off",
             "--config", str(config), "--db", bench_db], env,
        )  # fmt: skip
        assert server.count("chat") > 0
    assert ran.outcome == "correct result", ran.err[-800:]
    with Store.open(bench_db, read_only=True) as store:  # the judge's verdicts, not the slots'
        reasons = store.user_sql("SELECT reason FROM verdicts WHERE call_id IS NOT NULL")
    reasons = [r["reason"] for r in reasons.to_pylist()]
    assert reasons and all("<key hidden>" in r for r in reasons), reasons[:2]
    _check(tally, case, ran, bench_db, tmp_path, secrets)
    tally.check()
