"""What checking a dense index's files costs: the check toolex runs before trusting a stored
LanceDB table (toolex.retrieval.index_files.files_match: sizes, then a CRC-32 of every file the
table is read from), against SHA-256 over the same bytes.

    python benchmarks/bench_index_check.py                     # 50k and 200k rows, 256-d
    python benchmarks/bench_index_check.py --sizes 200000 --dim 384 --repeats 5

Data: random float32 vectors (the check reads bytes; what they hold does not matter), written as
toolex writes a flat table (item_id, two int32 scope codes, the vector) into a temporary folder.
Each figure is the median of ``--repeats`` passes after one warm-up pass (files in the page
cache, as after a build; a cold read adds the disk's time to either), with the load average
printed beside it: the machine is shared."""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa

from toolex.retrieval.index_files import files_match, table_files


def _sha256_all(table_dir: Path) -> None:
    for path in sorted(table_dir.rglob("*")):
        if path.is_file():
            with path.open("rb") as fh:
                hashlib.file_digest(fh, "sha256")


def _median_s(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm-up: the files in the page cache
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="50000,200000")
    ap.add_argument("--dim", type=int, default=256)  # WordLlama's; MiniLM's is 384
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("LANCEDB_LOG", "error")
    import lancedb

    print(f"dim {args.dim}; medians of {args.repeats} warm passes")
    print(f"{'rows':>8} {'MB':>7} {'check s':>8} {'CRC MB/s':>9} {'SHA-256 s':>10} {'load':>5}")
    for n in (int(s) for s in args.sizes.split(",")):
        rng = np.random.default_rng(0)
        vectors = rng.standard_normal((n, args.dim), dtype=np.float32)
        table = pa.table(
            {
                "item_id": pa.array([f"tool-{i}" for i in range(n)]),
                "task_code": pa.array(np.zeros(n, np.int32)),
                "category_code": pa.array(np.zeros(n, np.int32)),
                "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel()), args.dim),
            }
        )
        with tempfile.TemporaryDirectory(prefix="bench-index-check-") as tmp:
            lancedb.connect(tmp).create_table("t", table)
            table_dir = Path(tmp) / "t.lance"
            recorded = table_files(table_dir)
            size_mb = sum(v["size"] for v in recorded.values()) / 1e6
            check = _median_s(partial(files_match, table_dir, recorded), args.repeats)
            sha = _median_s(partial(_sha256_all, table_dir), args.repeats)
            load = os.getloadavg()[0]
        print(
            f"{n:>8} {size_mb:>7.1f} {check:>8.3f} {size_mb / check:>9.0f} {sha:>10.3f} "
            f"{load:>5.1f}"
        )


if __name__ == "__main__":
    main()
