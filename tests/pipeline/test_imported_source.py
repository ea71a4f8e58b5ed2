"""Issue 35.17: with no embedding server, the Tour's candidate-import chain ended in something
else with exit 0: the import was refused (its file held 0 rows), and `expand --expansion
elsewhere` drew its own BM25 lists without a word. A run told to use imported lists
(`--retriever imported`) never draws others: a sub-query without one stops it before any stage,
naming what is missing and the import to run; any retriever is refused the same way over an
expansion that holds imported lists, rather than draw the missing ones beside them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pipeline.helpers import add_benchmark, add_item, add_query
from toolex.cli import cli
from toolex.errors import InputError
from toolex.expansions.candidates import import_candidates
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline.runner import RunReport, Settings, run_expansion
from toolex.store import Store

TOOLS = {
    "a::forecast": "Get the weather forecast for a city.",
    "b::weather": "Weather forecast of a city, by day.",
    "c::stock": "Get the stock price quote for a ticker.",
    "d::quote": "Stock quote and price of a company ticker.",
    "e::mail": "Send an email message to a recipient.",
}
Q2_LIST = ["q2 Q0 e::mail 1 0.95 gpu", "q2 Q0 a::forecast 2 0.5 gpu"]
Q1_LISTS = ["q1#0 Q0 b::weather 1 0.9 gpu", "q1#1 Q0 d::quote 1 0.7 gpu"]


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "s.duckdb")
    with Store.open(path) as store:
        add_benchmark(store)
        for item_id, description in TOOLS.items():
            add_item(store, item_id, {"name": item_id.split("::")[1], "description": description})
        add_query(store, "q1", "Weather forecast for Paris, then the stock price of ACME",
                  ["a::forecast", "c::stock"])  # fmt: skip
        add_query(store, "q2", "Email the forecast to Ann", ["e::mail"])
        run_expansion(store, "b", HeuristicJudge(store), expansion="x", stages=["decompose"])
    return path


def _import(db: str, tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "gpu.trec"
    path.write_text("".join(f"{line}\n" for line in lines))
    with Store.open(db) as store:
        import_candidates(store, path, benchmark="b", expansion="x")


def _run(db: str, retriever: str, **kw: Any) -> RunReport:
    with Store.open(db) as store:
        return run_expansion(store, "b", HeuristicJudge(store), expansion="x",
                             settings=Settings(retriever=retriever), **kw)  # fmt: skip


def _counts(db: str) -> tuple[int, int]:
    with Store.open(db, read_only=True) as store:
        return store.con.execute(
            "SELECT (SELECT count(*) FROM candidates), (SELECT count(*) FROM verdicts)"
        ).fetchall()[0]


def test_imported_with_nothing_imported_stops_before_any_stage_naming_the_import(db: str) -> None:
    res = CliRunner().invoke(cli, ["expand", "--db", db, "--benchmark", "b", "--expansion", "x",
                                   "--retriever", "imported"])  # fmt: skip
    assert isinstance(res.exception, InputError)
    said = str(res.exception)
    assert said == (
        "field '--retriever': --retriever imported uses only the lists `toolex load candidates` "
        "imported, and expansion 'x' of 'b' holds no imported lists: 3 sub-queries of 2 queries "
        "have no candidate list (e.g. q1#0): import them first (`toolex load candidates FILE "
        "--benchmark b --expansion x`), or select the queries that have lists (--queries)"
    )
    assert _counts(db) == (0, 0)  # no list drawn, nothing judged
    dry = CliRunner().invoke(cli, ["expand", "--db", db, "--benchmark", "b", "--expansion", "x",
                                   "--retriever", "imported", "--dry-run"])  # fmt: skip
    assert isinstance(dry.exception, InputError) and str(dry.exception) == said


def test_imported_uses_the_imported_lists_of_the_queries_that_have_them(
    db: str, tmp_path: Path
) -> None:
    _import(db, tmp_path, Q2_LIST)
    with pytest.raises(
        InputError,
        match=r"holds imported lists \(import:gpu\) for 1 sub-queries, "
        r"but 2 sub-queries of 1 queries have no candidate list \(e.g. q1#0\)",
    ):
        _run(db, "imported")  # fmt: skip
    report = _run(db, "imported", query_ids=["q2"])
    stages = {s.stage: s for s in report.stages}
    assert stages["candidates"].tasks == 0 and stages["verify"].tasks > 0


def test_another_retriever_never_draws_lists_beside_imported_ones(db: str, tmp_path: Path) -> None:
    _import(db, tmp_path, Q2_LIST)
    before = _counts(db)
    with pytest.raises(InputError) as err:
        _run(db, "bm25")
    assert str(err.value) == (
        "field '--retriever': expansion 'x' of 'b' holds candidate lists imported with `toolex "
        "load candidates` (import:gpu) for 1 sub-queries, and 2 sub-queries of 1 queries have "
        "no candidate list (e.g. q1#0): --retriever bm25 would draw those beside the imported "
        "ones. Import them too (`toolex load candidates FILE --benchmark b --expansion x`), "
        "select the queries that have lists (--queries), or retrieve in a new --expansion"
    )
    assert _counts(db) == before
    with Store.open(db) as store:  # every list imported: the default retriever has nothing to do
        path = tmp_path / "all.trec"
        path.write_text("".join(f"{line}\n" for line in Q1_LISTS))
        import_candidates(store, path, benchmark="b", expansion="x")
    assert {s.stage: s.tasks for s in _run(db, "bm25").stages}["candidates"] == 0


def test_queries_not_yet_decomposed_count_as_missing_and_replace_is_refused(
    db: str, tmp_path: Path
) -> None:
    with Store.open(db) as store:
        add_query(store, "q3", "Mail the stock price to Bob", ["e::mail"])
    _import(db, tmp_path, [*Q1_LISTS, *Q2_LIST])
    with pytest.raises(
        InputError,
        match=r"1 queries have no sub-queries yet \(e.g. q3\): import "
        r"them first \(.*, after `toolex expand --stage decompose`\)",
    ):
        _run(db, "imported")  # fmt: skip
    with pytest.raises(InputError, match="--replace drops the candidate lists"):
        _run(db, "imported", query_ids=["q1"], replace=True)
    assert _counts(db)[0] == 6  # the imported lists are still there (two references added)


def test_the_tour_chain_without_an_embedding_server_ends_in_an_error(
    db: str, tmp_path: Path
) -> None:
    """The Tour's chain when the `dense` expansion could not run: the lists written out are 0
    rows (said on stderr), their import is refused, and the expansion told to use imported
    lists stops instead of drawing BM25 lists."""
    out = tmp_path / "elsewhere.parquet"
    sql = CliRunner().invoke(cli, ["sql", "--db", db, "--format", "parquet", "--out", str(out),
                                   "SELECT query_id, slot, item_id, score FROM candidates WHERE "
                                   "expansion = 'dense' AND score IS NOT NULL"])  # fmt: skip
    assert sql.exit_code == 0 and f"wrote 0 rows to {out}" in sql.stderr
    load = CliRunner().invoke(cli, ["load", "candidates", str(out), "--db", db, "--benchmark",
                                    "b", "--expansion", "x"])  # fmt: skip
    assert isinstance(load.exception, InputError) and "holds no results" in str(load.exception)
    run = CliRunner().invoke(cli, ["expand", "--db", db, "--benchmark", "b", "--expansion", "x",
                                   "--retriever", "imported"])  # fmt: skip
    assert isinstance(run.exception, InputError)
    assert "holds no imported lists: 3 sub-queries" in str(run.exception)
    assert _counts(db) == (0, 0)
