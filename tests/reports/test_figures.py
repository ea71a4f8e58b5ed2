"""Figures: drawn from table rows, None when there is nothing to draw, PNGs otherwise."""

from __future__ import annotations

from pathlib import Path

from toolex.reports import figures


def _png(path: Path | None) -> bool:
    assert path is not None
    return path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_empty_rows_draw_nothing(tmp_path: Path) -> None:
    assert figures.rank_cdf([], 10, tmp_path / "a.png") is None
    assert figures.heterogeneity([], 10, tmp_path / "b.png") is None
    assert figures.doc_lengths([], tmp_path / "c.png") is None
    assert figures.main_scores([], 10, tmp_path / "d.png") is None
    assert not list(tmp_path.iterdir())


def test_pooled_library_with_many_categories_draws_one_histogram(tmp_path: Path) -> None:
    rows = [
        {"benchmark": "stb", "category": f"cat{i % 30}", "item_id": str(i), "n_words": 5 + i}
        for i in range(300)
    ]
    path = figures.doc_lengths(rows, tmp_path / "lengths.png")
    assert path is not None and _png(path)


def test_cdf_with_more_runs_than_columns(tmp_path: Path) -> None:
    rows = [
        {"run_id": f"run{r}", "kind": kind, "rank_cutoff": c, "share": c / 10}
        for r in range(4)
        for kind in ("gt", "equivalent", "random")
        for c in range(1, 11)
    ]
    path = figures.rank_cdf(rows, 5, tmp_path / "cdf.png")
    assert _png(path)


def test_safe_names() -> None:
    assert figures.safe_name("fastembed:BAAI/bge small@/x") == "fastembed_BAAI_bge_small_x"
    assert figures.safe_name("///") == "x"
