"""Issue 26.2: items without the asked rendering are searched in their default text, counted
and said (stderr and the run's params), never dropped from the library."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolex.errors import InputError
from toolex.retrieval.runs import retrieve_run
from toolex.retrieval.texts import fallback_note, load_library
from toolex.store import Store

# w1..c3 are the fixture's six items (conftest.ITEMS); two get a second rendering
DOCS = [("w2", "weather report by email"), ("w3", "stock prices and market quotes")]


@pytest.fixture
def partial(lib_store: Store) -> Store:
    for item_id, text in DOCS:
        lib_store.con.execute(
            "INSERT INTO item_docs VALUES ('b', ?, 'llm', '{}', ?)", [item_id, text]
        )
    return lib_store


def test_the_library_keeps_every_item_and_counts_the_fallbacks(partial: Store) -> None:
    lib = load_library(partial, "b", "llm")
    assert lib.item_ids == ["c1", "c2", "c3", "w1", "w2", "w3"]
    texts = dict(zip(lib.item_ids, lib.texts, strict=True))
    assert texts["w2"] == "weather report by email"  # the rendering where it has one
    assert texts["c3"].startswith("name: rain")  # the default text where it has none
    assert lib.fallback == 4
    assert fallback_note(lib) == (
        "rendering 'llm' documents 2 of the 6 items of 'b'; the other 4 are searched in their "
        "default text"
    )
    assert load_library(partial, "b").fallback == 0
    assert fallback_note(load_library(partial, "b")) is None


def test_a_rendering_no_item_has_is_still_an_error(partial: Store) -> None:
    with pytest.raises(InputError, match="no item_docs with rendering 'nope'"):
        load_library(partial, "b", "nope")


def test_adding_a_document_to_the_rendering_changes_the_library(partial: Store) -> None:
    before = load_library(partial, "b", "llm")
    partial.con.execute("INSERT INTO item_docs VALUES ('b', 'c1', 'llm', '{}', 'rain forecast')")
    after = load_library(partial, "b", "llm")
    assert after.fingerprint != before.fingerprint and after.fallback == 3


def test_a_run_over_a_partial_rendering_scores_every_task_and_says_so(partial: Store) -> None:
    summary = retrieve_run(partial, "b", "bm25", "r", depth=3, scope="task", rendering="llm")
    # every query finds its own task's items, those of tasks the rendering never documents too
    got = dict(
        partial.con.execute(
            "SELECT query_id, count(*) FROM run_results WHERE run_id = 'r' GROUP BY ALL"
        ).fetchall()
    )
    assert got == {"qa": 3, "qb": 2, "qc": 1}
    assert summary.notes == (
        "rendering 'llm' documents 2 of the 6 items of 'b'; the other 4 are searched in their "
        "default text",
    )
    params = json.loads(
        partial.con.execute("SELECT params FROM runs WHERE run_id = 'r'").fetchall()[0][0]
    )
    assert (params["rendering"], params["rendering_fallback"]) == ("llm", 4)
    plain = retrieve_run(partial, "b", "bm25", "d", depth=3, scope="task")
    assert plain.notes == ()


def test_the_cli_says_it_on_stderr_and_keeps_stdout_data(partial: Store) -> None:
    from toolex.cli import cli

    partial.close()
    args = ["retrieve", "--db", partial.path, "--benchmark", "b", "--retriever", "bm25"]
    done = CliRunner().invoke(cli, [*args, "--run", "r", "--rendering", "llm", "--format", "json"])
    assert done.exit_code == 0, done.output
    assert "note: rendering 'llm' documents 2 of the 6 items" in done.stderr
    row = json.loads(done.stdout)[0]
    assert row["results"] == 3 * 6 and "notes" not in row  # the pooled library, all six items
    index = ["index", "--db", partial.path, "--benchmark", "b", "--retriever", "bm25"]
    built = CliRunner().invoke(cli, [*index, "--rendering", "llm", "--format", "json"])
    assert built.exit_code == 0, built.output
    assert "note: rendering 'llm' documents 2 of the 6 items" in built.stderr
    assert json.loads(built.stdout)[0]["items"] == 6


def test_tool_de_docs_for_one_task_leave_the_other_tasks_searchable(
    shared_data: Path, store: Store
) -> None:
    """The issue's case: Tool-DE docs for apibank only, then a run in that rendering. Before,
    apigen, gorilla and toolink had no item to search (they scored 0.0: 101 items searched)."""
    from toolex.loaders import load_docs, load_toolret

    load_toolret(store, shared_data / "toolret")
    docs = shared_data / "toolret" / "augmented_tools_apibank" / "gpt-4o-mini_tools.json"
    load_docs(store, docs, benchmark="toolret", rendering="gpt-4o-mini")
    summary = retrieve_run(
        store, "toolret", "bm25", "de", depth=10, scope="task", rendering="gpt-4o-mini"
    )
    tasks = dict(
        store.con.execute(
            "SELECT q.task, count(DISTINCT r.query_id) FROM run_results r JOIN queries q "
            "ON q.benchmark = 'toolret' AND q.query_id = r.query_id WHERE r.run_id = 'de' "
            "GROUP BY ALL"
        ).fetchall()
    )
    assert tasks == {"apibank": 101, "apigen": 1000, "gorilla-huggingface": 500, "toolink": 497}
    assert summary.notes == (
        "rendering 'gpt-4o-mini' documents 101 of the 6,417 items of 'toolret'; the other 6,316 "
        "are searched in their default text",
    )
    hits = dict(
        store.con.execute(
            "SELECT q.task, avg((r.item_id IS NOT NULL)::INT) FROM qrels g "
            "JOIN queries q ON q.benchmark = g.benchmark AND q.query_id = g.query_id "
            "LEFT JOIN run_results r ON r.run_id = 'de' AND r.query_id = g.query_id "
            "AND r.item_id = g.item_id WHERE g.benchmark = 'toolret' GROUP BY ALL"
        ).fetchall()
    )
    assert min(hits.values()) > 0.3  # every task finds its ground truth again
