"""Run import vs run evaluation: CPU seconds of ``toolex runs import`` against ``toolex eval`` of
the same run, in one process, under the same load.

    python benchmarks/bench_run_import.py                # 765 queries x 903 = 690,795 rows
    python benchmarks/bench_run_import.py --depth 100    # quick

The store holds the shared StableToolBench (765 queries, 2,479 tools; 82% of its item ids hold
spaces, so the TREC file carries them percent-encoded, the costly case for the reader). The run
file is synthetic and seeded: every query ranks ``--depth`` distinct tools with 4-decimal scores
(ties), written as trec_eval writes runs. Each repetition imports it under a new run name (a
fresh import, as a user's would be), then scores it as ``toolex eval --run`` does
(``metrics.summary``, K=10: the top 10 of each query are read), and with the uncut RR and AP
(every row is read, as the import writes every row). CPU seconds are the process's
(``time.process_time``: every thread, DuckDB's included); the medians and their ratio are
printed with ``os.getloadavg``.

The reference for the reader is toolex's line-at-a-time TREC reader before issue 11, kept below
(``per_line_reader``) and timed in the same run on the same file.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

import numpy as np
import pyarrow as pa
import reads

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from toolex import metrics  # noqa: E402
from toolex.loaders import load_stabletoolbench  # noqa: E402
from toolex.loaders.readers import read_text  # noqa: E402
from toolex.loaders.trec_ids import trec_escape, trec_unescape  # noqa: E402
from toolex.runs import import_run  # noqa: E402
from toolex.runs.formats import RESULT_SCHEMA, read_run  # noqa: E402
from toolex.store import Store  # noqa: E402

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "stabletoolbench"


def write_run_file(store: Store, path: Path, depth: int, seed: int = 0) -> int:
    queries = [q for (q,) in reads.rows(store, "SELECT query_id FROM queries ORDER BY 1")]
    items = [trec_escape(i) for (i,) in reads.rows(store, "SELECT item_id FROM items ORDER BY 1")]
    rng = np.random.default_rng(seed)
    depth = min(depth, len(items))
    with path.open("w", encoding="utf-8") as fh:
        for q in queries:
            picked = rng.choice(len(items), depth, replace=False)
            scores = np.sort(np.round(rng.random(depth), 4))[::-1]
            qid = trec_escape(q)
            fh.writelines(
                f"{qid} Q0 {items[i]} {rank} {score} bench\n"
                for rank, (i, score) in enumerate(zip(picked, scores, strict=True), start=1)
            )
    return len(queries) * depth


def per_line_reader(path: Path) -> pa.Table:
    """toolex's TREC reader before issue 11 (one Python split, regex and unescape per line)."""
    import re

    score_re = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)
    qids, dids, scores, lines = [], [], [], []
    for lineno, line in enumerate(read_text(path).split("\n"), start=1):
        cols = line.split()
        if not cols:
            continue
        assert len(cols) == 6, lineno
        value = float(cols[4]) if score_re.fullmatch(cols[4]) else math.nan
        assert math.isfinite(value), lineno
        qids.append(trec_unescape(cols[0]))
        dids.append(trec_unescape(cols[2]))
        scores.append(value)
        lines.append(lineno)
    return pa.table(
        {
            "query_id": qids,
            "item_id": dids,
            "score": scores,
            "slot": [None] * len(qids),
            "line": lines,
        },
        schema=RESULT_SCHEMA,
    )


T = TypeVar("T")


def cpu(fn: Callable[[], T]) -> tuple[T, float, float]:
    """(result, CPU seconds, wall seconds) of ``fn()``."""
    c, w = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c, time.perf_counter() - w


def load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=903, help="results per query (903: 690,795)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    from click.testing import CliRunner

    from toolex.cli import cli

    tmp = Path(tempfile.mkdtemp(prefix="bench-run-import-"))
    db = tmp / "bench.duckdb"
    store = Store.open(db)
    load_stabletoolbench(store, SHARED)
    run_file = tmp / "run.trec"
    rows = write_run_file(store, run_file, args.depth)
    store.close()  # each step below opens the store file as a user's command would
    print(
        f"run file: {rows:,} rows, {run_file.stat().st_size / 1e6:.1f} MB; "
        f"cpus {os.cpu_count()}; {load()}"
    )

    def command(*argv: str) -> None:
        result = CliRunner().invoke(cli, [*argv, "--db", str(db)], catch_exceptions=False)
        assert result.exit_code == 0, result.output

    times: dict[str, list[tuple[float, float]]] = {}

    def timed(step: str, fn: Callable[[], T]) -> T:
        out, c, w = cpu(fn)
        times.setdefault(step, []).append((c, w))
        return out

    for r in range(args.repeats):
        new = timed("read_run (columnar)", lambda: read_run(run_file, "trec"))
        old = timed("read (per line, reference)", lambda: per_line_reader(run_file))
        assert new.equals(old), "the columnar reader and the reference disagree"
        del new, old
        api, st = f"api{r}", Store.open(db)
        timed(
            "import_run (API)",
            lambda: import_run(st, run_file, run=api, benchmark="stabletoolbench"),  # noqa: B023
        )
        timed("metrics.summary (API)", lambda: metrics.summary(st, [api], (10,)))  # noqa: B023
        st.close()
        cmd = f"cli{r}"
        timed(
            "toolex runs import",
            partial(
                command,
                "runs",
                "import",
                str(run_file),
                "--run",
                cmd,
                "--benchmark",
                "stabletoolbench",
            ),
        )
        timed("toolex eval", partial(command, "eval", "--run", cmd))
        timed(  # uncut RR and AP read every row of the run, as the import writes every row
            "toolex eval -m RR -m AP",
            partial(command, "eval", "--run", cmd, "-m", "RR", "-m", "AP"),
        )
        print(f"  repetition {r + 1}: {load()}", flush=True)
    shutil.rmtree(tmp, ignore_errors=True)

    med = {
        k: (statistics.median(c for c, _ in v), statistics.median(w for _, w in v))
        for k, v in times.items()
    }
    print(f"{'step':<28} {'CPU s':>7} {'wall s':>7}   (median of {args.repeats})")
    for k, (c, w) in med.items():
        print(f"{k:<28} {c:7.2f} {w:7.2f}")
    cli_ratio = med["toolex runs import"][0] / med["toolex eval"][0]
    whole_ratio = med["toolex runs import"][0] / med["toolex eval -m RR -m AP"][0]
    api_ratio = med["import_run (API)"][0] / med["metrics.summary (API)"][0]
    speedup = med["read (per line, reference)"][0] / med["read_run (columnar)"][0]
    print(
        f"import / eval CPU: {cli_ratio:.1f}x (commands), {api_ratio:.1f}x (API), "
        f"{whole_ratio:.1f}x against an eval that reads the whole run (uncut RR, AP); reader "
        f"{speedup:.1f}x faster than the per-line reference; {load()}"
    )


if __name__ == "__main__":
    main()
