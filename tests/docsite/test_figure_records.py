"""A figure the docs state is a record a benchmark script wrote (benchmarks/figures.py), shown
with its date, commit, machine and load by the figures hook (docs/hooks/figures.py); a page that
names a record nobody wrote fails the strict build. And every Python block of the docs runs."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]


def module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


@pytest.fixture
def figures() -> ModuleType:
    return module(ROOT / "benchmarks" / "figures.py", "bench_figures")


@pytest.fixture
def hook() -> ModuleType:
    return module(ROOT / "docs" / "hooks" / "figures.py", "figures_hook")


def test_a_record_carries_date_commit_machine_and_load(figures: ModuleType, tmp_path: Path) -> None:
    rows = [{"retriever": "bm25", "share": 0.1184}, {"retriever": "wordllama", "share": 0.2}]
    out = figures.record(
        "bench_x", {"misses": rows, "seconds": 1.5}, data="the sample",
        load_at_start=[1.0, 2.0, 3.0], out=tmp_path / "bench_x.json",
    )  # fmt: skip
    entry = json.loads(out.read_text(encoding="utf-8"))
    assert entry["script"] == "benchmarks/bench_x.py"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", entry["date"])
    assert re.fullmatch(r"([0-9a-f]{7,}|unknown)(-dirty)?", entry["commit"])
    assert entry["machine"]["cores"] == os.cpu_count() and entry["machine"]["ram_gb"] > 0
    assert entry["load"]["start"] == [1.0, 2.0, 3.0] and len(entry["load"]["end"]) == 3
    assert entry["figures"] == {"misses": rows, "seconds": 1.5}
    assert entry["data"] == "the sample"


def test_a_record_refuses_no_figures_and_a_list_that_is_no_table(
    figures: ModuleType, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="no figures"):
        figures.record("bench_x", {}, out=tmp_path / "x.json")
    with pytest.raises(ValueError, match="not a table"):
        figures.record("bench_x", {"shares": [0.1, 0.2]}, out=tmp_path / "x.json")


def test_a_page_shows_a_record_with_where_it_came_from(
    figures: ModuleType, hook: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [{"retriever": "bm25", "share_missed": 0.1184}]
    figures.record("bench_x", {"misses": rows}, data="the sample", out=tmp_path / "bench_x.json")
    monkeypatch.setattr(hook, "RECORDS", tmp_path)
    page = SimpleNamespace(file=SimpleNamespace(src_uri="how-to/import-candidates.md"))
    text = hook.on_page_markdown("Before.\n\n{{ figures bench_x }}\n", page, None, None)
    assert "| retriever | share_missed |" in text and "| bm25 | 0.1184 |" in text
    assert "commit `" in text and "cores" in text and "the sample" in text
    assert "[figures](../figures.md)" in text  # the link is relative to the page
    every = hook.on_page_markdown("{{ figures }}", page, None, None)
    assert "## bench_x {#bench_x}" in every and "## judges {#judges}" in every


def test_a_page_naming_a_record_nobody_wrote_warns(
    hook: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """mkdocs build --strict turns the warning into a failed build."""
    monkeypatch.setattr(hook, "RECORDS", tmp_path)
    page = SimpleNamespace(file=SimpleNamespace(src_uri="concepts.md"))
    with caplog.at_level(logging.WARNING, logger="mkdocs.hooks.figures"):
        text = hook.on_page_markdown("{{ figures bench_gone }}", page, None, None)
    assert text == ""
    assert "no record named 'bench_gone'" in caplog.text


def test_every_page_names_only_records_that_exist() -> None:
    named = {
        name
        for path in (ROOT / "docs").rglob("*.md")
        for name in re.findall(r"\{\{\s*figures\s+([\w.-]+)\s*\}\}", path.read_text("utf-8"))
    }
    written = {p.stem for p in (ROOT / "docs" / "figures").glob("*.json")} | {"judges"}
    assert named <= written, f"pages quote records no script wrote: {sorted(named - written)}"


def python_blocks() -> list[tuple[str, str]]:
    return [
        (f"{path.relative_to(ROOT)}#{i}", block)
        for path in sorted((ROOT / "docs").rglob("*.md"))
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", path.read_text("utf-8"), re.S))
    ]


@pytest.mark.parametrize("where, code", python_blocks() or [("none", "")])
def test_every_python_block_of_the_docs_runs(where: str, code: str, tmp_path: Path) -> None:
    """A Python example on a page (the API pages above all) runs as a reader pastes it."""
    if not code:
        pytest.skip("the docs hold no Python block")
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{where}:\n{done.stderr[-3000:]}"
