"""The Tour's ToolRet chain: load, the four retrievals, a run exported and imported, the
heuristic expansion, the LLM dry run, eval (all four forms), check, report, info."""

from __future__ import annotations

import pytest

from tour.commands import run_chain, scripted_server

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]


def test_the_toolret_chain_runs_as_written(shared_data, tmp_path):
    with scripted_server() as server:
        work = run_chain("toolret", shared_data, tmp_path, server.url)
    assert server.count("embeddings") > 0  # the endpoint retriever ran over HTTP
    assert (work / "report" / "report.md").is_file()
    assert (work / "bm25.run").is_file() and (work / "my_model.trec").is_file()
