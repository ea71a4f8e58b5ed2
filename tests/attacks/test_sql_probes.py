"""Read-only `toolex sql` must not read the machine: every probe the issue lists (and their
cousins) is refused with a message, by the parser and, with the parser bypassed, by DuckDB
itself; no file appears, no URL is fetched, no secret is printed, the store is unchanged.
`--allow-files` opens file reading explicitly; `--write` lifts every guard."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from processes import DEADLINE_S

from attacks.conftest import Ran, digest
from attacks.tally import Tally
from toolex.store import Store

SECRET = "sk-attack-4f9e1c0b7d2a"


class _Counting(http.server.BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        type(self).hits += 1
        body = b"a,b\n1,2\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_HEAD = do_GET  # noqa: N815

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def web() -> Iterator[str]:
    """A loopback HTTP server counting the requests it gets."""
    _Counting.hits = 0
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


def probes(tmp: Path, url: str) -> list[str]:
    out = tmp / "out"
    return [
        "SELECT * FROM read_text('/etc/passwd')",
        "SELECT count(*) FROM glob('/root/**')",
        "SELECT count(*) FROM glob('/**')",
        "SELECT * FROM read_blob('/proc/self/environ')",
        "SELECT content FROM read_text('/proc/self/environ')",
        f"SELECT * FROM read_csv('{url}/x.csv')",
        f"SELECT * FROM read_csv_auto('{url}/x.csv')",
        f"SELECT * FROM '{url}/x.csv'",
        f"SELECT * FROM read_parquet('{url}/x.parquet')",
        f"SELECT * FROM read_json('{url}/x.json')",
        "SELECT * FROM '/etc/passwd'",
        "FROM read_csv('/etc/passwd', sep=':', header=false)",
        "WITH t AS (SELECT * FROM read_text('/etc/hostname')) SELECT * FROM t",
        "SELECT (SELECT content FROM read_text('/etc/hostname')) AS h",
        "SELECT * FROM items UNION ALL SELECT * FROM read_csv('/etc/passwd')",
        "SUMMARIZE SELECT * FROM read_text('/etc/passwd')",
        "DESCRIBE SELECT * FROM read_blob('/etc/passwd')",
        "EXPLAIN ANALYZE SELECT * FROM read_text('/etc/passwd')",
        f"COPY items TO '{out}.csv'",
        f"COPY (SELECT 1) TO '{out}.parquet' (FORMAT parquet)",
        f"EXPORT DATABASE '{out}_export'",
        f"ATTACH '{out}.duckdb' AS o",
        f"ATTACH '{out}.duckdb' AS o (READ_ONLY)",
        "INSTALL httpfs",
        "LOAD httpfs",
        "FORCE INSTALL httpfs",
        "SET enable_external_access = true",
        "SET GLOBAL enable_external_access = true",
        "RESET enable_external_access",
        "SET lock_configuration = false",
        "PRAGMA threads = 1",
        "PRAGMA enable_profiling",
        "SET temp_directory = '/tmp'",
        "CALL pragma_version()",
        "SELECT * FROM duckdb_extensions()",
        "CHECKPOINT",
        "DETACH s",
        "USE memory",
        "CREATE SECRET (TYPE s3, KEY_ID 'x', SECRET 'y')",
        f"SELECT * FROM read_text('{tmp}/../../../etc/passwd')",
        "SELECT * FROM read_text(['/etc/passwd', '/etc/hostname'])",
        "SELECT * FROM sniff_csv('/etc/passwd')",
        "SELECT * FROM parquet_metadata('/etc/passwd')",
        "SELECT * FROM read_ndjson_objects('/etc/passwd')",
    ]


def _created(tmp: Path) -> list[Path]:
    return [p for p in tmp.glob("out*")]


def test_every_probe_is_refused_with_a_message(
    bench_db: str,
    tmp_path: Path,
    web: str,
    toolex: Callable[..., Ran],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TOOLEX_ATTACK_SECRET", SECRET)
    before = digest(bench_db)
    tally = Tally("sql probes (toolex sql)")
    for sql in probes(tmp_path, web):
        ran = toolex("sql", sql, "--db", bench_db, "--format", "json")
        leaked = SECRET in ran.out + ran.err or "root:x:0:0" in ran.out + ran.err
        outcome = ran.outcome
        if outcome == "correct result":  # a probe must never succeed
            outcome = "traceback" if ran.exception else outcome
            tally.failures.append(f"{sql}: ran ({ran.out[:80]!r})")
        tally.record(sql, outcome, changed=bool(_created(tmp_path)), leaked=leaked)
        assert "error:" in ran.err or ran.code != 0
    assert _Counting.hits == 0
    assert digest(bench_db) == before
    tally.check()


def test_the_engine_refuses_them_without_the_parser(
    bench_db: str, tmp_path: Path, web: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard 2 alone: each probe sent straight to a read-only store (what a statement sqlglot
    misreads would reach) fails inside DuckDB."""
    monkeypatch.setenv("TOOLEX_ATTACK_SECRET", SECRET)
    tally = Tally("sql probes (DuckDB alone, parser bypassed)")
    harmless = {"CALL pragma_version()", "CHECKPOINT"}  # reads; touch nothing outside
    for sql in probes(tmp_path, web):
        with Store.open(bench_db, read_only=True) as store:
            try:
                rows = store.user_sql(sql).to_pylist()
            except Exception:  # noqa: BLE001 - any refusal by DuckDB will do
                tally.record(sql, "clean error", changed=bool(_created(tmp_path)))
                continue
        leaked = SECRET in str(rows) or "root:x:0:0" in str(rows)
        if sql not in harmless:
            tally.failures.append(f"{sql}: DuckDB ran it: {str(rows)[:80]}")
        tally.record(sql, "correct result", changed=bool(_created(tmp_path)), leaked=leaked)
    assert _Counting.hits == 0
    tally.check()


