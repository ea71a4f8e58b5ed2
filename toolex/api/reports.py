"""What the store says about an expansion and its runs: the annotation statistics of
`toolex stats`, the trust figures printed beside every score, and the exports of
`toolex export`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from toolex.errors import ToolexError

if TYPE_CHECKING:
    import pandas as pd

    from toolex.reports.trust import ExpansionTrust
    from toolex.store import Store

# What :func:`export` writes, by the name of its `toolex export` command.
EXPORTS = ("qrels", "trec-qrels", "trec-run", "toolret-jsonl")


def stats(
    store: Store, benchmark: str, expansion: str = "default", by: str = "all"
) -> pd.DataFrame:
    """The annotation table of `toolex stats`: queries, sub-queries, candidates, verdicts and
    combinations (assembled = valid + rejected + repeated + cut + pending), per group.

    Args:
        store: An open store.
        benchmark: The benchmark.
        expansion: The expansion.
        by: ``all``, ``category`` or ``task``.

    Returns:
        pandas DataFrame, one row per group, the columns of `toolex stats --format csv`.
    """
    from toolex.api.optional import pandas

    pd = pandas()
    from toolex.pipeline.stats import annotation_rows

    store.require_expansion(store.require_benchmark(benchmark), expansion)
    rows = annotation_rows(store, benchmark, expansion, by)
    return pd.DataFrame.from_records([r._asdict() for r in rows])


def trust(store: Store, benchmark: str, expansion: str = "default") -> ExpansionTrust | None:
    """What stands behind an expansion's new labels: each stage judge's measured precision and
    recall (or "unvalidated") and the review's combination precision.

    Args:
        store: An open store.
        benchmark: The benchmark.
        expansion: The expansion.

    Returns:
        The figures (``as_dict()`` gives the JSON shape `toolex eval --format json` prints),
        or None when the expansion holds nothing.
    """
    from toolex.reports.trust import expansion_trust

    store.require_expansion(store.require_benchmark(benchmark), expansion)
    return expansion_trust(store, benchmark, expansion)


def export(
    store: Store,
    what: str,
    out: str | Path,
    *,
    benchmark: str | None = None,
    expansion: str = "default",
    run: str | None = None,
    mode: str = "original",
    flat: bool = False,
    valid_only: bool = False,
    include_unaudited: bool = False,
) -> int:
    """Write an export file, as the `toolex export` command of that name does.

    Args:
        store: An open store.
        what: ``qrels`` (expanded qrels, Parquet), ``trec-qrels``, ``trec-run`` or
            ``toolret-jsonl``.
        out: The file to write (whole or not at all).
        benchmark: The benchmark (None: the store's only one).
        expansion: The expansion.
        run: The run (``trec-run``).
        mode: ``trec-qrels``: ``original``, ``flat`` or ``per-combination``.
        flat: ``qrels``: one row per (query, item).
        valid_only: ``qrels``: only valid combinations.
        include_unaudited: ``qrels`` with ``flat``: count unaudited combinations.

    Returns:
        The rows (lines, queries) written.

    Raises:
        ToolexError: An unknown export, or ``trec-run`` without ``run``.
    """
    from toolex import exports

    if what == "qrels":
        return exports.export_qrels(
            store,
            out,
            benchmark,
            expansion,
            flat=flat,
            valid_only=valid_only,
            include_unaudited=include_unaudited,
        )
    if what == "trec-qrels":
        return exports.export_trec_qrels(store, out, benchmark, expansion, mode=mode)
    if what == "trec-run":
        if run is None:
            raise ToolexError("export trec-run: name the run (run=...)")
        return exports.export_trec_run(store, out, run)
    if what == "toolret-jsonl":
        return exports.export_toolret_jsonl(store, out, benchmark, expansion)
    raise ToolexError(f"unknown export {what!r}; choose one of {', '.join(EXPORTS)}")
