"""The Tour's toolink chain: an expansion whose candidates come from an embedding endpoint, its
candidate lists exported with `toolex sql --out` and loaded into a second expansion, and the
ledger of the calls it made."""

from __future__ import annotations

from pathlib import Path

import pytest

from tour.commands import run_chain, scripted_server

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]


def test_the_toolink_chain_runs_as_written(shared_data: Path, tmp_path: Path) -> None:
    with scripted_server() as server:
        work = run_chain("toolink", shared_data, tmp_path, server.url)
    assert server.count("embeddings") > 0  # the dense expansion's candidates came over HTTP
    assert (work / "elsewhere.parquet").is_file()
