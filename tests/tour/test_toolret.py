"""The Tour's ToolRet chain: load, three retrievals, a run exported and imported, the heuristic
expansion, eval (all four forms), check, report, info. The retrieval over an embedding endpoint
and the LLM dry run are test_toolret_models.py's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tour.commands import run_chain

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]


def test_the_toolret_chain_runs_as_written(shared_data: Path, tmp_path: Path) -> None:
    work = run_chain("toolret", shared_data, tmp_path, None)
    assert (work / "report" / "report.md").is_file()
    assert (work / "bm25.run").is_file() and (work / "my_model.trec").is_file()
