"""The Tour's ToolRet commands that name a remote model: the retrieval over an embedding endpoint
(the scripted server) and the LLM expansion's dry run, which needs no key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tour.commands import run_chain, scripted_server

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]


def test_the_toolret_models_chain_runs_as_written(shared_data: Path, tmp_path: Path) -> None:
    with scripted_server() as server:
        run_chain("toolret-models", shared_data, tmp_path, server.url)
    assert server.count("embeddings") > 0  # the endpoint retriever ran over HTTP
