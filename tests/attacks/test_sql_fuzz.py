"""Fuzzing `toolex sql`'s read-only path (toolex.sqlaccess.run_sql, what the command runs):
thousands of generated statements built from the probes with comment, Unicode, whitespace and
quoting tricks, unterminated strings, ``$$``, nested comments, deep parentheses and random
bytes. Every one ends in a ToolexError or a result; none raises anything else, reads a file,
leaks the environment or changes the store. TOOLEX_FUZZ_N scales the run: 1,500 by default
keeps CI in its time budget; a release runs 20,000
(`TOOLEX_FUZZ_N=20000 pytest tests/attacks/test_sql_fuzz.py`)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from attacks.conftest import digest
from attacks.tally import Tally
from toolex.errors import ToolexError
from toolex.sqlaccess import run_sql

SECRET = "sk-fuzz-91c3e5a7b0d2"
N = int(os.environ.get("TOOLEX_FUZZ_N", "1500"))

BASE = [
    "SELECT 1",
    "FROM items",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT count(*) FROM glob('/root/**')",
    "SELECT * FROM read_blob('/proc/self/environ')",
    "SELECT * FROM read_csv('http://127.0.0.1:9/x.csv')",
    "COPY items TO '{out}.csv'",
    "EXPORT DATABASE '{out}_export'",
    "ATTACH '{out}.duckdb' AS o",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "RESET enable_external_access",
    "PRAGMA threads=1",
    "DELETE FROM items",
    "WITH a AS (SELECT 1) SELECT * FROM a",
    "EXPLAIN ANALYZE SELECT 1",
    "DESCRIBE items",
    "SELECT 'a''b'",
    "SELECT $$x$$",
    "SELECT * FROM '{out}.csv'",
    "CREATE TABLE x AS SELECT 1",
    "SELECT * FROM duckdb_settings()",
    "SELECT content FROM read_text('/proc/self/environ')",
]
TRICKS = [
    "/*", "*/", "--", "/* /* nested */ */", "'", '"', "$$", "$a$", "E'\\'", "\u200b", "\u00a0",
    "\u202e", "\uff33\uff25\uff2c\uff25\uff23\uff34", "\t", "\r", "\n", "\x0b", "\x0c", "\x00",
    ";", ";;", "(", ")", "((((((((((", "`", "[", "]", "{", "}", "?", "$1", ":x", "@x", "\\",
    "\ud800", "ＣＯＰＹ", "e\u0301", "\ufeff", "%s", "{0}", "||", "::", "->", "->>", "**",
    "COLUMNS(*)", " SELECT ", " FROM ", " COPY ", " TO ", " ATTACH ", "read_text(", "/etc/passwd",
]  # fmt: skip


def mutate(rng: random.Random, sql: str) -> str:
    for _ in range(rng.randint(1, 4)):
        pos, k = rng.randint(0, len(sql)), rng.random()
        if k < 0.5:
            sql = sql[:pos] + rng.choice(TRICKS) + sql[pos:]
        elif k < 0.65 and sql:
            sql = sql[:pos] + sql[min(len(sql), pos + rng.randint(1, 5)) :]
        elif k < 0.8:
            noise = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
            sql = sql[:pos] + noise.decode("latin-1") + sql[pos:]
        elif k < 0.9:
            sql = sql + rng.choice([" ", ";", "\n", " UNION ALL "]) + rng.choice(BASE)
        else:
            sql = "(" * rng.randint(1, 3000) + sql
    return sql


def statements(n: int, out: Path, seed: int = 10) -> Iterator[str]:
    rng = random.Random(seed)
    for i in range(n):
        if i % 10 == 9:  # one in ten: random bytes, any code point
            yield "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randint(1, 60)))
        else:
            yield mutate(rng, rng.choice(BASE).format(out=out))


@pytest.mark.slow
def test_fuzzed_statements_end_in_a_message_or_a_harmless_result(
    bench_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLEX_FUZZ_SECRET", SECRET)
    out = tmp_path / "out"
    before = digest(bench_db)
    tally = Tally("sql fuzz (generated statements)")
    refused = ran = 0
    for sql in statements(N, out):
        try:
            rows = str(run_sql(bench_db, sql).to_pylist())
        except ToolexError as exc:
            refused += 1
            leaked = SECRET in str(exc) or "root:x:0:0" in str(exc)
            tally.record(repr(sql)[:80], "clean error", leaked=leaked)
            continue
        except BaseException as exc:  # noqa: BLE001 - the attack looks for exactly these
            tally.record(f"{sql!r:.80}: {type(exc).__name__}: {exc}"[:200], "traceback")
            continue
        ran += 1
        leaked = SECRET in rows or "root:x:0:0" in rows
        tally.record(repr(sql)[:80], "correct result", leaked=leaked)
    created = list(tmp_path.glob("out*"))
    if created:
        tally.failures.append(f"files created: {created}")
    assert refused + ran == N and refused > N // 2  # most mutants are refused
    assert digest(bench_db) == before
    tally.check()
