"""Write the report folder: report.md, one PNG per figure, every table as CSV and JSON.

The folder is self-contained (relative links only) so it can be zipped into a paper's
supplementary material. Every number comes from the section modules, i.e. from SQL.
"""

from __future__ import annotations

import csv
import json
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from toolex.exports.files import check_folder, check_output, output_file
from toolex.progress import Progress, current
from toolex.reports import figures
from toolex.reports.annotation import annotation_detail_table, annotation_table
from toolex.reports.doc_lengths import doc_length_tables
from toolex.reports.equivalent_ranks import equivalent_rank_tables
from toolex.reports.failures import failed_queries_table
from toolex.reports.gain_illusion import gain_illusion_table
from toolex.reports.heterogeneity import heterogeneity_table
from toolex.reports.inputs import ReportContext, StatOptions, Table
from toolex.reports.main_table import main_table, main_table_rows
from toolex.reports.paper_table import paper_section
from toolex.reports.provenance import (
    ORACLE_MARK,
    ORACLE_NOTE,
    oracle_runs,
    run_provenance,
)
from toolex.reports.significance import significance_table
from toolex.reports.thinning import thinning_table
from toolex.reports.trust import ExpansionTrust
from toolex.reports.trust_table import report_trust, trust_table
from toolex.store import Store

if TYPE_CHECKING:
    from typing_extensions import Unpack

# The steps of a report, in order (the progress task counts them).
STEPS = (
    "annotation",
    "metrics",
    "gain illusion",
    "equivalent ranks",
    "heterogeneity",
    "documentation lengths",
    "significance",
    "trust",
    "writing",
)
# Tables too long to read in report.md: only the files hold them.
FILE_ONLY = {"equivalent_best_ranks", "equivalent_rank_cdf"}
# Tables report.md shows as a text file of the report rather than from their rows.
AS_TEXT = {"paper_table": "paper_table.md"}
# Columns that name a run: report.md marks oracle-assisted runs there with a dagger.
RUN_COLUMNS = ("run_id", "base", "finetuned", "run_a", "run_b")
MD_ROW_LIMIT = 150


@dataclass
class Report:
    folder: Path
    tables: list[Table] = field(default_factory=list)
    figures: list[tuple[str, Path | None]] = field(default_factory=list)  # (caption, path)
    timings: dict[str, float] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)  # file name -> content (paper table)
    oracle: set[str] = field(default_factory=set)  # runs of sub-query level, marked †
    trust: list[ExpansionTrust] = field(default_factory=list)  # what stands behind new
    store: str | None = None  # the store's path: no file of the report may land on its files


def build_report(
    store: Store,
    out: str | Path,
    *,
    benchmarks: Sequence[str] = (),
    run_ids: Sequence[str] = (),
    expansion: str = "default",
    k: int = 10,
    pairs: Sequence[tuple[str, str]] = (),
    seed: int = 0,
    progress: Progress | None = None,
    **options: Unpack[StatOptions],
) -> Report:
    """Compute every section and write the folder ``out``. ``progress`` gets one task of
    ``len(STEPS)`` steps, with ``step=<name>`` as each starts (default: the reporter installed with
    ``toolex.progress.reporting``). ``out`` is refused before any work when it is among the
    store's own files (toolex.exports.files), and each file is written whole."""
    folder = check_folder(out, store.path)
    # A file already there under a report file's name (a link onto the store, a FIFO) is
    # refused now, before a section is computed or any file of the report written.
    for entry in folder.iterdir() if folder.is_dir() else ():
        if entry.suffix in (".md", ".csv", ".json", ".png"):
            check_output(entry, store.path)
    ctx = ReportContext.create(
        store,
        benchmarks=benchmarks,
        run_ids=run_ids,
        pairs=pairs,
        expansion=expansion,
        k=k,
        seed=seed,
        **options,
    )
    report = Report(Path(out), store=store.path)
    report.folder.mkdir(parents=True, exist_ok=True)
    progress = progress or current()

    @contextmanager
    def step(name: str) -> Iterator[None]:
        progress.advance(0, step=name)
        start = time.perf_counter()
        yield
        report.timings[name] = time.perf_counter() - start
        progress.advance(1)

    progress.start("report", len(STEPS), unit="steps")
    try:
        _sections(ctx, report, k, step)
    finally:
        progress.finish()
    return report


