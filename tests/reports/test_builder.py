"""The report folder: every table as CSV and JSON, every figure as a PNG, report.md linking
them; `toolex report` drives it on a read-only store."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from click.testing import CliRunner

from reports.fixtures import build
from toolex.cli.report import report as report_cmd
from toolex.reports import build_report
from toolex.reports.builder import STEPS
from toolex.store import Store

TABLES = [
    "annotation",
    "annotation_detail",
    "main_table",
    "paper_table",
    "gain_illusion",
    "equivalent_ranks",
    "equivalent_best_ranks",
    "equivalent_rank_cdf",
    "heterogeneity",
    "doc_lengths",
    "significance",
    "trust",
    "trust_thinning",
]
FIGURES = [
    "main_scores",
    "gain_illusion_bm25_vs_bm25-ft",
    "equivalent_rank_cdf",
    "heterogeneity",
    "doc_lengths",
]


class Steps:
    """A Progress that records what the builder reports."""

    def __init__(self) -> None:
        self.events: list[tuple[object, ...]] = []

    def start(self, label: str, total: int | None, *, unit: str = "items") -> None:
        self.events.append(("start", label, total))

    def advance(self, n: int = 1, **fields: object) -> None:
        self.events.append(("advance", n, fields.get("step")))

    def finish(self) -> None:
        self.events.append(("finish",))


def test_folder_holds_every_table_and_figure(fixture_store: Store, tmp_path: Path) -> None:
    progress = Steps()
    rep = build_report(
        fixture_store,
        tmp_path / "rep",
        pairs=[("bm25", "bm25-ft")],
        k=3,
        progress=progress,
        n_perm=200,
        n_boot=200,
    )
    events = progress.events
    assert events[0] == ("start", "report", len(STEPS)) and events[-1] == ("finish",)
    assert [e[2] for e in events if e[:2] == ("advance", 0)] == list(STEPS)
    assert sum(int(str(e[1])) for e in events if e[0] == "advance") == len(STEPS)
    assert STEPS[0] == "annotation" and STEPS[-1] == "writing"
    folder = tmp_path / "rep"
    assert [t.name for t in rep.tables] == TABLES
    for name in TABLES:
        with (folder / f"{name}.csv").open() as fh:
            csv_rows = list(csv.DictReader(fh))
        doc = json.loads((folder / f"{name}.json").read_text())
        assert len(csv_rows) == len(doc["rows"]) > 0, name
    for name in FIGURES:
        data = (folder / f"{name}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, name
    md = (folder / "report.md").read_text()
    for name in FIGURES:
        assert f"({name}.png)" in md
    for table in rep.tables:
        assert f"## {table.title}" in md
    main = json.loads((folder / "main_table.json").read_text())["rows"]
    assert {r["run_id"] for r in main} == {"bm25", "bm25-ft", "sub-bm25"}


def test_cli_on_a_read_only_store(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    store = build(Store.open(db))
    store.close()
    before = db.stat().st_mtime_ns
    out = tmp_path / "rep"
    args = [
        "--db",
        str(db),
        "--out",
        str(out),
        "--run",
        "bm25",
        "--run",
        "bm25-ft",
        "--pair",
        "bm25:bm25-ft",
        "--k",
        "3",
        "--permutations",
        "100",
        "--bootstrap",
        "100",
    ]
    res = CliRunner().invoke(report_cmd, args)
    assert res.exit_code == 0, res.output
    assert "wrote" in res.output and (out / "report.md").exists()
    runs = {r["run_id"] for r in json.loads((out / "main_table.json").read_text())["rows"]}
    assert runs == {"bm25", "bm25-ft"}
    assert db.stat().st_mtime_ns == before  # opened read-only: the file is untouched


def test_cli_rejects_bad_pairs(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    build(Store.open(db)).close()
    res = CliRunner().invoke(
        report_cmd, ["--db", str(db), "--out", str(tmp_path / "r"), "--pair", "bm25"]
    )
    assert res.exit_code != 0 and "BASE:FINETUNED" in res.output
    res = CliRunner().invoke(
        report_cmd, ["--db", str(db), "--out", str(tmp_path / "r"), "--pair", "bm25:nope"]
    )
    assert "no run named 'nope'" in str(res.exception)


def test_store_without_runs_or_expansion_still_reports(
    fixture_store: Store, tmp_path: Path
) -> None:
    for table in (
        "run_results",
        "subquery_results",
        "runs",
        "combination_items",
        "combinations",
        "verdicts",
        "candidates",
        "subqueries",
    ):
        fixture_store.con.execute(f"DELETE FROM {table}")  # closed set of names, no user input
    rep = build_report(fixture_store, tmp_path / "rep")
    rows = {t.name: len(t.rows) for t in rep.tables}
    assert rows["main_table"] == rows["significance"] == rows["equivalent_ranks"] == 0
    assert rows["doc_lengths"] == 3  # web, code and 'all'
    assert [p.stem for _, p in rep.figures if p is not None] == ["doc_lengths"]
    assert "(no rows)" in (tmp_path / "rep" / "report.md").read_text()
