"""The Tour's ToolRet commands that name a remote model: the retrieval over an embedding endpoint
(the scripted server) and the LLM expansion's dry run, which needs no key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tour.commands import run_chain, scripted_server

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]


# Nothing in the chain reads the endpoint run's ranking, only that it was made over HTTP: a
# quarter of the toolink chain's width still ranks (nDCG@10 0.21 on the four tasks, 0.29 at
# 1,024, BM25 0.49) and cost 11.5 CPU-s against 27.3 (2026-12-07, load 19, one run each, while
# the client still parsed answers through the SDK's models).
DIM = 256


def test_the_toolret_models_chain_runs_as_written(shared_data: Path, tmp_path: Path) -> None:
    with scripted_server(DIM) as server:
        run_chain("toolret-models", shared_data, tmp_path, server.url)
    assert server.count("embeddings") > 0  # the endpoint retriever ran over HTTP
