"""toolex.store.commits: every commit of a write is counted, in the transaction that commits it
or right after a write made outside one; the count is recorded beside the store; a long count
folds into one row; a store holding fewer commits than recorded is refused on open (the damaged
logs themselves: tests/attacks/test_damaged_wal.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolex.errors import StoreError
from toolex.store import Store, commits


def test_each_commit_of_a_write_is_counted_and_recorded(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    with Store.open(db) as store:
        start = store.commit_count().commits
        with store.transaction():
            store.execute("store/50_count_commit.sql")  # a write inside a transaction
        assert store.commit_count().commits == start + 2  # its row and the commit's
        store.execute("store/50_count_commit.sql")  # outside: counted by a commit of its own
        assert store.commit_count().commits == start + 4
        store.rows("store/10_benchmarks.sql")  # a read commits nothing
        ledger = store.cursor()  # the ledger's second connection counts as well
        with ledger.transaction():
            pass
        assert store.commit_count().commits == start + 5
        record = json.loads(commits.record_path(str(db)).read_text())
        assert record == {"store_id": store.commit_count().store_id, "commits": start + 5}
        ledger.close()


def test_creating_temp_objects_counts_nothing(tmp_path: Path) -> None:
    """TEMP macros and tables live in the connection, never in the file or its log: nothing to
    lose, so nothing counted (each had cost a commit of the count's own)."""
    from toolex import metrics

    assert not commits.writes("metrics/010_metric_queries.sql")  # comments, then CREATE TEMP
    assert not commits.writes("stages/4_assemble/08_assembly_tables.sql")  # seven of them
    assert commits.writes("store/52_compact_commits.sql")  # TEMP, then the real table's writes
    assert commits.writes("store/50_count_commit.sql")
    with Store.open(tmp_path / "s.duckdb") as store:
        start = store.commit_count().commits
        metrics.ensure_macros(store)
        assert store.commit_count().commits == start
        store.execute("store/50_count_commit.sql")
        assert store.commit_count().commits == start + 2


def test_a_read_only_or_in_memory_store_counts_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    Store.open(db).close()
    before = commits.read_record(str(db))
    with Store.open(db, read_only=True) as store:
        assert not store.counting
    assert commits.read_record(str(db)) == before
    with Store.memory() as store:
        assert not store.counting


def test_a_long_count_folds_into_one_row_on_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commits, "COMPACT_ROWS", 5)
    db = tmp_path / "s.duckdb"
    with Store.open(db) as store:
        for _ in range(4):
            store.execute("store/50_count_commit.sql")
        total = store.commit_count()
    assert total.n_rows > 5
    with Store.open(db) as store:
        assert store.commit_count() == (total.store_id, total.commits, 1)


def test_a_store_behind_its_record_is_refused_and_a_deleted_record_accepts_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.duckdb"
    with Store.open(db) as store:
        count = store.commit_count()
    path = commits.record_path(str(db))
    path.write_text(json.dumps({"store_id": count.store_id, "commits": count.commits + 3}))
    for read_only in (True, False):
        with pytest.raises(StoreError, match=r"lost 3 committed write\(s\).*delete .*commits"):
            Store.open(db, read_only=read_only)
    path.write_text(json.dumps({"store_id": "another store", "commits": 999}))
    Store.open(db, read_only=True).close()  # another store's record: nothing to compare
    path.write_text("{not json")
    Store.open(db, read_only=True).close()  # unreadable: nothing to compare
    path.unlink()
    with Store.open(db) as store:  # accepted: counting restarts from what it holds
        assert commits.read_record(str(db)) == (count.store_id, store.commit_count().commits)


def test_which_shipped_files_write() -> None:
    assert commits.writes("store/50_count_commit.sql")
    assert commits.writes("store/52_compact_commits.sql")
    assert not commits.writes("store/51_commit_count.sql")
    assert not commits.writes("store/10_benchmarks.sql")


def test_a_commit_under_way_is_marked_in_the_record_until_it_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37.11: the record says a commit is under way from just before COMMIT until its
    count is recorded, so a writer stopped in between leaves the mark."""
    db = tmp_path / "s.duckdb"
    seen: list[commits.Record] = []
    with Store.open(db) as store:
        real = commits.begin

        def begin(path: str) -> None:
            real(path)
            state = commits.read_state(path)
            assert state is not None
            seen.append(state)

        monkeypatch.setattr(commits, "begin", begin)
        before = store.commit_count().commits
        with store.transaction():
            store.execute("store/50_count_commit.sql")
        store.execute("store/50_count_commit.sql")  # a write outside a transaction
    assert [(r.commits, r.writing) for r in seen] == [(before, 1), (before + 2, 1)]
    state = commits.read_state(str(db))
    assert state is not None and state.writing == 0  # recorded: the mark is gone
    assert "writing" not in json.loads(commits.record_path(str(db)).read_text())


def test_a_stopped_commit_refuses_the_store_only_when_its_log_is_gone(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    with Store.open(db) as store:
        count = store.commit_count()
    marked = {"store_id": count.store_id, "commits": count.commits, "writing": 1}
    commits.record_path(str(db)).write_text(json.dumps(marked))
    for read_only in (True, False):  # no log: nothing says whether the commit landed
        with pytest.raises(StoreError, match=r"may lack its last committed write.*\.wal\) is gone"):
            Store.open(db, read_only=read_only)
    commits.check(str(db), count, log=True)  # a log replayed: what it held is all there was
    ahead = commits.Count(count.store_id, count.commits + 1, 1)
    commits.check(str(db), ahead, log=False)  # the commit landed: the store is ahead
