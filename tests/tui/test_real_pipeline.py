"""The TUI over a store made by the real loader, pipeline (offline heuristic judge) and BM25
retrieval, not by the hand-made fixture: what the screens show must be what the store holds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.widgets import DataTable, Input
from toolex_tui.app import ToolexApp
from toolex_tui.data import Browser, QueryFilter
from toolex_tui.screens.query_detail import QueryDetailScreen

from toolex.cli import cli
from toolex.judges import make_judge
from toolex.loaders import load_stabletoolbench
from toolex.pipeline.runner import run_expansion
from toolex.store import Store

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def real_db(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("real") / "g3.duckdb"
    with Store.open(path) as store:
        load_stabletoolbench(store, shared_data / "stabletoolbench", groups=["G3_instruction"])
        run_expansion(store, "stabletoolbench", make_judge("heuristic", store=store))
    result = CliRunner().invoke(
        cli,
        [
            "retrieve",
            "--db",
            str(path),
            "--benchmark",
            "stabletoolbench",
            "--retriever",
            "bm25",
            "--run",
            "bm25",
            "--scope",
            "benchmark",
        ],
    )
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def real_store(real_db: Path) -> Iterator[Store]:
    store = Store.open(real_db, read_only=True)
    yield store
    store.close()


async def test_detail_shows_what_the_pipeline_stored(real_store: Store) -> None:
    b = Browser(real_store)
    page = b.page(sort="n_valid", descending=True, limit=1)
    qid = page.rows[0]["query_id"]
    n_combos, n_cands = real_store.con.execute(
        "SELECT (SELECT count(*) FROM combinations WHERE query_id = $q),"
        " (SELECT count(*) FROM candidates WHERE query_id = $q)",
        {"q": qid},
    ).fetchall()[0]
    app = ToolexApp(real_store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#search", Input).value = qid  # as if typed: one Input.Changed
        await pilot.pause()
        assert [str(k.value) for k in app.screen.query_one("#queries", DataTable).rows] == [qid]
        await pilot.press("enter")  # the table has the focus: open the query
        screen = app.screen
        assert isinstance(screen, QueryDetailScreen)
        assert len(screen.query_one("#q-combos", DataTable).rows) == n_combos
        assert len(screen.query_one("#q-candidates", DataTable).rows) == n_cands
        runs = screen.query_one("#q-runs", DataTable)
        assert [str(k.value) for k in runs.rows] == ["bm25"]


def test_list_counts_match_the_store(real_store: Store) -> None:
    b = Browser(real_store)
    assert b.total() == 61  # G3_instruction's solvable queries (shared data README)
    n_valid = dict(
        real_store.con.execute(
            "SELECT query_id, count(*) FROM combinations WHERE status = 'valid' GROUP BY 1"
        ).fetchall()
    )
    rows = b.page(limit=100).rows
    # the store keeps the original as combination 0 (valid); a query without combinations
    # still has its original one
    assert {r["query_id"]: r["n_valid"] for r in rows} == {
        r["query_id"]: n_valid.get(r["query_id"], 1) for r in rows
    }
    assert sum(r["n_valid"] > 1 for r in rows) == b.page(QueryFilter(min_valid=2)).total
