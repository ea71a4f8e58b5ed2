"""The Hub path: fails fast and clearly offline; with the files cached and HF_HUB_OFFLINE set it
loads them without any network call."""

from __future__ import annotations

import json
import socket
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from toolex.errors import ModelUnavailableError, ToolexError
from toolex.loaders.hub import load_toolret_hub


def test_offline_env_fails_fast_naming_the_alternative(store, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    start = time.monotonic()
    with pytest.raises(ModelUnavailableError, match="toolex load toolret <folder>"):
        load_toolret_hub(store, ["apibank"], cache_dir=tmp_path)
    assert time.monotonic() - start < 2


def test_unreachable_hub_fails_fast(store, tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.monotonic()
    with pytest.raises(ModelUnavailableError, match="not reachable.*toolex load toolret"):
        load_toolret_hub(
            store, ["apibank"], cache_dir=tmp_path, endpoint=f"http://127.0.0.1:{port}"
        )
    assert time.monotonic() - start < 10
    assert store.con.execute("SELECT count(*) FROM benchmarks").fetchone()[0] == 0


def test_unknown_task(store, tmp_path):
    with pytest.raises(ToolexError, match="unknown ToolRet task"):
        load_toolret_hub(store, ["nope"], cache_dir=tmp_path)


def test_cached_files_load_offline(store, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    q = tmp_path / "ToolRet-Queries/apibank"
    t = tmp_path / "ToolRet-Tools/web"
    q.mkdir(parents=True)
    t.mkdir(parents=True)
    labels = json.dumps([{"id": "apibank_tool_0", "relevance": 1}])
    pq.write_table(
        pa.table(
            {
                "id": ["apibank_query_0"],
                "query": ["Log me in"],
                "instruction": ["i"],
                "labels": [labels],
            }
        ),
        q / "queries-00000-of-00001.parquet",
    )
    docs = [json.dumps({"name": "GetUserToken", "description": "token"}), json.dumps({"name": "X"})]
    pq.write_table(
        pa.table({"id": ["apibank_tool_0", "apigen_tool_0"], "documentation": docs}),
        t / "tools-00000-of-00001.parquet",
    )
    result = load_toolret_hub(store, ["apibank"], cache_dir=tmp_path)
    assert (result.items, result.queries, result.qrels) == (1, 1, 1)
    row = store.con.execute("SELECT format, source FROM benchmarks").fetchone()
    assert row[0] == "hub" and row[1].startswith("hf://datasets/mangopy/ToolRet-Queries+")
    assert store.con.execute("SELECT category FROM items").fetchone()[0] == "web"
