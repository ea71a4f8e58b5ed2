"""Secrets: a password in a compat base URL is never stored (any cell of any table) nor printed
(--dry-run, summaries, errors, exports); a malformed API key is refused before any call with
a message that names the variable, not the key; a key in the wrong config field is not echoed;
compat servers share answers only when they serve one model name. Loopback servers only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from llm.llm_support import COMPAT_KEY, ScriptedServer

from attacks.conftest import Ran
from attacks.tally import Tally
from toolex.store import Store

PASSWORD = "hunter2-Pa55w0rd-7c1f"
KEY = "sk-proj-attackkey0123456789abcdef"


def _cells(db: str) -> str:
    """Every cell of every table of the store, as text."""
    with Store.open(db, read_only=True) as store:
        tables = [r["table_name"] for r in store.rows("store/41_tables.sql")]
        return "\n".join(str(store.user_sql(f'SELECT * FROM "{t}"').to_pylist()) for t in tables)


def _files(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


@pytest.fixture
def keys_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLEX_COMPAT_API_KEY", COMPAT_KEY)
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def test_a_password_in_a_compat_url_is_never_stored_nor_printed(
    bench_db: str, tmp_path: Path, keys_env: None, toolex: Callable[..., Ran]
) -> None:
    tally = Tally("secrets: password in a compat URL")
    out = tmp_path / "exports"
    out.mkdir()
    with ScriptedServer() as server:
        host = server.url.removeprefix("http://")
        spec = f"compat:http://alice:{PASSWORD}@{host}/v1#qwen2.5-7b"
        runs = {
            "expand --dry-run": ["expand", "--benchmark", "plain", "--judge", spec, "--dry-run"],
            "expand": ["expand", "--benchmark", "plain", "--judge", spec],
            "expand again (cached)": ["expand", "--benchmark", "plain", "--judge", spec],
            "expand --format json": [
                "expand", "--benchmark", "plain", "--judge", spec, "--format", "json"
            ],
            "a spec without #model": [
                "expand", "--benchmark", "plain", "--judge", spec.split("#")[0]
            ],
            "unknown provider": ["expand", "--benchmark", "plain", "--judge", f"x{spec}"],
            "stats": ["stats", "--benchmark", "plain"],
            "export qrels": ["export", "qrels", "--out", str(out / "q.parquet")],
            "export qrels --flat": ["export", "qrels", "--flat", "--out", str(out / "f.parquet")],
            "export toolret-jsonl": ["export", "toolret-jsonl", "--out", str(out / "t.jsonl")],
            "export trec-qrels": ["export", "trec-qrels", "--out", str(out / "q.trec")],
            "sql llm_calls": ["sql", "SELECT * FROM llm_calls", "--format", "json"],
        }  # fmt: skip
        for name, args in runs.items():
            ran = toolex(*args, "--db", bench_db)
            shown = ran.out + ran.err
            tally.record(name, ran.outcome, leaked=PASSWORD in shown or COMPAT_KEY in shown)
            if name.startswith("expand") and ran.code == 0:
                assert "***@" in shown or "cached" in name or "json" in name, shown[-300:]
        assert server.count("chat") > 0  # the run did call the server (with the password)
    cells = _cells(bench_db)
    assert "***@" in cells  # the judge is stored, redacted
    tally.record("every cell of every table", "correct result", leaked=PASSWORD in cells)
    tally.record("every exported file", "correct result", leaked=PASSWORD.encode() in _files(out))
    tally.check()


BAD_KEYS = {
    "trailing LF": KEY + "\n",
    "trailing CRLF": KEY + "\r\n",
    "leading space": " " + KEY,
    "typographic quote": KEY[:10] + "\u2019" + KEY[10:],
    "non-breaking space": KEY + "\u00a0",
    "inner space": KEY[:12] + " " + KEY[12:],
    "control character": KEY[:5] + "\x01" + KEY[5:],
    "non-ASCII letter": KEY[:8] + "\u00e9" + KEY[8:],
}


@pytest.mark.parametrize("provider", ["openai", "compat"])
def test_a_malformed_key_is_refused_up_front_and_never_shown(
    bench_db: str,
    keys_env: None,
    toolex: Callable[..., Ran],
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
) -> None:
    tally = Tally("secrets: malformed API keys")
    env = {"openai": "OPENAI_API_KEY", "compat": "TOOLEX_COMPAT_API_KEY"}[provider]
    with ScriptedServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")  # never the real API
        spec = "openai:gpt-4o-mini" if provider == "openai" else f"compat:{server.url}/v1#qwen"
        for name, key in BAD_KEYS.items():
            monkeypatch.setenv(env, key)
            ran = toolex("expand", "--benchmark", "plain", "--judge", spec, "--db", bench_db)
            shown = ran.out + ran.err
            leaked = key.strip() in shown or KEY[:16] in shown
            tally.record(f"{provider} {name}", ran.outcome, leaked=leaked)
            assert ran.outcome == "clean error" and env in ran.err, (name, ran.err)
        assert server.count("chat") == 0  # refused before any call
    tally.check()


def test_a_key_in_the_wrong_config_field_is_not_echoed(
    bench_db: str, tmp_path: Path, keys_env: None, toolex: Callable[..., Ran]
) -> None:
    tally = Tally("secrets: key in a config field")
    configs = {
        "llm.openai_base_url": f'[llm]\nopenai_base_url = "{KEY}"\n',
        "llm.anthropic_base_url": f'[llm]\nanthropic_base_url = "{KEY}"\n',
        "judges.verify": f'[judges]\nverify = "{KEY}"\n',
        "judges.audit (provider:key)": f'[judges]\naudit = "openai{KEY}:x"\n',
        "llm.api_key": f'[llm]\napi_key = "{KEY}"\n',
        "expand.retriever": f'[expand]\nretriever = "{KEY}"\n',
    }
    for name, text in configs.items():
        cfg = tmp_path / "toolex.toml"
        cfg.write_text(text)
        ran = toolex("expand", "--benchmark", "plain", "--config", str(cfg), "--db", bench_db)
        tally.record(name, ran.outcome, leaked=KEY in ran.out + ran.err)
        assert ran.outcome == "clean error", (name, ran.err)
    tally.check()


def test_compat_servers_share_answers_by_model_name_only(
    bench_db: str, keys_env: None, toolex: Callable[..., Ran]
) -> None:
    """The call cache is keyed on the model a compat server serves, not on where it runs (issue
    28.5 replaced issue 10's endpoint key, so a server restarted on another port resumes): a
    server serving another model name is asked everything again, one serving the same name on
    another port is served from the ledger, and each answer is recorded under the spec of the
    server that gave it."""
    tally = Tally("secrets: the model, not the endpoint, in the call cache key")
    with ScriptedServer() as first, ScriptedServer() as second, ScriptedServer() as moved:
        runs = (("first", first, "one-model"), ("second", second, "another-model"))
        for name, server, model in (*runs, ("moved", moved, "one-model")):
            spec = f"compat:{server.url}/v1#{model}"
            ran = toolex(
                "expand", "--benchmark", "plain", "--judge", spec, "--expansion", name,
                "--db", bench_db,
            )  # fmt: skip
            tally.record(f"expand on the {name} server", ran.outcome)
        assert first.count("chat") > 0 and second.count("chat") > 0
        assert moved.count("chat") == 0
    with Store.open(bench_db, read_only=True) as store:
        rows = store.user_sql(
            "SELECT judge, count(*) AS n FROM llm_calls WHERE stage = 'decompose' GROUP BY ALL"
        ).to_pylist()
    # the same decompositions asked of both models (their verdicts differ, and so what follows)
    asked = {r["judge"]: r["n"] for r in rows}
    assert sorted(asked) == sorted(f"compat:{s.url}/v1#{m}" for _, s, m in runs)
    assert len(set(asked.values())) == 1
    tally.check()