def _sections(
    ctx: ReportContext, report: Report, k: int, step: Callable[[str], AbstractContextManager[None]]
) -> None:
    with step("annotation"):
        detail, failed = annotation_detail_table(ctx), failed_queries_table(ctx)
        if not failed.rows:  # the list of failed queries, when there is one
            detail.note += " No query has a failed pipeline task."
        report.tables += [annotation_table(ctx), detail] + ([failed] if failed.rows else [])
    with step("metrics"):
        provenance = run_provenance(ctx.store, ctx.run_ids, ctx.expansion)
        report.oracle = oracle_runs(provenance)
        main_rows = main_table_rows(ctx.store, ctx.summary)
        main = main_table(ctx, main_rows)
        paper, texts = paper_section(main_rows)
        report.tables += [main, paper]
        report.texts.update(texts)
        report.figures.append(
            (
                "Old vs new, all queries",
                figures.main_scores(main_rows, k, _png(report, "main_scores")),
            )
        )
    with step("gain illusion"):
        _gain_illusion(ctx, report, k)
    with step("equivalent ranks"):
        summary, best, cdf = equivalent_rank_tables(ctx)
        report.tables += [summary, best, cdf]
        path = figures.rank_cdf(cdf.rows, k, _png(report, "equivalent_rank_cdf"), report.oracle)
        report.figures.append(("CDF of the best rank: ground truth, equivalent, random", path))
    with step("heterogeneity"):
        het = heterogeneity_table(ctx)
        report.tables.append(het)
        path = figures.heterogeneity(het.rows, k, _png(report, "heterogeneity"))
        report.figures.append(("Δ per category", path))
    with step("documentation lengths"):
        lengths, per_tool = doc_length_tables(ctx)
        report.tables.append(lengths)
        path = figures.doc_lengths(per_tool, _png(report, "doc_lengths"))
        report.figures.append(("Documentation length per benchmark", path))
    with step("significance"):
        report.tables.append(significance_table(ctx))
    with step("trust"):
        report.trust = report_trust(ctx)
        report.tables += [trust_table(report.trust), thinning_table(ctx, report.trust)]
    with step("writing"):
        report.figures = [(c, p) for c, p in report.figures if p is not None]
        for table in report.tables:
            write_csv(table, report.folder / f"{table.name}.csv", report.store)
            write_json(table, report.folder / f"{table.name}.json", report.store)
        for name, text in report.texts.items():
            _write_text(report.folder / name, text, report.store)
        _write_text(report.folder / "report.md", render_markdown(ctx, report), report.store)


def _gain_illusion(ctx: ReportContext, report: Report, k: int) -> None:
    """The gain-illusion table, and a figure for each (base, tuned) pair of runs."""
    illusion = gain_illusion_table(ctx)
    report.tables.append(illusion)
    for base, tuned in ctx.pairs:
        name = f"gain_illusion_{figures.safe_name(base)}_vs_{figures.safe_name(tuned)}"
        path = figures.gain_illusion(
            illusion.rows, (base, tuned), k, _png(report, name), report.oracle
        )
        report.figures.append((f"Fine-tuning gain, {tuned} vs {base}", path))


def _png(report: Report, name: str) -> Path:
    """Where a figure goes, refused first if it is among the store's files (figures.py writes
    it whole)."""
    path = report.folder / f"{name}.png"
    check_output(path, report.store)
    return path


def _write_text(path: Path, text: str, store: str | None) -> None:
    with output_file(path, store) as temp:
        temp.write_text(text, encoding="utf-8")


