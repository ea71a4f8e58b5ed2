"""The store: what it opens with (no progress bar, a memory limit), transactions, the doors for
reading (rows, Arrow, scalars, registered inputs), one family of existence errors, and no way into
DuckDB but through it. Schema versions and migrations: test_store_migrations.py."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from toolex.errors import InputError, NotFoundError, StoreError
from toolex.sqlrunner import SqlValue
from toolex.store import Store, schema_migrations

PROGRESS_BAR = """
import sys
from toolex.store import Store
how, path = sys.argv[1:]
store = Store.memory() if how == "memory" else Store.open(path, read_only=how == "read-only")
setting = "SELECT current_setting('enable_progress_bar')"
print(store.con.execute(setting).fetchone()[0], store.con.cursor().execute(setting).fetchone()[0])
if how == "read-only":  # and the lock-down still holds
    try:
        store.con.execute("SET enable_progress_bar = true")
    except Exception as exc:
        print(type(exc).__name__, "locked" if "configuration has been locked" in str(exc) else exc)
"""


@pytest.mark.parametrize("how", ["file", "read-only", "memory"])
def test_a_store_never_draws_duckdbs_progress_bar(tmp_path: Path, how: str) -> None:
    """DuckDB prints its progress bar to stdout, even into a pipe, for a statement running
    past 2 s: under load it cut into a command's data (issue 25). Checked in a process whose
    stdout is a pipe, as a command's is (pytest's capture turns the bar off by itself)."""
    import subprocess
    import sys

    path = tmp_path / "p.duckdb"
    Store.open(path).close()
    done = subprocess.run([sys.executable, "-c", PROGRESS_BAR, how, str(path)],
                          capture_output=True, text=True, check=True, timeout=300)  # fmt: skip
    lines = done.stdout.splitlines()
    assert lines[0] == "False False"  # the store's connection and its cursors
    if how == "read-only":
        assert lines[1] == "InvalidInputException locked"


def test_transaction_rolls_back(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction() as tx:
        assert tx is store  # the block gets the store, never the raw connection
        _benchmark(store, "b")
        raise RuntimeError("boom")
    assert store.benchmarks() == []


def test_read_only_missing_store_is_clear(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no store at"):
        Store.open(tmp_path / "missing.duckdb", read_only=True)


def test_fresh_store_accepts_relational_queries(tmp_path: Path) -> None:
    # Regression: reading the schema version must not leave a pending result behind.
    with Store.open(tmp_path / "a.duckdb") as s:
        assert s.con.sql("SELECT 42").fetchall() == [(42,)]


def test_store_sql_lives_in_files(tmp_path: Path) -> None:
    # The schema bookkeeping runs shipped files too (sql/store/0N_*.sql), not inline strings.
    with Store.open(tmp_path / "a.duckdb") as s:
        assert s.scalar("store/01_schema_version.sql") == schema_migrations()[-1][0]


# -- reading: rows, Arrow, scalars, registered inputs, the two documented doors ----------------


def _benchmark(store: Store, name: str) -> None:
    store.con.execute(
        "INSERT INTO benchmarks (benchmark, format, source) VALUES (?, 'plain', 'x')", [name]
    )


def _run(store: Store, run_id: str, benchmark: str) -> None:
    store.con.execute(
        "INSERT INTO runs (run_id, benchmark, level) VALUES (?, ?, 'query')", [run_id, benchmark]
    )


def test_arrow_scalar_and_query_agree(store: Store) -> None:
    for name in ("toolret", "beir"):
        _benchmark(store, name)
    assert store.arrow("store/10_benchmarks.sql").column(0).to_pylist() == ["beir", "toolret"]
    assert store.scalar("store/10_benchmarks.sql") == "beir"
    assert store.rows("store/10_benchmarks.sql") == [
        {"benchmark": "beir"},
        {"benchmark": "toolret"},
    ]


def test_registered_tables_are_gone_after_the_block_even_on_error(store: Store) -> None:
    rows = pa.table({"benchmark": ["x"], "format": ["plain"], "source": ["s"]})
    with store.registered("new_rows", rows):
        assert store.user_sql("SELECT count(*) AS n FROM new_rows").to_pylist() == [{"n": 1}]
    with pytest.raises(RuntimeError), store.registered_tables({"a": rows, "b": rows}):
        raise RuntimeError("boom")
    for name in ("new_rows", "a", "b"):
        with pytest.raises(duckdb.CatalogException):
            store.user_sql(f"SELECT * FROM {name}")


def test_a_registered_query_reads_on_a_read_only_store_and_is_gone_after(tmp_path: Path) -> None:
    """The rows of a shipped query under a name for the block (a TEMP table, which a read-only,
    locked-down store takes: `toolex eval` registers its summary so), gone after it, even when
    the block fails; the same name again replaces it."""
    path = tmp_path / "r.duckdb"
    Store.open(path).close()
    row: dict[str, SqlValue] = {"run_id": "r", "category": "c", "metric": "ndcg", "k": 10,
                                "old": 0.25, "new": 0.5, "gain": 0.25, "n_queries": 3,
                                "n_no_results": 1}  # fmt: skip
    read = "SELECT run_id, category, old, n_queries FROM report_summary"
    with Store.open(path, read_only=True) as store:
        second: dict[str, SqlValue] = {**row, "category": "d", "old": None}
        for rows in ([row], [row, second]):
            with store.registered_query(
                "report_summary", "reports/19_summary_rows.sql", {"rows": rows}
            ):
                got = store.con.execute(read).fetchall()
            assert got == [(r["run_id"], r["category"], r["old"], r["n_queries"]) for r in rows]
        with (
            pytest.raises(RuntimeError),
            store.registered_query(
                "report_summary", "reports/19_summary_rows.sql", {"rows": [row]}
            ),
        ):
            raise RuntimeError("boom")
        with pytest.raises(duckdb.CatalogException):
            store.con.execute(read)


def test_a_failure_inside_a_registered_block_is_the_error_reported(store: Store) -> None:
    """A statement that fails aborts the transaction; leaving the registered block must raise
    that failure, not DuckDB's refusal to unregister in an aborted transaction."""
    rows = pa.table({"n": [1, 2]})
    with (
        pytest.raises(duckdb.ConversionException),
        store.transaction(),
        store.registered("stage_rows", rows),
    ):
        store.user_sql("SELECT CAST('not a number' AS INTEGER) FROM stage_rows")
    assert store.user_sql("SELECT 42 AS n").to_pylist() == [{"n": 42}]  # usable afterwards


