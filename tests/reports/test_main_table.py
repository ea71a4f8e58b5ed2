"""Main table and heterogeneity: pivots of toolex.metrics.summary, Δ = mean of the three gains."""

from __future__ import annotations

import pytest

from toolex import metrics
from toolex.reports.heterogeneity import heterogeneity_table
from toolex.reports.inputs import ReportContext
from toolex.reports.main_table import main_table
from toolex.store import Store


def test_main_table_pivots_summary_and_adds_level(ctx: ReportContext) -> None:
    table = main_table(ctx)
    rows = {(r["run_id"], r["category"]): r for r in table.rows}
    groups = ("all", "avg (category mean)", "web", "code")
    assert set(rows) == {(r, c) for r in ("bm25", "bm25-ft", "sub-bm25") for c in groups}
    assert rows[("sub-bm25", "all")]["level"] == "subquery"
    assert rows[("bm25", "all")]["level"] == "query"
    assert rows[("sub-bm25", "all")]["oracle"] and not rows[("bm25", "all")]["oracle"]
    summary = metrics.summary(ctx.store, ["bm25", "bm25-ft", "sub-bm25"], ks=(3,))
    for s in summary:
        row = rows[(s.run_id, s.group)]
        assert row[f"{s.metric}_old"] == pytest.approx(s.old)
        assert row[f"{s.metric}_new"] == pytest.approx(s.new)
        assert row["n_queries"] == s.n_queries


def test_hand_computed_code_row_of_bm25(ctx: ReportContext) -> None:
    """bm25, category code, K=3. q4: GT c1 at rank 4, equivalent c2 (valid combo) at 3;
    q5: GT c3, c4 at ranks 3, 2; q6: GT c5 at 3 (its equivalent c1 is only in a rejected combo).
    Recall old = (0 + 1 + 1)/3, new = (1 + 1 + 1)/3; Comp likewise."""
    row = next(r for r in main_table(ctx).rows if r["run_id"] == "bm25" and r["category"] == "code")
    assert row["recall_old"] == pytest.approx(2 / 3)
    assert row["recall_new"] == pytest.approx(1.0)
    assert row["comp_old"] == pytest.approx(2 / 3)
    assert row["comp_new"] == pytest.approx(1.0)
    gains = [row[f"{m}_new"] - row[f"{m}_old"] for m in ("ndcg", "recall", "comp")]
    assert row["delta"] == pytest.approx(sum(gains) / 3)


def test_heterogeneity_ranks_categories_by_delta(ctx: ReportContext) -> None:
    rows = heterogeneity_table(ctx).rows
    assert {r["category"] for r in rows} == {"web", "code"}  # 'all' is not a category
    sub = {r["category"]: r for r in rows if r["run_id"] == "sub-bm25"}
    main = {r["category"]: r for r in main_table(ctx).rows if r["run_id"] == "sub-bm25"}
    for cat in ("web", "code"):
        assert sub[cat]["delta"] == pytest.approx(main[cat]["delta"])
    top = max(sub, key=lambda c: sub[c]["delta"])
    assert sub[top]["delta_rank"] == 1
    assert sub["web"]["run_delta_range"] == pytest.approx(
        abs(sub["web"]["delta"] - sub["code"]["delta"])
    )


def test_summary_rows_are_made_in_the_report_summary_schema(store: Store) -> None:
    """DuckDB builds report_summary from the typed rows (sql/reports/19_summary_rows.sql), in
    the schema the report registers (SUMMARY_SCHEMA), the group as ``category`` whatever the
    grouping; None stays NULL."""
    from toolex.metrics import MeanScore
    from toolex.reports.inputs import SUMMARY_SCHEMA
    from toolex.reports.main_table import FIELDS, _summary_table

    # a group of a task grouping; n_no_results None (a row made elsewhere than summary.sql)
    row = MeanScore._make(["r", "t1", "ndcg", 10, 0.5, 0.75, 0.25, 3, None])
    table = _summary_table(store, [row])
    assert table.schema == SUMMARY_SCHEMA and tuple(SUMMARY_SCHEMA.names) == FIELDS
    assert [f if f != "group" else "category" for f in MeanScore._fields] == list(FIELDS)
    assert table.to_pylist() == [
        {"run_id": "r", "category": "t1", "metric": "ndcg", "k": 10, "old": 0.5, "new": 0.75,
         "gain": 0.25, "n_queries": 3, "n_no_results": None}
    ]  # fmt: skip
    assert _summary_table(store, []).schema == SUMMARY_SCHEMA