def write_csv(table: Table, path: Path, store: str | None = None) -> None:
    cols = table.cols()
    with output_file(path, store) as temp, temp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=cols, extrasaction="ignore")
        writer.writeheader()
        for row in table.rows:
            writer.writerow({c: _csv_value(row.get(c)) for c in cols})


def write_json(table: Table, path: Path, store: str | None = None) -> None:
    doc = {"name": table.name, "title": table.title, "note": table.note, "rows": table.rows}
    _write_text(path, json.dumps(doc, indent=1, default=str) + "\n", store)


def _csv_value(value: object) -> object:
    if isinstance(value, list):
        return json.dumps(value, default=str)
    return value


def render_markdown(ctx: ReportContext, report: Report) -> str:
    lines = [
        "# toolex report",
        "",
        f"- benchmarks: {', '.join(ctx.benchmarks) or '(none)'}",
        f"- expansion: `{ctx.expansion}`",
        f"- runs: {', '.join(f'`{r}`' for r in ctx.run_ids) or '(none)'}",
        f"- K = {ctx.k}; seed = {ctx.seed}; random tool of the equivalent ranks drawn from the "
        f"{'candidate pool' if ctx.random_from == 'pool' else 'whole library'}",
        "- pairs (base → fine-tuned): "
        + (", ".join(f"`{b}` → `{t}`" for b, t in ctx.pairs) or "(none)"),
        "",
        "Every table is also in this folder as `<name>.csv` and `<name>.json`.",
        "",
    ]
    if report.oracle:
        lines += [ORACLE_NOTE, ""]
    captions = {p.stem: c for c, p in report.figures if p is not None}
    figure_after = {
        "main_table": ["main_scores"],
        "gain_illusion": [s for s in captions if s.startswith("gain_illusion_")],
        "equivalent_ranks": ["equivalent_rank_cdf"],
        "heterogeneity": ["heterogeneity"],
        "doc_lengths": ["doc_lengths"],
    }
    for table in report.tables:
        lines += [f"## {table.title}", ""]
        if table.note:
            lines += [table.note, ""]
        if table.name in AS_TEXT and AS_TEXT[table.name] in report.texts:
            lines += [report.texts[AS_TEXT[table.name]]]
        elif table.name in FILE_ONLY:
            lines += [f"{len(table.rows)} rows in `{table.name}.csv` / `{table.name}.json`.", ""]
        else:
            lines += markdown_table(table, report.oracle) + [""]
        for stem in figure_after.get(table.name, []):
            if stem in captions:
                lines += [f"![{captions[stem]}]({stem}.png)", "", f"*{captions[stem]}*", ""]
    return "\n".join(lines)


def markdown_table(table: Table, oracle: set[str] | None = None) -> list[str]:
    """``table`` in Markdown; run names in ``oracle`` get the oracle mark (†)."""
    if not table.rows:
        return ["(no rows)"]
    rows: Sequence[Mapping[str, object]] = (
        table.md_rows if table.md_rows is not None else table.rows
    )
    if oracle:
        rows = [_mark_runs(row, oracle) for row in rows]
    cols = [c for c in table.cols() if c not in ("k", "benchmark") or _varies(table, c)]
    out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in rows[:MD_ROW_LIMIT]:
        out.append("| " + " | ".join(_md_cell(row.get(c)) for c in cols) + " |")
    if len(table.rows) > min(len(rows), MD_ROW_LIMIT):
        shown = min(len(rows), MD_ROW_LIMIT)
        out.append(f"\n{shown} of {len(table.rows)} rows shown; all in `{table.name}.csv`.")
    return out


def _mark_runs(row: Mapping[str, object], oracle: set[str]) -> Mapping[str, object]:
    marked = {c: f"{row[c]} {ORACLE_MARK}" for c in RUN_COLUMNS if row.get(c) in oracle}
    return {**row, **marked} if marked else row


def _varies(table: Table, col: str) -> bool:
    return len({str(r.get(col)) for r in table.rows}) > 1


def _md_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return f"{value:.4f}" if abs(value) < 1000 else f"{value:.1f}"
    return str(value).replace("|", "\\|")
