"""The Hub path: fails fast and clearly offline; with the files cached and HF_HUB_OFFLINE set it
loads them without any network call."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from toolex.errors import ModelUnavailableError, ToolexError
from toolex.loaders.hub import load_toolret_hub
from toolex.store import Store


def connections(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The addresses every socket connects to from now on. "Fails fast" is counted in
    connection attempts, not timed (issue 25: no test depends on how busy the machine is)."""
    made: list[object] = []
    real = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> None:  # socket's own address type
        made.append(address)
        real(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return made


def test_offline_env_fails_fast_naming_the_alternative(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    made = connections(monkeypatch)
    with pytest.raises(ModelUnavailableError, match="toolex load toolret <folder>"):
        load_toolret_hub(store, ["apibank"], cache_dir=tmp_path)
    assert made == []  # offline: not one connection tried


def test_unreachable_hub_fails_fast(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    made = connections(monkeypatch)
    with pytest.raises(ModelUnavailableError, match="not reachable.*toolex load toolret"):
        load_toolret_hub(
            store, ["apibank"], cache_dir=tmp_path, endpoint=f"http://127.0.0.1:{port}"
        )
    assert made == [("127.0.0.1", port)]  # one probe, refused: no retries with backoff
    assert store.con.execute("SELECT count(*) FROM benchmarks").fetchall()[0][0] == 0


def test_unknown_task(store: Store, tmp_path: Path) -> None:
    with pytest.raises(ToolexError, match="unknown ToolRet task"):
        load_toolret_hub(store, ["nope"], cache_dir=tmp_path)


def test_cached_files_load_offline(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
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
    row = store.con.execute("SELECT format, source FROM benchmarks").fetchall()[0]
    assert row[0] == "hub" and row[1].startswith("hf://datasets/mangopy/ToolRet-Queries+")
    assert store.con.execute("SELECT category FROM items").fetchall()[0][0] == "web"


class _ScriptedHub:
    """Serves Hub 'resolve' URLs on 127.0.0.1, so huggingface_hub's real download code runs."""

    def __init__(self, files: dict[str, bytes]) -> None:
        import hashlib
        import http.server
        import threading

        self.paths: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _send(self, body: bool) -> None:
                outer.paths.append(f"{self.command} {self.path}")
                data = files.get(self.path.split("?")[0])
                if data is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("ETag", f'"{hashlib.sha256(data).hexdigest()}"')
                self.send_header("X-Repo-Commit", "a" * 40)
                self.end_headers()
                if body:
                    self.wfile.write(data)

            def do_HEAD(self) -> None:
                self._send(False)

            def do_GET(self) -> None:
                self._send(True)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _parquet(table: pa.Table) -> bytes:
    import io

    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def test_download_through_huggingface_hub(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    labels = json.dumps([{"id": "apibank_tool_1", "relevance": 1}])
    queries = pa.table(
        {
            "id": ["apibank_query_0"],
            "query": ["Add a meeting"],
            "instruction": ["i"],
            "labels": [labels],
        }
    )
    tools = pa.table(
        {
            "id": ["apibank_tool_0", "apibank_tool_1", "apigen_tool_0"],
            "documentation": [json.dumps({"name": n}) for n in ("GetUserToken", "AddMeeting", "X")],
        }
    )
    base = "/datasets/mangopy/{}/resolve/main/{}"
    hub = _ScriptedHub(
        {
            base.format("ToolRet-Queries", "apibank/queries-00000-of-00001.parquet"): _parquet(
                queries
            ),
            base.format("ToolRet-Tools", "web/tools-00000-of-00001.parquet"): _parquet(tools),
        }
    )
    try:
        result = load_toolret_hub(
            store, ["apibank"], cache_dir=tmp_path, revision="main", endpoint=hub.url
        )
    finally:
        hub.close()
    # the web pool is filtered to apibank's own tools (id prefix apibank_tool_)
    assert (result.items, result.queries, result.qrels) == (2, 1, 1)
    assert (
        "GET /datasets/mangopy/ToolRet-Tools/resolve/main/web/tools-00000-of-00001.parquet"
        in hub.paths
    )
    assert (tmp_path / "ToolRet-Queries/apibank/queries-00000-of-00001.parquet").is_file()
    assert store.con.execute("SELECT source FROM benchmarks").fetchall()[0][0] == (
        "hf://datasets/mangopy/ToolRet-Queries+mangopy/ToolRet-Tools@main+main"
    )
