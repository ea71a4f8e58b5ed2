"""examples/score_a_retriever.py runs (issue 33, point 4): a BM25 retriever defined in Python,
scored old vs new on two shared ToolRet tasks (one web, one code) through the API."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "score_a_retriever.py"


@pytest.mark.shared_data
@pytest.mark.timeout(900)  # about 35 s at load 10; the deadline only stops a hang
def test_example_scores_bm25s_old_vs_new(
    shared_data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    plot = tmp_path / "gains.png"
    monkeypatch.setenv("TOOLEX_DATA", str(shared_data / "toolret"))
    monkeypatch.setenv("TOOLEX_TASKS", "apibank,toolink")
    monkeypatch.setenv("TOOLEX_PLOT", str(plot))
    done = runpy.run_path(str(EXAMPLE), run_name="__main__")
    scores = done["scores_df"]
    assert set(scores["group"]) == {"code", "web", "all", "avg (category mean)"}
    assert set(scores["metric"]) == {"nDCG@10", "R@10", "Comp@10"}
    assert (scores["new"] >= scores["old"]).all()
    at = scores.set_index(["group", "metric"])
    # the old scores are BM25's alone (the labels as annotated): ToolRet's own figures for
    # BM25 on these tasks are of this size
    assert at.loc[("all", "nDCG@10"), "old"] == pytest.approx(0.396, abs=0.03)
    assert at.loc[("all", "R@10"), "n_queries"] == 598
    # the expansion found equivalents the annotation missed, on code
    assert at.loc[("code", "R@10"), "gain"] > 0
    assert done["imported"].queries == 597  # one query shares no word with any tool
    assert plot.stat().st_size > 10_000
    out = capsys.readouterr().out
    assert "loaded 598 queries and 1905 tools of apibank, toolink" in out


def test_notebook_is_made_from_the_script() -> None:
    """examples/score_a_retriever.ipynb is what examples/to_notebook.py makes of the script."""
    made = runpy.run_path(str(EXAMPLE.parent / "to_notebook.py"))["notebook"](EXAMPLE)
    assert EXAMPLE.with_suffix(".ipynb").read_text(encoding="utf-8") == made
    book = json.loads(made)
    kinds = [c["cell_type"] for c in book["cells"]]
    assert kinds.count("markdown") == 6 and kinds.count("code") == 7
