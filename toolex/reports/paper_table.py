"""The main table in the paper's layout: one row per run, the groups side by side.

Columns: each category (Code, Web, Customized first, in the paper's order; then any other, by
name) and Avg, the mean of the category means (toolex.reports.main_table.group_mean_label), each
with N@K, R@K and C@K as old→new (×100) and Δ, the mean of the three gains. Oracle-assisted
(sub-query-level) runs come after the query-level ones, marked †. One table per benchmark and K,
built from main-table rows, so every number is one the long table holds; exported as Markdown,
LaTeX (booktabs) or flat rows (json/csv, raw 0..1 values).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolex.reports.inputs import Table
from toolex.reports.main_table import MainRow, group_mean_label
from toolex.reports.provenance import ORACLE_NOTE, ORACLE_SHORT, run_label

PAPER_ORDER = ("code", "web", "customized")  # the paper's category order
METRICS = (("ndcg", "N"), ("recall", "R"), ("comp", "C"))
AVG = "Avg"


@dataclass
class PaperTable:
    benchmark: str
    k: int
    by: str
    groups: list[str]  # group values of the main table, in column order; the mean last
    rows: list[MainRow]  # main-table rows, found by (run_id, group)
    runs: list[tuple[str, bool]]  # (run id, oracle), in row order

    def cell(self, run: str, group: str) -> MainRow | None:
        return next((r for r in self.rows if r.run_id == run and r.group == group), None)

    def header(self, group: str) -> str:
        return AVG if group == group_mean_label(self.by) else group[:1].upper() + group[1:]

    @property
    def oracle(self) -> bool:
        return any(o for _, o in self.runs)


def paper_tables(rows: Sequence[MainRow], by: str = "category") -> list[PaperTable]:
    """The paper-layout tables of main-table rows (``main_table_rows(..., by)``), one per
    benchmark and K. The query-weighted 'all' rows are left out: Avg is the category mean."""
    mean = group_mean_label(by)
    out = []
    for bench, k in dict.fromkeys((r.benchmark, r.k) for r in rows):
        part = [r for r in rows if r.benchmark == bench and r.k == k and r.group != "all"]
        cats = {r.group for r in part} - {mean}
        known = [c for p in PAPER_ORDER for c in sorted(cats) if c.lower() == p]
        groups = (
            known
            + sorted(cats - set(known))
            + ([mean] if any(r.group == mean for r in part) else [])
        )
        runs = list(dict.fromkeys((r.run_id, bool(r.oracle)) for r in part))
        runs.sort(key=lambda ro: ro[1])  # stable: query-level runs first, † rows after
        out.append(PaperTable(bench, k, by, groups, part, runs))
    return out


def paper_section(main_rows: Sequence[MainRow]) -> tuple[Table, dict[str, str]]:
    """The report's paper-layout table (flat rows for its CSV/JSON) and its text files,
    ``paper_table.md`` (shown in report.md) and ``paper_table.tex``."""
    tables = paper_tables(main_rows)
    table = Table(
        "paper_table",
        "Main table, paper layout",
        flat_rows(tables),
        note="Also as `paper_table.md` and `paper_table.tex` (LaTeX, booktabs).",
    )
    return table, {"paper_table.md": to_markdown(tables), "paper_table.tex": to_latex(tables)}


# -- flat rows (json / csv / the terminal) ---------------------------------------------------


def flat_rows(tables: Sequence[PaperTable]) -> list[dict[str, object]]:
    """One row per run with ``<group>_<metric>_old/new`` and ``<group>_delta`` (0..1)."""
    out = []
    for t in tables:
        for run, oracle in t.runs:
            row: dict[str, Any] = {"run": run, "oracle": oracle, "benchmark": t.benchmark, "k": t.k}
            for g in t.groups:
                cell = t.cell(run, g)
                key = _key(t.header(g))
                for m, _ in METRICS:
                    old, new = cell.old_new(m) if cell else (None, None)
                    row[f"{key}_{m}_old"] = old
                    row[f"{key}_{m}_new"] = new
                row[f"{key}_delta"] = cell.delta if cell else None
            out.append(row)
    return out


def display_rows(tables: Sequence[PaperTable], digits: int = 2) -> list[dict[str, object]]:
    """Display strings: ``run``, then ``<Group> N@K`` = ``old→new`` (×100) and ``<Group> Δ``."""
    out = []
    for t in tables:
        for run, oracle in t.runs:
            row: dict[str, Any] = {"run": run_label(run, oracle)}
            if len(tables) > 1:
                row["benchmark"] = t.benchmark
            for g, label, text in _cells(t, run, digits):
                row[f"{t.header(g)} {label}"] = text
            out.append(row)
    return out


def _cells(t: PaperTable, run: str, digits: int) -> list[tuple[str, str, str]]:
    out = []
    for g in t.groups:
        cell = t.cell(run, g)
        for m, letter in METRICS:
            out.append((g, f"{letter}@{t.k}", _old_new(cell, m, digits)))
        out.append((g, "Δ", _delta(cell, digits)))
    return out


# -- Markdown and LaTeX ----------------------------------------------------------------------


def to_markdown(tables: Sequence[PaperTable], digits: int = 2) -> str:
    """GitHub-flavoured Markdown: a heading per table when there are several, then the note."""
    parts = []
    for t in tables:
        rows = display_rows([t], digits)
        cols = list(rows[0]) if rows else ["run"]
        lines = [] if len(tables) == 1 else [f"**{t.benchmark}, K={t.k}**", ""]
        lines.append("| " + " | ".join(_md(c) for c in cols) + " |")
        lines.append("|" + "|".join("---" if c == "run" else "---:" for c in cols) + "|")
        lines += ["| " + " | ".join(_md(r[c]) for c in cols) + " |" for r in rows]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n\n" + note(tables) + "\n"


def to_latex(tables: Sequence[PaperTable], digits: int = 2) -> str:
    """One booktabs ``tabular`` per table (needs ``\\usepackage{booktabs}``), then the note."""
    parts = []
    for t in tables:
        n = len(t.groups)
        spec = "l" + "cccc" * n
        head = " & ".join(f"\\multicolumn{{4}}{{c}}{{{_tex(t.header(g))}}}" for g in t.groups)
        rules = " ".join(f"\\cmidrule(lr){{{2 + 4 * i}-{5 + 4 * i}}}" for i in range(n))
        sub = " & ".join(
            " & ".join([*(f"{letter}@{t.k}" for _, letter in METRICS), "$\\Delta$"])
            for _ in t.groups
        )
        lines = [
            f"% {t.benchmark}, K={t.k}: old$\\to$new (x100); generated by toolex",
            f"\\begin{{tabular}}{{{spec}}}",
            "\\toprule",
            f"Run & {head} \\\\",
            rules,
            f" & {sub} \\\\",
            "\\midrule",
        ]
        first_oracle = True
        for run, oracle in t.runs:
            if oracle and first_oracle and any(not o for _, o in t.runs):
                lines.append("\\midrule")
            first_oracle = first_oracle and not oracle
            label = _tex(run) + ("$^\\dagger$" if oracle else "")
            cells = [
                _tex(text).replace("→", "$\\to$").replace("–", "--")
                for _, _, text in _cells(t, run, digits)
            ]
            lines.append(" & ".join([label, *cells]) + " \\\\")
        lines.append("\\bottomrule")
        if t.oracle:
            legend = _tex(ORACLE_SHORT)
            lines.append(f"\\multicolumn{{{1 + 4 * n}}}{{l}}{{\\footnotesize {legend}}} \\\\")
        lines.append("\\end{tabular}")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n% " + _tex(note(tables)).replace("\n", "\n% ") + "\n"


def note(tables: Sequence[PaperTable]) -> str:
    by = tables[0].by if tables else "category"
    text = (
        f"old→new ×100: old = scored against the original label, new = the best valid "
        f"combination. Δ = mean of the three gains. {AVG} = mean of the {by} means (each "
        f"{by} weighs the same), not the mean over queries."
    )
    if any(t.oracle for t in tables):
        text += " " + ORACLE_NOTE
    return text


def _old_new(cell: MainRow | None, metric: str, digits: int) -> str:
    old, new = cell.old_new(metric) if cell else (None, None)
    if old is None or new is None:  # both or neither: one metric's rows give both
        return "–"
    return f"{100 * old:.{digits}f}→{100 * new:.{digits}f}"


def _delta(cell: MainRow | None, digits: int) -> str:
    if cell is None or cell.delta is None:
        return "–"
    return f"{100 * cell.delta:+.{digits}f}"


def _key(header: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", header.lower()).strip("_") or "group"


def _md(value: object) -> str:
    return str(value).replace("|", "\\|")


_TEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def _tex(text: str) -> str:
    return "".join(_TEX.get(ch, ch) for ch in text).replace("†", "$^\\dagger$")
