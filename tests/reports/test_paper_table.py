"""The paper-layout main table, the category-mean row in the report, the oracle mark (†) and
the pool-bias note (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from toolex.reports import figures, paper_table
from toolex.reports.builder import build_report
from toolex.reports.inputs import ReportContext
from toolex.reports.main_table import MainRow, main_table
from toolex.reports.provenance import run_provenance
from toolex.store import Store

MEAN = "avg (category mean)"


def _row(
    run: str, category: str, value: float, oracle: bool = False, bench: str = "b", k: int = 10
) -> MainRow:
    metrics = {f"{m}_{side}": value for m in ("ndcg", "recall", "comp") for side in ("old", "new")}
    level = "subquery" if oracle else "query"
    return MainRow(run, level, oracle, bench, category, k, 10, 0, **metrics, delta=0.0)


def test_report_main_table_has_the_category_mean_of_its_category_rows(ctx: ReportContext) -> None:
    rows = {(r["run_id"], r["category"]): r for r in main_table(ctx).rows}
    for run in ("bm25", "bm25-ft", "sub-bm25"):
        mean, code, web = rows[(run, MEAN)], rows[(run, "code")], rows[(run, "web")]
        for col in ("ndcg_old", "ndcg_new", "recall_old", "recall_new", "comp_old", "comp_new"):
            assert mean[col] == pytest.approx((code[col] + web[col]) / 2)
        gains = [mean[f"{m}_new"] - mean[f"{m}_old"] for m in ("ndcg", "recall", "comp")]
        assert mean["delta"] == pytest.approx(sum(gains) / 3)
    order = [r["category"] for r in main_table(ctx).rows if r["run_id"] == "bm25"]
    assert order == ["all", MEAN, "code", "web"]  # the two averages side by side


def test_report_marks_the_oracle_run_and_notes_pool_bias(ctx: ReportContext) -> None:
    table = main_table(ctx)
    assert table.md_rows is not None
    labels = {r["run_id"] for r in table.md_rows}
    assert labels == {"bm25", "bm25-ft", "sub-bm25 †"}
    assert "oracle-assisted" in table.note
    # the fixture's expansion records no candidate retriever: nothing to warn about
    assert "pool bias" not in table.note
    ctx.store.con.execute(
        "UPDATE expansions SET config = json_object('retriever', 'hybrid:bm25+wordllama')"
    )
    provenance = run_provenance(ctx.store, ctx.run_ids, "default")
    assert {r: p.pool_bias for r, p in provenance.items()} == dict.fromkeys(ctx.run_ids, "shared")
    ctx.store.con.execute("UPDATE expansions SET config = json_object('retriever', 'bm25')")
    provenance = run_provenance(ctx.store, ctx.run_ids, "default")
    assert {r: p.pool_bias for r, p in provenance.items()} == dict.fromkeys(ctx.run_ids, "same")
    assert provenance["sub-bm25"].oracle and not provenance["bm25"].oracle
    assert "pool bias" in main_table(ctx).note


def test_paper_columns_follow_the_paper_and_oracle_rows_come_last() -> None:
    rows = [
        _row("sub", "web", 0.9, oracle=True),
        _row("bm25", "zeta", 0.1),
        _row("bm25", "web", 0.5),
        _row("bm25", "Customized", 0.3),
        _row("bm25", "code", 0.2),
        _row("bm25", MEAN, 0.25),
        _row("bm25", "all", 0.4),
        _row("sub", "code", 0.8, oracle=True),
    ]
    (table,) = paper_table.paper_tables(rows)
    assert [table.header(g) for g in table.groups] == ["Code", "Web", "Customized", "Zeta", "Avg"]
    assert table.runs == [("bm25", False), ("sub", True)]
    display = paper_table.display_rows([table], digits=1)
    assert display[0]["Web N@10"] == "50.0→50.0" and display[0]["Avg Δ"] == "+0.0"
    assert display[1]["run"] == "sub †" and display[1]["Customized N@10"] == "–"
    flat = paper_table.flat_rows([table])
    assert flat[0]["avg_ndcg_old"] == 0.25 and flat[1]["customized_ndcg_old"] is None


def test_latex_escapes_names_and_explains_the_dagger() -> None:
    rows = [_row("my_run&co", "code", 0.5), _row("sub_1", "code", 0.7, oracle=True)]
    tex = paper_table.to_latex(paper_table.paper_tables(rows))
    assert "my\\_run\\&co &" in tex and "sub\\_1$^\\dagger$ &" in tex
    assert tex.count("\\midrule") == 2  # header rule, then the † rows set apart
    assert "\\footnotesize $^\\dagger$ sub-query level" in tex


def test_one_table_per_benchmark() -> None:
    rows = [_row("a", "code", 0.5, bench="x"), _row("b", "G1", 0.5, bench="y")]
    tables = paper_table.paper_tables(rows)
    assert [(t.benchmark, t.groups) for t in tables] == [("x", ["code"]), ("y", ["G1"])]
    md = paper_table.to_markdown(tables)
    assert "**x, K=10**" in md and "**y, K=10**" in md


def test_report_writes_the_paper_table_files(fixture_store: Store, tmp_path: Path) -> None:
    rep = build_report(fixture_store, tmp_path / "rep", k=3, n_perm=50, n_boot=50)
    folder = tmp_path / "rep"
    md = (folder / "paper_table.md").read_text()
    assert "| run | Code N@3 |" in md and "| sub-bm25 † |" in md
    assert (folder / "paper_table.tex").read_text().startswith("% toolret, K=3")
    report_md = (folder / "report.md").read_text()
    assert md.strip() in report_md
    assert "oracle-assisted" in report_md.split("## ")[0]  # the legend, before any table
    rows = json.loads((folder / "paper_table.json").read_text())["rows"]
    assert {r["run"] for r in rows} == {"bm25", "bm25-ft", "sub-bm25"}
    assert rep.oracle == {"sub-bm25"}
    # every table that names runs marks the oracle run in report.md
    ranks = report_md.split("## Where equivalents rank")[1].split("## ")[0]
    assert "| sub-bm25 † |" in ranks


def test_figures_mark_oracle_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[Figure] = []

    def save(fig: Figure, path: Path) -> Path:
        drawn.append(fig)
        return path

    monkeypatch.setattr(figures, "_save", save)
    rows = [_row("bm25", "all", 0.5), _row("sub", "all", 0.7, oracle=True)]
    figures.main_scores(rows, 10, tmp_path / "m.png")
    fig = drawn[-1]
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks == ["bm25", "sub †"]
    assert any("oracle-assisted" in t.get_text() for t in fig.texts)
    figures.main_scores(rows[:1], 10, tmp_path / "n.png")
    assert not drawn[-1].texts  # no † shown, no legend for it
