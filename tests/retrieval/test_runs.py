"""Runs end to end on fixture rows: query level, sub-query level (RRF in SQL), params, CLI."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from click.testing import CliRunner

from toolex.errors import InputError
from toolex.retrieval.runs import retrieve_run
from toolex.store import Store
from toolex.tooldoc.render import RENDER_VERSION


def _results(store: Store, run_id: str) -> list[tuple[Any, ...]]:
    return store.con.execute(
        "SELECT query_id, item_id, score, rank FROM run_results WHERE run_id = ? "
        "ORDER BY query_id, rank",
        [run_id],
    ).fetchall()


def _params(store: Store, run_id: str) -> dict[str, Any]:
    params: dict[str, Any] = json.loads(
        store.con.execute("SELECT params FROM runs WHERE run_id = ?", [run_id]).fetchall()[0][0]
    )
    return params


@pytest.mark.parametrize("spec", ["bm25", "wordllama", "hybrid:bm25+wordllama"])
def test_query_level_run(lib_store: Store, spec: str) -> None:
    summary = retrieve_run(lib_store, "b", spec, "r", depth=2, scope="task")
    assert (summary.queries, summary.results) == (3, 5)  # qc's task has one tool
    rows = _results(lib_store, "r")
    assert [r[1] for r in rows if r[0] == "qa"][0] == "w1"
    assert [r[1] for r in rows if r[0] == "qc"] == ["c3"]
    p = _params(lib_store, "r")
    assert p["retriever"] == spec and p["depth"] == 2 and p["scope"] == "task"
    assert p["render_version"] == RENDER_VERSION and p["rendering"] == "default"
    assert p["benchmark"]["revision"] == "r1" and p["instruction"] is False
    assert p["versions"]["duckdb"] and p["versions"]["bm25s"]
    run = lib_store.con.execute("SELECT level, retriever FROM runs WHERE run_id = 'r'").fetchall()[
        0
    ]
    assert run == ("query", spec)


def test_instruction_is_recorded_and_used(lib_store: Store) -> None:
    retrieve_run(lib_store, "b", "bm25", "inst", depth=3, instruction=True)
    p = _params(lib_store, "inst")
    assert p["instruction"] is True and p["instruction_format"] == "{instruction} {query}"


def test_subquery_level_fuses_lists_with_rrf(lib_store: Store) -> None:
    lib_store.con.execute(
        "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference) VALUES "
        "('b', 'default', 'qb', 0, 'translate text', 'c2'),"
        "('b', 'default', 'qb', 1, 'weather forecast', 'c1')"
    )
    retrieve_run(lib_store, "b", "bm25", "sub", level="subquery", depth=1, scope="task")
    per_sub = lib_store.con.execute(
        "SELECT slot, item_id, rank FROM subquery_results WHERE run_id = 'sub' ORDER BY slot"
    ).fetchall()
    assert per_sub == [(0, "c2", 1), (1, "c1", 1)]
    fused = _results(lib_store, "sub")
    # both at 1/61: tie broken by item_id DESC
    assert [(r[1], r[3]) for r in fused] == [("c2", 1), ("c1", 2)]
    assert all(math.isclose(r[2], 1 / 61) for r in fused)
    assert _params(lib_store, "sub")["rrf_k"] == 60


def test_existing_run_needs_replace(lib_store: Store) -> None:
    retrieve_run(lib_store, "b", "bm25", "r", depth=2)
    with pytest.raises(InputError, match="already exists"):
        retrieve_run(lib_store, "b", "bm25", "r", depth=2)
    retrieve_run(lib_store, "b", "bm25", "r", depth=1, replace=True)
    assert len(_results(lib_store, "r")) == 3


def test_subquery_level_without_subqueries_is_an_error(lib_store: Store) -> None:
    with pytest.raises(InputError, match="no sub-queries"):
        retrieve_run(lib_store, "b", "bm25", "s", level="subquery")


def test_cli_index_and_retrieve(lib_store: Store) -> None:
    from toolex.cli import cli

    lib_store.close()
    runner = CliRunner()
    db = lib_store.path
    first = runner.invoke(
        cli,
        ["index", "--db", db, "--benchmark", "b", "--retriever", "wordllama", "--format", "json"],
    )
    assert first.exit_code == 0, first.output
    row = json.loads(first.stdout)[0]
    assert (row["embedded"], row["cached"], row["rebuilt"]) == (6, 0, True)
    second = runner.invoke(
        cli,
        ["index", "--db", db, "--benchmark", "b", "--retriever", "wordllama", "--format", "json"],
    )
    row = json.loads(second.stdout)[0]
    assert (row["embedded"], row["cached"], row["rebuilt"]) == (0, 6, False)
    res = runner.invoke(
        cli,
        [
            "retrieve",
            "--db",
            db,
            "--benchmark",
            "b",
            "--retriever",
            "bm25",
            "--run",
            "cli",
            "--k",
            "2",
            "--format",
            "json",
        ],
    )
    assert res.exit_code == 0, res.output
    # the default library is pooled (ToolRet's protocol): each of the 3 queries gets its 2 items,
    # where searching its own task (a task of one item) would give 5
    assert json.loads(res.stdout)[0]["results"] == 6


def test_auto_scope_is_the_task_when_items_have_tasks(lib_store: Store) -> None:
    retrieve_run(lib_store, "b", "bm25", "auto", depth=2)
    assert _params(lib_store, "auto")["scope"] == "task"
    assert _results(lib_store, "auto") == _results_of_scope(lib_store, "task")


def test_auto_scope_is_the_whole_library_when_it_is_pooled(lib_store: Store) -> None:
    lib_store.con.execute("UPDATE items SET task = NULL WHERE benchmark = 'b'")
    retrieve_run(lib_store, "b", "bm25", "auto", depth=2)
    assert _params(lib_store, "auto")["scope"] == "benchmark"


def _results_of_scope(store: Store, scope: str) -> list[tuple[Any, ...]]:
    retrieve_run(store, "b", "bm25", f"explicit-{scope}", depth=2, scope=scope)
    return _results(store, f"explicit-{scope}")