def test_cursor_commits_outside_the_open_transaction(store: Store) -> None:
    side = store.cursor()
    with pytest.raises(RuntimeError), store.transaction():
        _benchmark(store, "rolled-back")
        _benchmark(side, "kept")  # a second store over the same database: its own transaction
        raise RuntimeError("boom")
    assert store.benchmarks() == ["kept"]
    side.close()
    assert store.benchmarks() == ["kept"]  # closing the cursor leaves the store open


def test_user_sql_returns_rows_or_an_empty_table(store: Store) -> None:
    assert store.user_sql("SELECT ? AS a", [7]).to_pylist() == [{"a": 7}]
    _benchmark(store, "b")
    assert store.user_sql("DELETE FROM benchmarks").to_pylist() == [{"Count": 1}]  # DuckDB's
    assert store.benchmarks() == []


# -- existence: one family of errors, one wording -----------------------------------------------


@pytest.fixture
def named(store: Store) -> Store:
    """Two benchmarks; toolret has an expansion 'paper' (expansions row), 'flat' (imported
    combinations only) and 'subq' (imported sub-queries only); runs bm25 (toolret), e5 (beir)."""
    for name in ("toolret", "beir"):
        _benchmark(store, name)
    store.con.execute(
        "INSERT INTO expansions (benchmark, expansion, config) VALUES ('toolret', 'paper', '{}')"
    )
    store.con.execute(
        "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, status) "
        "VALUES ('toolret', 'flat', 'q1', 1, 'valid')"
    )
    store.con.execute(
        "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference, judge) "
        "VALUES ('toolret', 'subq', 'q1', 0, 't', 'i', 'import')"
    )
    _run(store, "bm25", "toolret")
    _run(store, "e5", "beir")
    return store


