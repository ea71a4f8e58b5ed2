"""The report's figures, drawn with matplotlib (no display needed) from the rows of
the report tables, so a figure never shows a number the tables do not hold.

Layout rules that keep them readable at paper size: one idea per figure, axis labels with units,
legends outside the data (above the axes), category labels rotated when there are many, and
``bbox_inches="tight"`` so nothing is clipped. Oracle-assisted (sub-query-level) runs are named
with a † and the figure says what † means, as in the tables (toolex.reports.provenance).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolex.reports.provenance import ORACLE_MARK, ORACLE_SHORT, run_label

if TYPE_CHECKING:  # matplotlib loads only when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.colors import Colormap
    from matplotlib.figure import Figure

    from toolex.reports.main_table import MainRow

METRIC_LABELS = {"ndcg": "NDCG", "recall": "Recall", "comp": "Comp", "mean": "Mean of three"}
KIND_STYLE = {  # kind: (label, colour, line style)
    "gt": ("ground-truth tool", "#1f77b4", "-"),
    "equivalent": ("verified equivalent", "#2ca02c", "--"),
    "random": ("random non-equivalent", "#7f7f7f", ":"),
}
OLD_NEW = ("#9ecae1", "#08519c")  # light = old (original label), dark = new (expanded)
DPI = 150


def safe_name(text: str) -> str:
    """A file-name-safe form of a run or benchmark name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def _subplots(
    nrows: int,
    ncols: int,
    *,
    figsize: tuple[float, float],
    sharey: bool = False,
    width_ratios: Sequence[float] | None = None,
) -> tuple[Figure, list[list[Axes]]]:
    """A figure of its own, outside pyplot: drawing a report selects no backend and touches no
    notebook's figures, and matplotlib loads only when a figure is drawn. Its axes always come
    as a grid (rows x columns), one panel included."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    grid = fig.subplots(nrows, ncols, squeeze=False, sharey=sharey, width_ratios=width_ratios)
    axes: list[list[Axes]] = grid.tolist()
    return fig, axes


def _panels(axes: list[list[Axes]]) -> list[Axes]:
    """The panels of a grid, row by row."""
    return [ax for row in axes for ax in row]


def _cmap(name: str) -> Colormap:
    import matplotlib

    return matplotlib.colormaps[name]


def _save(fig: Figure, path: Path) -> Path:
    from toolex.exports.files import output_file

    # Whole or not at all, like every output (the temporary name's suffix is not .png, so the
    # format is named).
    with output_file(path) as temp:
        fig.savefig(temp, dpi=DPI, bbox_inches="tight", format="png")
    return path


def _oracle_footnote(fig: Figure, labels: Sequence[str]) -> None:
    """Say what † means below the axes when a shown run carries it."""
    if any(label.endswith(ORACLE_MARK) for label in labels):
        fig.text(
            0.01,
            -0.02,
            ORACLE_SHORT,
            fontsize=8,
            ha="left",
            va="top",
        )


def _bar_labels(ax: Axes, labels: Sequence[str]) -> None:
    # per bar about nine characters fit at paper size; a longer name would run into its neighbour
    rotate = len(labels) > 4 or max((len(x) for x in labels), default=0) > 9
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30 if rotate else 0, ha="right" if rotate else "center")


def _height(value: float | None) -> float:
    """A bar's height: a metric the run was not scored on (None) draws no bar."""
    return float("nan") if value is None else value


def main_scores(rows: Sequence[MainRow], k: int, path: Path) -> Path | None:
    """Old vs new of each metric for every run ('all' category): grouped bars per run."""
    rows = [r for r in rows if r.group == "all"]
    if not rows:
        return None
    runs = [run_label(r.run_id, r.oracle) for r in rows]
    width = min(16, max(8, 1.2 * len(runs) * 3))
    fig, axes = _subplots(1, 3, figsize=(width, 3.6), sharey=True)
    for ax, metric in zip(axes[0], ("ndcg", "recall", "comp"), strict=True):
        xs = range(len(runs))
        ax.bar(
            [x - 0.2 for x in xs],
            [_height(r.old_new(metric)[0]) for r in rows],
            0.4,
            color=OLD_NEW[0],
            label="old (original label)",
        )
        ax.bar(
            [x + 0.2 for x in xs],
            [_height(r.old_new(metric)[1]) for r in rows],
            0.4,
            color=OLD_NEW[1],
            label="new (expanded)",
        )
        ax.set_title(f"{METRIC_LABELS[metric]}@{k}")
        _bar_labels(ax, runs)
        ax.set_ylim(0, 1.05)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("score (macro over queries)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(
        handles, labels, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 1.08), frameon=False
    )
    _oracle_footnote(fig, runs)
    return _save(fig, path)


