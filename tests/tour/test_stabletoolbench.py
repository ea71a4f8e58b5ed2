"""The Tour's StableToolBench chain: its expansion and stats, the judges measured on the shipped
labels and on imported ones, the exports, and `toolex sql`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tour.commands import run_chain

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]


def test_the_stabletoolbench_chain_runs_as_written(shared_data: Path, tmp_path: Path) -> None:
    work = run_chain("stabletoolbench", shared_data, tmp_path, None)
    assert (work / "expanded.parquet").is_file() and (work / "triples.jsonl").is_file()