def test_listings(named: Store) -> None:
    assert named.benchmarks() == ["beir", "toolret"]
    assert named.expansions("toolret") == ["flat", "paper", "subq"]
    assert named.expansions("beir") == []
    assert named.expansions() == ["flat", "paper", "subq"]
    assert named.runs() == ["bm25", "e5"]
    assert named.runs("beir") == ["e5"]


def test_require_benchmark(named: Store) -> None:
    assert named.require_benchmark("beir") == "beir"
    with pytest.raises(NotFoundError) as err:
        named.require_benchmark("toolrett")
    assert str(err.value) == "no benchmark named 'toolrett' in the store; did you mean 'toolret'?"
    assert (err.value.kind, err.value.name, err.value.known) == (
        "benchmark",
        "toolrett",
        ["beir", "toolret"],
    )
    with pytest.raises(
        NotFoundError, match="benchmarks: beir, toolret; load it with `toolex load`"
    ):
        named.require_benchmark("zzz")  # nothing close: every name and how to make one
    with pytest.raises(NotFoundError, match="several; name one with --benchmark"):
        named.require_benchmark(None)


def test_require_benchmark_none_means_the_only_one(store: Store) -> None:
    with pytest.raises(NotFoundError, match="the store holds no benchmark; load one"):
        store.require_benchmark(None)
    _benchmark(store, "solo")
    assert store.require_benchmark(None) == "solo"


def test_require_expansion(named: Store) -> None:
    for name in ("paper", "flat", "subq", "default"):
        assert named.require_expansion("toolret", name) == name
    assert named.require_expansion("beir", "default") == "default"  # always: the original
    assert named.require_expansion(None, "paper") == "paper"  # of any benchmark
    with pytest.raises(
        NotFoundError, match="no expansion named 'papr' in the store; did you mean 'paper'"
    ):
        named.require_expansion("toolret", "papr")
    with pytest.raises(NotFoundError, match="did you mean 'default'"):
        named.require_expansion("beir", "defualt")  # 'default' is offered though none is stored
    with pytest.raises(NotFoundError, match="no expansion named 'paper'.*--benchmark beir"):
        named.require_expansion("beir", "paper")  # toolret's, not beir's


def test_require_runs(named: Store) -> None:
    assert named.require_runs(["e5", "bm25"]) == ["e5", "bm25"]
    with pytest.raises(
        NotFoundError, match="no run named 'bm52' in the store; did you mean 'bm25'"
    ):
        named.require_runs(["e5", "bm52"])
    with pytest.raises(NotFoundError, match="no run named 'e5'"):
        named.require_runs(["e5"], benchmark="toolret")
    assert named.require_runs([]) == []


# -- the store is the only way into DuckDB ------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
_RAW = re.compile(r"\.con\b|\bduckdb\.connect\(|\.cursor\(\)\.")


def test_no_module_outside_the_store_reaches_its_connection() -> None:
    """Rows, Arrow tables, registered inputs, transactions: all through ``Store`` methods. A
    ``store.con`` elsewhere is a second way into DuckDB, and the next one copies it."""
    offenders = []
    for path in sorted([*(ROOT / "toolex").rglob("*.py"), *(ROOT / "tui").rglob("*.py")]):
        if path.parent == ROOT / "toolex" / "store":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if _RAW.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "use a Store method instead:\n" + "\n".join(offenders)