def gain_illusion(
    rows: list[dict[str, Any]],
    pair: tuple[str, str],
    k: int,
    path: Path,
    oracle: Collection[str] = (),
) -> Path:
    """Gap (fine-tuned - base) under old and new metrics, per category, one panel per metric;
    ``pair``: (base, fine-tuned) runs; ``oracle``: the oracle-assisted runs among them
    (marked †)."""
    base, tuned = pair
    rows = [r for r in rows if r["base"] == base and r["finetuned"] == tuned]
    cats = list(dict.fromkeys(r["category"] for r in rows))
    fig, axes = _subplots(2, 2, figsize=(max(8, 1.1 * len(cats) * 2), 6.4), sharey=True)
    for ax, metric in zip(_panels(axes), ("ndcg", "recall", "comp", "mean"), strict=True):
        by_cat = {r["category"]: r for r in rows if r["metric"] == metric}
        xs = range(len(cats))
        ax.bar(
            [x - 0.2 for x in xs],
            [by_cat[c]["gap_old"] for c in cats],
            0.4,
            color=OLD_NEW[0],
            label="gap under old metrics",
        )
        ax.bar(
            [x + 0.2 for x in xs],
            [by_cat[c]["gap_new"] for c in cats],
            0.4,
            color=OLD_NEW[1],
            label="gap under new metrics",
        )
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_title(METRIC_LABELS[metric] + (f"@{k}" if metric != "mean" else f" (@{k})"))
        _bar_labels(ax, cats)
        ax.grid(axis="y", alpha=0.3)
    # One figure-level label: per-row labels built from run names are long enough to run into
    # each other across the two rows; the names are in the title.
    fig.supylabel("gap (fine-tuned − base)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(
        handles, labels, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 1.04), frameon=False
    )
    names = [run_label(run, run in oracle) for run in (tuned, base)]
    fig.suptitle(f"Fine-tuning gain: {names[0]} vs {names[1]}", y=1.08)
    fig.tight_layout()
    _oracle_footnote(fig, names)
    return _save(fig, path)


