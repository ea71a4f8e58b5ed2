"""``Store.typed``: a shipped query's rows as typed records, its columns checked against the
record's fields once per call, so a renamed column fails beside the SQL that changed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from toolex.resources import sql_text
from toolex.store import Store
from toolex.store.typed_rows import RowShapeError, record_fields, row_builder

QUERY = "store/21_info_benchmarks.sql"


class Info(NamedTuple):
    benchmark: str
    format: str
    items: int
    queries: int
    labels: int
    source: str


@dataclasses.dataclass(frozen=True)
class InfoRecord:
    # the query's columns in another order: the rows are reordered to the fields
    source: str
    benchmark: str
    labels: int
    items: int
    queries: int
    format: str


class Renamed(NamedTuple):
    benchmark: str
    format: str
    items: int
    queries: int
    qrels: int  # the query names it "labels"
    source: str


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(tmp_path / "t.duckdb")
    for name, source in (("toolret", "hf"), ("beir", "local")):
        s.con.execute(
            "INSERT INTO benchmarks (benchmark, format, source) VALUES (?, 'plain', ?)",
            [name, source],
        )
    s.con.execute("INSERT INTO queries (benchmark, query_id, text) VALUES ('beir', 'q1', 'x')")
    yield s
    s.close()


def test_rows_come_back_as_the_named_tuple_with_the_dicts_values(store: Store) -> None:
    got = store.typed(QUERY, Info)
    assert got == [
        Info("beir", "plain", 0, 1, 0, "local"),
        Info("toolret", "plain", 0, 0, 0, "hf"),
    ]
    assert [r._asdict() for r in got] == store.rows(QUERY)
    assert type(got[0]) is Info


def test_a_dataclass_takes_the_columns_by_name_in_its_own_order(store: Store) -> None:
    assert store.typed(QUERY, InfoRecord) == [
        InfoRecord("local", "beir", 0, 0, 1, "plain"),
        InfoRecord("hf", "toolret", 0, 0, 0, "plain"),
    ]


def test_a_field_renamed_in_python_fails_naming_the_file_and_the_columns(store: Store) -> None:
    with pytest.raises(RowShapeError) as caught:
        store.typed(QUERY, Renamed)
    message = str(caught.value)
    assert message.startswith(
        "sql/store/21_info_benchmarks.sql does not return the fields of "
        "test_store_typed.Renamed: no column for field(s) 'qrels'; "
        "column(s) 'labels' not among its fields"
    )


def test_a_column_renamed_in_the_sql_fails_beside_the_sql(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped file changes (``AS labels`` becomes ``AS judgements``): the read of it fails
    on its first call, even on a store with no row, before any code reads the field."""
    renamed = sql_text(QUERY).replace("AS labels", "AS judgements")

    def text(name: str) -> str:
        return renamed if name == QUERY else sql_text(name)

    monkeypatch.setattr("toolex.store.connection.sql_text", text)
    empty = Store.memory()
    try:
        with pytest.raises(RowShapeError, match=r"sql/store/21_info_benchmarks\.sql") as caught:
            empty.typed(QUERY, Info)
    finally:
        empty.close()
    assert "no column for field(s) 'labels'" in str(caught.value)
    assert "column(s) 'judgements' not among its fields" in str(caught.value)


def test_a_column_named_twice_is_refused(store: Store) -> None:
    class Table(NamedTuple):
        table: str
        rows: int

    assert store.typed("store/20_table_counts.sql", Table)[0]._fields == ("table", "rows")
    with pytest.raises(RowShapeError, match="'rows' named twice"):
        row_builder("x.sql", Table, ["table", "rows", "rows"])


def test_only_records_with_positional_fields_are_rows() -> None:
    @dataclasses.dataclass
    class Keyword:
        a: int
        b: int = dataclasses.field(kw_only=True)

    @dataclasses.dataclass
    class Derived:
        a: int
        b: int = dataclasses.field(init=False, default=0)

    assert record_fields(Info) == Info._fields
    assert record_fields(Derived) == ("a",)
    with pytest.raises(RowShapeError, match=r"keyword-only fields \(b\)"):
        record_fields(Keyword)
    with pytest.raises(RowShapeError, match="not a NamedTuple or a dataclass"):
        record_fields(dict)
    with pytest.raises(RowShapeError, match="not a NamedTuple or a dataclass"):
        record_fields(tuple)