def test_allow_files_reads_files_and_still_refuses_writes(
    bench_db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    data = tmp_path / "in.csv"
    data.write_text("a,b\n1,2\n")
    ran = toolex("sql", f"SELECT * FROM read_csv('{data}')", "--db", bench_db, "--format", "json")
    assert ran.outcome == "clean error" and "--allow-files" in ran.err
    ran = toolex(
        "sql",
        f"SELECT * FROM read_csv('{data}')",
        "--db",
        bench_db,
        "--allow-files",
        "--format",
        "json",
    )
    assert ran.code == 0 and '"a": 1' in ran.out
    ran = toolex("sql", f"COPY items TO '{tmp_path}/out.csv'", "--db", bench_db, "--allow-files")
    assert ran.outcome == "clean error" and not _created(tmp_path)
    ran = toolex("sql", f"COPY items TO '{tmp_path}/out.csv'", "--db", bench_db, "--write")
    assert ran.code == 0 and (tmp_path / "out.csv").exists()


def test_read_only_store_still_reads_its_own_file_and_log(tmp_path: Path) -> None:
    """The lock-down is given at connect: the store file and an unreplayed write-ahead log
    are still read (here a writer killed before its checkpoint)."""
    path = tmp_path / "w.duckdb"
    code = (
        "import os; from toolex.store import Store\n"
        f"s = Store.open({str(path)!r})\n"
        "s.con.execute(\"SET checkpoint_threshold = '1TB'\")\n"
        "s.con.execute('CREATE TABLE t AS SELECT range AS a FROM range(1000)')\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=DEADLINE_S)
    assert Path(f"{path}.wal").exists()
    with Store.open(path, read_only=True) as store:
        assert store.user_sql("SELECT count(*) AS n FROM t").to_pylist() == [{"n": 1000}]
        assert store.benchmarks() == []


def test_a_real_shell_sees_a_message_not_a_traceback(bench_db: str) -> None:
    env = {**os.environ, "TOOLEX_ATTACK_SECRET": SECRET}
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from toolex.cli import main; main()",
            "sql",
            "SELECT * FROM read_blob('/proc/self/environ')",
            "--db",
            bench_db,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=DEADLINE_S,
    )
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("error: ") and "Traceback" not in out.stderr
    assert SECRET not in out.stdout + out.stderr


def test_the_store_s_own_file_is_not_read_as_bytes(
    bench_db: str, toolex: Callable[..., Ran]
) -> None:
    """Issue 27, point 12: DuckDB's lock-down lets a connection read its own database file and
    log, and free blocks there keep rows deleted or redacted since; the read-only check refuses
    every file read, the store's own included, so a query reaches the rows its tables show."""
    tally = Tally("sql probes (the store's own file)")
    wal = f"{bench_db}.wal"
    reads = [
        f"SELECT content FROM read_blob('{bench_db}')",
        f"SELECT size FROM read_blob('{wal}')",
        f"SELECT * FROM read_text('{bench_db}')",
        f"SELECT count(*) FROM glob('{bench_db}*')",
        f"SELECT * FROM '{bench_db}'",
        f"SELECT * FROM read_duckdb('{bench_db}', table_name='items')",
        f"DESCRIBE SELECT * FROM READ_BLOB('{bench_db}')",
    ]
    for sql in reads:
        ran = toolex("sql", sql, "--db", bench_db, "--format", "json")
        tally.record(sql, ran.outcome)
        assert ran.code == 2 and "reads a file" in ran.err and "--allow-files" in ran.err, sql
    ran = toolex("sql", reads[0].replace("content", "size"), "--db", bench_db, "--allow-files")
    assert ran.code == 0 and str(Path(bench_db).stat().st_size) in ran.out  # asked for: allowed
    tally.check()