def rank_cdf(
    rows: list[dict[str, Any]], k: int, path: Path, oracle: Collection[str] = ()
) -> Path | None:
    """CDF of the best rank of each kind of tool, one panel per run (``oracle`` runs marked †)."""
    if not rows:
        return None
    series: dict[str, dict[str, tuple[list[int], list[float]]]] = defaultdict(dict)
    for r in rows:
        xs, ys = series[r["run_id"]].setdefault(r["kind"], ([], []))
        xs.append(r["rank_cutoff"])
        ys.append(r["share"])
    runs = list(series)
    ncols = min(3, len(runs))
    nrows = -(-len(runs) // ncols)
    fig, axes = _subplots(nrows, ncols, figsize=(4.2 * ncols, 3.4 * nrows), sharey=True)
    for ax, run in zip(_panels(axes), runs, strict=False):
        for kind, (label, colour, style) in KIND_STYLE.items():
            if kind in series[run]:
                xs, ys = series[run][kind]
                ax.step(xs, ys, where="post", color=colour, linestyle=style, label=label)
        # the cut-off goes in the legend, not as text on the axes, where it would meet a line
        ax.axvline(k, color="black", linewidth=0.8, alpha=0.6, label=f"cut-off K={k}")
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_title(run_label(run, run in oracle), fontsize=10)
        ax.set_xlabel("best rank (log scale)")
        ax.grid(alpha=0.3)
    for ax in (row[0] for row in axes):
        ax.set_ylabel("share of queries ≤ rank")
    for ax in _panels(axes)[len(runs) :]:
        ax.set_visible(False)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(
        handles, labels, loc="upper center", ncol=4, bbox_to_anchor=(0.5, 1.06), frameon=False
    )
    fig.tight_layout()
    _oracle_footnote(fig, [run_label(run, run in oracle) for run in runs])
    return _save(fig, path)


def heterogeneity(rows: list[dict[str, Any]], k: int, path: Path) -> Path | None:
    """Δ per category, one bar per run; one panel per benchmark (their categories differ).
    Runs of sub-query level (``level``) are marked † as oracle-assisted."""
    if not rows:
        return None
    oracle = {r["run_id"] for r in rows if r.get("level") == "subquery"}
    benches = list(dict.fromkeys(r.get("benchmark", "") for r in rows))
    sizes = [len({r["category"] for r in rows if r.get("benchmark", "") == b}) for b in benches]
    fig, axes = _subplots(
        1,
        len(benches),
        figsize=(max(6, 2.2 * sum(sizes) + 2), 3.8),
        width_ratios=[max(1, n) for n in sizes],
        sharey=True,
    )
    cmap = _cmap("tab10")
    colour = {run: cmap(i % 10) for i, run in enumerate(dict.fromkeys(r["run_id"] for r in rows))}
    for ax, bench in zip(axes[0], benches, strict=True):
        part = [r for r in rows if r.get("benchmark", "") == bench]
        runs = list(dict.fromkeys(r["run_id"] for r in part))
        cats = sorted({r["category"] for r in part})
        value = {(r["run_id"], r["category"]): r["delta"] for r in part}
        width = 0.8 / len(runs)
        for i, run in enumerate(runs):
            xs = [x - 0.4 + width * (i + 0.5) for x in range(len(cats))]
            ax.bar(
                xs,
                [value.get((run, c), 0.0) for c in cats],
                width,
                label=run_label(run, run in oracle),
                color=colour[run],
            )
        ax.axhline(0, color="black", linewidth=0.8)
        _bar_labels(ax, cats)
        ax.set_title(bench)
        ax.set_xlabel("category")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(
            loc="upper center",
            bbox_to_anchor=(0.5, -0.18),
            frameon=False,
            ncol=min(3, len(runs)),
            fontsize=8,
            title=f"run ({ORACLE_MARK} = oracle-assisted, sub-query level)" if oracle else "run",
            title_fontsize=8,
        )
    axes[0][0].set_ylabel(f"Δ = mean gain of N/R/C@{k}")
    fig.tight_layout()
    return _save(fig, path)


def doc_lengths(rows: list[dict[str, Any]], path: Path) -> Path | None:
    """Histogram of documentation length (words) per benchmark, one step line per category."""
    if not rows:
        return None
    import numpy as np

    by_bench: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        by_bench[r["benchmark"]][r["category"]].append(max(1, int(r["n_words"])))
    benches = list(by_bench)
    fig, axes = _subplots(1, len(benches), figsize=(5 * len(benches), 3.6))
    cmap = _cmap("tab10")
    for ax, bench in zip(axes[0], benches, strict=True):
        cats = by_bench[bench]
        top = max(max(v) for v in cats.values())
        bins: list[float] = np.logspace(0, np.log10(max(top, 10)) + 0.05, 30).tolist()
        many = len(cats) > 8  # a pooled library with dozens of categories: draw the pool only
        groups = {"all tools": [n for v in cats.values() for n in v]} if many else cats
        for i, (cat, values) in enumerate(sorted(groups.items())):
            ax.hist(
                values,
                bins=bins,
                histtype="step",
                linewidth=1.5,
                color=cmap(i % 10),
                label=f"{cat} (n={len(values)})",
            )
        ax.set_xscale("log")
        ax.set_xlabel("documentation length (words, log scale)")
        ax.set_title(bench)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, frameon=False)
    axes[0][0].set_ylabel("tools")
    fig.tight_layout()
    return _save(fig, path)