def test_a_file_store_opens_with_the_memory_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def limit(path: Path) -> str:
        with Store.open(path) as s:
            limit: str = s.user_sql("SELECT current_setting('memory_limit') AS m").to_pylist()[0][
                "m"
            ]
            return limit

    monkeypatch.delenv("TOOLEX_MEMORY_LIMIT", raising=False)
    assert limit(tmp_path / "a.duckdb") == "1.8 GiB"  # MEMORY_LIMIT, 2GB (DuckDB prints GiB)
    monkeypatch.setenv("TOOLEX_MEMORY_LIMIT", "1GiB")
    assert limit(tmp_path / "a.duckdb") == "1.0 GiB"
    for bad in ("lots", "12", "-1GB", "4 GB; SET threads=1"):
        monkeypatch.setenv("TOOLEX_MEMORY_LIMIT", bad)
        with pytest.raises(InputError, match="TOOLEX_MEMORY_LIMIT"):
            Store.open(tmp_path / "new.duckdb")
    assert not (tmp_path / "new.duckdb").exists()  # refused before a file was made


def _threads(store: Store) -> tuple[int, int]:
    setting = "SELECT current_setting('threads') AS t, current_setting('async_threads') AS a"
    row = store.user_sql(setting).to_pylist()[0]
    return int(row["t"]), int(row["a"])


@pytest.mark.skipif(int(duckdb.__version__.split(".")[0]) < 2, reason="no I/O pool before 2.0")
def test_a_small_read_only_store_and_a_scratch_one_start_no_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `toolex eval` opens (a small store file read-only and locked down, a scratch store
    for TREC files) runs on the calling thread: DuckDB's worker and its eight I/O threads were
    started and joined for nothing (toolex.store.config.SMALL_STORE_BYTES). A store opened to
    write, or one past the size, keeps every core."""
    import toolex.store.config as config

    path = tmp_path / "s.duckdb"
    Store.open(path).close()
    with duckdb.connect() as plain:  # DuckDB's own count of the cores it may use
        cores = plain.execute("SELECT current_setting('threads')").fetchall()[0][0]
    tasks = Path("/proc/self/task")
    before = len(list(tasks.iterdir())) if tasks.is_dir() else 0
    with Store.open(path, read_only=True) as small, Store.scratch() as scratch:
        assert _threads(small) == _threads(scratch) == (1, 0)
        if tasks.is_dir():
            assert len(list(tasks.iterdir())) == before  # no thread started
    with Store.open(path) as written:
        assert _threads(written)[0] == cores
    with Store.open(path, read_only=True, allow_files=True) as open_to_files:
        assert _threads(open_to_files)[0] == cores
    monkeypatch.setattr(config, "SMALL_STORE_BYTES", 0)
    with Store.open(path, read_only=True) as large:
        assert _threads(large) == (cores, 0)


def test_an_out_of_memory_says_how_to_allow_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolex.store import store_error

    monkeypatch.setenv("TOOLEX_MEMORY_LIMIT", "8MB")
    with (
        Store.open(tmp_path / "a.duckdb") as s,
        pytest.raises(duckdb.OutOfMemoryException) as caught,
    ):
        s.con.execute("SELECT list(i::VARCHAR || repeat('x', 50)) FROM range(3000000) t(i)")
    message = str(store_error(caught.value, str(tmp_path / "a.duckdb")))
    assert "ran out of memory" in message and "rolled back" in message
    assert "TOOLEX_MEMORY_LIMIT (now 8MB)" in message and "TOOLEX_MEMORY_LIMIT=8GB" in message


def test_store_has_every_method_of_the_protocol_the_layers_below_it_use() -> None:
    """toolex.metrics (beside the store) is typed against SqlRunner, not Store: each of its
    methods must be Store's, with the same parameters, or mypy checks a store that is not there."""
    import inspect

    from toolex.sqlrunner import SqlRunner

    methods = [n for n, v in vars(SqlRunner).items() if inspect.isfunction(v) and n[0] != "_"]
    assert sorted(methods) == ["arrow", "copy_parquet", "execute_script", "require_runs", "rows"]
    for name in methods:
        wanted = inspect.signature(getattr(SqlRunner, name)).parameters
        given = inspect.signature(getattr(Store, name)).parameters
        assert list(given) == list(wanted), name
        assert [p.default for p in given.values()] == [p.default for p in wanted.values()], name
