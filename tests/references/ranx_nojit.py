"""ranx, the independent reference for RRF and the metrics, run in a child process with numba's
JIT off.

ranx's kernels are numba functions compiled on first use and cached inside the installed
package, so every fresh virtual environment (every CI run) paid ~50 CPU-s compiling them for a
few dozen tiny queries. ``NUMBA_DISABLE_JIT=1`` makes numba's decorators return the plain Python
functions: the same ranx source computes the same values, interpreted, in ~2 CPU-s. It is set only
in the child, because numba reads it once at import and bm25s (used by toolex itself) needs its
JIT to be fast.

    results = call([{"op": "fuse", ...}, {"op": "evaluate", ...}])  # one child for the batch

Requests and results travel as JSON (floats round-trip exactly through ``repr``). A run or qrels
is given as ``{"data": {query_id: {item_id: score}}}`` or as ``{"file": path}``, read by ranx's
own TREC reader.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def call(requests: list[dict[str, Any]]) -> list[Any]:
    """Answer every request in one child process; a ranx error fails with ranx's traceback."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, str(Path(__file__))],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    if done.returncode:
        raise AssertionError(f"the ranx child failed:\n{done.stderr}")
    results: list[Any] = json.loads(done.stdout)
    return results


def fuse_request(runs: list[dict[str, dict[str, float]]]) -> dict[str, Any]:
    """ranx ``fuse(runs, method="rrf", norm=None)`` (k = 60, its default)."""
    return {"op": "fuse", "runs": runs}


def evaluate_request(
    qrels: dict[str, Any], run: dict[str, Any], metrics: list[str], *, mean: bool = True
) -> dict[str, Any]:
    """ranx ``evaluate``: ``{metric: mean}``, or with ``mean=False`` ``{metric: [per query, in
    the qrels' query order]}`` (ranx's order, as ``Qrels.keys()`` gives it)."""
    return {"op": "evaluate", "qrels": qrels, "run": run, "metrics": metrics, "mean": mean}


def _answer(request: dict[str, Any]) -> Any:  # runs in the child
    from ranx import Qrels, Run, evaluate, fuse

    if request["op"] == "fuse":
        runs = [Run(r, name=f"r{i}") for i, r in enumerate(request["runs"])]
        fused = fuse(runs, method="rrf", norm=None).to_dict()
        return {q: {d: float(s) for d, s in docs.items()} for q, docs in fused.items()}
    qrels = _load(Qrels, request["qrels"])
    run = _load(Run, request["run"])
    scores = evaluate(qrels, run, request["metrics"], return_mean=request["mean"])
    if request["mean"]:
        return {m: float(scores[m]) for m in request["metrics"]}
    if len(request["metrics"]) == 1:  # ranx returns the bare array for a single metric
        scores = {request["metrics"][0]: scores}
    return {"keys": list(qrels.keys()), **{m: [float(v) for v in scores[m]] for m in scores}}


def _load(kind: Any, spec: dict[str, Any]) -> Any:
    if "file" in spec:
        return kind.from_file(spec["file"], kind="trec")
    return kind(spec["data"])


if __name__ == "__main__":
    json.dump([_answer(r) for r in json.load(sys.stdin)], sys.stdout)
