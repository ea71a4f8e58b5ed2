"""Importing runs through the API: a file, a DataFrame, a dict, an Arrow table, a ranx Run;
all stored as `toolex runs import` stores a file, and refused with the same typed errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

import toolex
from api.conftest import RUN, cli_run


def _ranking(store: toolex.Store, run: str) -> list[tuple[str, str, int]]:
    table = toolex.sql(
        store,
        "SELECT query_id, item_id, rank FROM run_results WHERE run_id = ? ORDER BY ALL",
        [run],
    )
    return [tuple(r.values()) for r in table.to_pylist()]


# A ranx Run is made and imported in a child with numba's JIT off (as references/ranx_nojit.py
# runs ranx): the same ranx code, interpreted, in ~2 CPU-s, where a fresh environment compiled
# its kernels for this one tiny run (15-50 CPU-s, the slowest test of tests/api).
RANX_IMPORT = """
import json, sys
from ranx import Run
import toolex
from tests.api.conftest import RUN
with toolex.open(sys.argv[1]) as store:
    done = toolex.import_run(store, Run(RUN), run="ranx", benchmark="b")
print(json.dumps([done.queries, done.results, done.format]))
"""


def _import_ranx_run(db: str) -> tuple[int, int, str]:
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", RANX_IMPORT, db],
        capture_output=True, text=True, timeout=300, cwd=root,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    queries, results, fmt = json.loads(out.stdout.strip().splitlines()[-1])
    return queries, results, fmt


def test_every_source_stores_the_same_ranking(db: str, tmp_path: Path) -> None:
    trec = tmp_path / "run.trec"
    trec.write_text(
        "".join(f"{q} Q0 {d} 0 {s} t\n" for q, docs in RUN.items() for d, s in docs.items()),
        encoding="utf-8",
    )
    rows = [(q, d, s) for q, docs in RUN.items() for d, s in docs.items()]
    frame = pd.DataFrame(rows, columns=["qid", "docid", "score"])  # the readers' aliases
    with toolex.open(db) as store:
        done = {
            "file": toolex.import_run(store, trec, run="file", benchmark="b"),
            "frame": toolex.import_run(store, frame, run="frame", benchmark="b"),
            "dict": toolex.import_run(store, RUN, run="dict", benchmark="b"),
            "arrow": toolex.import_run(
                store, pa.Table.from_pandas(frame), run="arrow", benchmark="b"
            ),
        }
    got = {name: (r.queries, r.results, r.format) for name, r in done.items()}
    got["ranx"] = _import_ranx_run(db)
    assert {name: counts[:2] for name, counts in got.items()} == dict.fromkeys(got, (3, 9))
    assert {counts[2] for counts in got.values()} == {"trec", "dataframe", "dict", "arrow", "ranx"}
    with toolex.open(db, read_only=True) as store:
        listed = toolex.list_runs(store)
        rankings = {name: _ranking(store, name) for name in got}
    assert rankings["file"][:3] == [("q1", "a", 2), ("q1", "a2", 3), ("q1", "x", 1)]
    assert all(r == rankings["file"] for r in rankings.values())
    assert sorted(listed["run"]) == sorted(got)
    assert set(listed["results"]) == {9}
    # The CLI lists what the API stored.
    out, _ = cli_run("runs", "list", "--db", db, "--format", "csv")
    assert out.count("\n") == 1 + len(got)


def test_delete_run(db: str) -> None:
    with toolex.open(db) as store:
        toolex.import_run(store, RUN, run="dict", benchmark="b")
        assert toolex.delete_run(store, "dict") == 9
        with pytest.raises(toolex.NotFoundError, match="dict"):
            toolex.delete_run(store, "dict")


def test_bad_runs_raise_input_errors_naming_where(db: str) -> None:
    with toolex.open(db) as store:
        with pytest.raises(toolex.InputError, match="query id 'q9' is not in benchmark 'b'"):
            toolex.import_run(store, {"q9": {"a": 1.0}}, run="r", benchmark="b")
        done = toolex.import_run(
            store, {"q9": {"a": 1.0}, "q1": {"a": 1.0}}, run="r", benchmark="b", skip_unknown=True
        )
        assert (done.queries, done.notes) == (1, ["skipped 1 result(s) of 1 unknown query id(s)"])
        with pytest.raises(toolex.InputError, match="not a number"):
            toolex.import_run(store, {"q1": {"a": "high"}}, run="s", benchmark="b")
        frame = pd.DataFrame({"query_id": ["q1", "q1"], "item_id": ["a", "b"], "score": [1, None]})
        with pytest.raises(toolex.InputError, match=r"<DataFrame s>:2, field 'score'"):
            toolex.import_run(store, frame, run="s", benchmark="b")
        with pytest.raises(toolex.InputError, match="no item_id column"):
            toolex.import_run(store, frame[["query_id", "score"]], run="s", benchmark="b")
        with pytest.raises(toolex.InputError, match="item 'a' is listed twice"):
            toolex.import_run(
                store,
                pd.DataFrame({"qid": ["q1", "q1"], "docid": ["a", "a"], "score": [1.0, 2.0]}),
                run="s",
                benchmark="b",
            )
        with pytest.raises(toolex.InputError, match="cannot read a run from a list"):
            toolex.import_run(store, [("q1", "a", 1.0)], run="s", benchmark="b")
        with pytest.raises(toolex.InputError, match="holds no results"):
            toolex.import_run(store, {}, run="s", benchmark="b")
        with pytest.raises(toolex.NotFoundError, match="benchmark"):
            toolex.import_run(store, RUN, run="s", benchmark="nope")
        with pytest.raises(toolex.ToolexError, match="'r'"):
            toolex.import_run(store, RUN, run="r", benchmark="b")  # exists, no replace
