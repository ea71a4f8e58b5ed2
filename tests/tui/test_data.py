"""The SQL-paged data access behind the list and detail screens, on the fixture store."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from toolex_tui.data import (
    Browser,
    Page,
    QueryFilter,
    QueryPage,
    StoreLockedError,
    open_browse_store,
    snapshot_copy,
)

from toolex.cli import cli
from toolex.errors import NotFoundError
from toolex.store import Store

HANG_GUARD_S = 600  # a background read that never ends fails the test; no timing is asserted
ALL = [  # in natural order (sql/browse/00_natural_key.sql): 588 before 1073
    "G1_instruction:588",
    "G1_instruction:608",
    "G1_instruction:1073",
    "G1_tool:394",
    "G2_category:43",
    "G2_instruction:1643",
    "G2_instruction:5744",
    "G3_instruction:455",
]
# queries with an accepted slot-0 equivalent inside a valid combination (see fixtures.py);
# G1_instruction:588 has one too, but its combination is rejected by the platform rule
WITH_EQUIV = ["G1_instruction:1073", "G2_instruction:1643", "G3_instruction:455"]


def ids(page: Page) -> list[Any]:
    return [r["query_id"] for r in page.rows]


def test_list_counts_and_paging(ro_store: Store) -> None:
    b = Browser(ro_store)
    assert b.total() == 8
    first = b.page(limit=3)
    assert (first.total, ids(first)) == (8, ALL[:3])
    assert ids(b.page(limit=3, offset=6)) == ALL[6:]
    # a page past the end of a shrunken list falls back to the first page
    assert ids(b.page(QueryFilter(task="G3_instruction"), offset=6, limit=3)) == [ALL[7]]


def test_filters(ro_store: Store) -> None:
    b = Browser(ro_store)
    assert ids(b.page(QueryFilter(search="MESSI"))) == ["G1_instruction:588"]
    assert ids(b.page(QueryFilter(search="g2_instruction:"))) == ALL[5:7]
    assert ids(b.page(QueryFilter(category="G2"))) == ALL[4:7]
    assert ids(b.page(QueryFilter(n_gt=3))) == ["G2_instruction:5744", "G3_instruction:455"]
    assert ids(b.page(QueryFilter(min_valid=2))) == WITH_EQUIV
    assert ids(b.page(QueryFilter(score_run="swap", beats=True))) == WITH_EQUIV
    assert ids(b.page(QueryFilter(equiv_run="swap"))) == WITH_EQUIV
    # the keyword run keeps the GT on top: no query has its GT out and an equivalent in
    assert ids(b.page(QueryFilter(equiv_run="kw"))) == []
    assert ids(b.page(QueryFilter(category="G1", min_valid=2))) == ["G1_instruction:1073"]


def test_scores_and_sorting(ro_store: Store) -> None:
    b = Browser(ro_store)
    rows = b.page(QueryFilter(score_run="swap"), sort="gain", descending=True).rows
    # G1_instruction:1073: GT slot 0 demoted to rank 11 -> old R@10 = 1/2; its equivalent at
    # rank 1 with slot 1's GT -> new = 2/2; G3_instruction:455: old 2/3, new 3/3
    top = {r["query_id"]: (r["r_old"], r["r_new"]) for r in rows[:3]}
    assert top["G1_instruction:1073"] == (0.5, 1.0)
    assert top["G3_instruction:455"] == pytest.approx((2 / 3, 1.0))
    assert ids(b.page(sort="n_gt", descending=True))[:2] == ALL[6:8]
    assert ids(b.page(sort="query_id", descending=True))[0] == ALL[-1]
    with pytest.raises(ValueError, match="cannot sort by"):
        b.page(sort="text; DROP TABLE queries")


def test_query_and_tool_detail(ro_store: Store) -> None:
    b = Browser(ro_store)
    slots = b.slots("G1_instruction:588")
    assert [s.gt_item for s in slots] == [
        "TheClique::Transfermarkt search",
        "TheClique::Transfermarkt details",
    ]
    cands = b.candidates("G1_instruction:588")
    refs = [c for c in cands if c.is_reference]
    assert len(refs) == 2 and all(c.accepted for c in refs)
    combos = b.combinations("G1_instruction:588")
    assert [(c.combo_id, c.status) for c in combos] == [
        (0, "valid"),
        (1, "rejected_platform"),
    ]
    runs = {r.run_id: r for r in b.run_ranks("G1_instruction:1073")}
    assert (runs["swap"].gt_ranks or "").split()[0] == "11"
    assert runs["swap"].equivalents is None  # its equivalent is slot 1's GT, not new
    tq = b.tool_queries("Keyword Analysis::QueryKeywords")
    assert [(r.role, r.query_id, r.slot) for r in tq] == [
        ("gt", "G1_instruction:1073", 1),
        ("equivalent", "G1_instruction:1073", 0),
    ]


def test_query_page_in_the_background_reads_what_the_page_reads_in_turn(ro_store: Store) -> None:
    """The query page reads on two threads, each through its own connection (issue 15); what
    it gets is what the same reads give one after the other, and closing stops the threads."""
    b = Browser(ro_store)
    pages = [b.query_page_later(q) for q in ["G1_instruction:1073", "G1_instruction:588", "nope"]]
    later = [p.result(timeout=HANG_GUARD_S) for p in pages]
    assert later[:2] == [b.query_page("G1_instruction:1073"), b.query_page("G1_instruction:588")]
    assert later[0].scores["swap"]["recall"] == (0.5, 1.0)  # the equivalent is in the top 10
    assert later[2] == QueryPage(None, [], [], [], {}, [])
    b.close()
    again = b.query_page_later("G1_instruction:588").result(timeout=HANG_GUARD_S)
    assert again == later[1]
    b.close()


_HOLD = """
import sys, duckdb
con = duckdb.connect(sys.argv[1])
con.execute("CREATE TABLE IF NOT EXISTS _writer_was_here (x INTEGER)")
print("locked", flush=True)
sys.stdin.read()  # holds the lock until the test kills it, however long the test takes
"""


@pytest.mark.timeout(300, method="signal")  # its own deadline: it waits on a child
def test_locked_store_says_what_to_do_and_snapshot_opens(db_copy: Path) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(db_copy)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None  # PIPE
    try:
        assert writer.stdout.readline().strip() == "locked"
        with pytest.raises(StoreLockedError, match="--snapshot"):
            open_browse_store(db_copy)
        # the command says the same, as a one-line error (no traceback, exit 2 via main())
        result = CliRunner().invoke(cli, ["tui", "--db", str(db_copy)])
        assert isinstance(result.exception, StoreLockedError)
        with pytest.raises(StoreLockedError, match="Reviewing writes labels"):
            open_browse_store(db_copy, writable=True)
        copy = snapshot_copy(db_copy)
        store = open_browse_store(copy)
        try:
            assert Browser(store).total() == 8
        finally:
            store.close()
    finally:
        writer.kill()
        writer.wait(timeout=60)


def test_list_recall_matches_the_metrics_engine(ro_store: Store) -> None:
    """The list's Recall@10 old/new (SQL in sql/browse/) equals toolex.metrics' recall@10."""
    from toolex.metrics import per_query

    b = Browser(ro_store)
    for run in ("kw", "swap"):
        rows = b.page(QueryFilter(score_run=run)).rows
        ref = {
            (r["query_id"]): (r["old"], r["new"])
            for r in per_query(ro_store, [run], ks=(10,)).to_pylist()
            if r["metric"] == "recall"
        }
        assert {r["query_id"]: pytest.approx((r["r_old"], r["r_new"])) for r in rows} == ref


def test_tui_command_checks_its_options(fixture_db: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["tui", "--db", str(fixture_db), "--review", "s"])
    assert result.exit_code == 2 and "--review needs --reviewer" in result.output
    result = runner.invoke(
        cli, ["tui", "--db", str(fixture_db), "--review", "s", "--reviewer", "ann", "--snapshot"]
    )
    assert result.exit_code == 2 and "cannot work on a --snapshot copy" in result.output


def test_benchmark_and_expansion_are_checked_and_an_expansion_picks_its_benchmark(
    rw_store: Store,
) -> None:
    rw_store.con.execute(
        "INSERT INTO benchmarks (benchmark, format, source) VALUES ('small', 'plain', 'x')"
    )
    rw_store.con.execute("INSERT INTO expansions (benchmark, expansion) VALUES ('small', 'paper')")
    assert Browser(rw_store).benchmark == "stabletoolbench"  # the largest
    # naming only an expansion shows the (largest) benchmark holding it, not the largest one
    b = Browser(rw_store, expansion="paper")
    assert (b.benchmark, b.expansion) == ("small", "paper")
    b = Browser(rw_store, "small")
    assert (b.benchmark, b.expansion) == ("small", "default")
    with pytest.raises(NotFoundError, match="did you mean 'stabletoolbench'"):
        Browser(rw_store, "stabletoolbenc")
    with pytest.raises(NotFoundError, match="no expansion named 'papr'.*did you mean 'paper'"):
        Browser(rw_store, expansion="papr")
    with pytest.raises(NotFoundError, match="no expansion named 'paper'"):
        Browser(rw_store, "stabletoolbench", "paper")  # small's, not this one's
