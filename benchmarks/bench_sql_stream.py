"""Peak memory and time of `toolex sql` on a large result (issue 27, point 10: a triple cross
join held 5.3 GB under a 2 GB limit; 1 M rows as a table took 373 s).

    python benchmarks/bench_sql_stream.py                 # 20 M rows of 100 characters
    python benchmarks/bench_sql_stream.py --rows 5000000 --formats table,parquet

Each measurement runs `toolex sql` in a fresh interpreter on an empty store with
TOOLEX_MEMORY_LIMIT=500MB and reads its peak resident set size (``ru_maxrss``). The result is
``SELECT i, repeat('x', 100) AS s FROM range(N)``: about 110 bytes a row as Arrow, so
2.2 GB at 20 M rows. Printed per format: rows written, seconds, peak MB.

The reference, in the same run: the same statement read whole into Arrow the way `toolex sql`
did before it streamed (a DB-API ``execute`` then ``to_arrow_table``), in a fresh interpreter
too: what holding the result costs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import load, record

STATEMENT = "SELECT i, repeat('x', 100) AS s FROM range({rows}) t(i)"
FORMATS = ("table", "csv", "json", "parquet")

_MEASURE = """
import resource, sys
from toolex.cli import main
sys.argv = ["toolex", "sql", *sys.argv[1:]]
try:
    main()
finally:
    print(f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}", file=sys.stderr)
"""

_REFERENCE = """
import resource, sys, warnings
import duckdb
warnings.simplefilter("ignore")
con = duckdb.connect(sys.argv[2], read_only=True, config={"memory_limit": "500MB"})
table = con.execute(sys.argv[1]).to_arrow_table()
print(table.num_rows)
print(f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}", file=sys.stderr)
"""


def _run(code: str, args: list[str]) -> tuple[float, int, str]:
    env = {**os.environ, "TOOLEX_MEMORY_LIMIT": "500MB"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"failed: {args}\n{done.stderr[-2000:]}")
    peak = int(done.stderr.rsplit("peak ", 1)[1].split()[0])
    return seconds, peak, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--formats", default=",".join(FORMATS))
    args = parser.parse_args()
    statement = STATEMENT.format(rows=args.rows)
    started, rows = load(), []
    with tempfile.TemporaryDirectory(prefix="toolex-bench-sql-") as tmp:
        db = str(Path(tmp) / "empty.duckdb")
        subprocess.run(
            [sys.executable, "-c", f"from toolex.store import Store; Store.open({db!r}).close()"],
            check=True,
        )
        print(f"{args.rows:,} rows of {statement!r}, TOOLEX_MEMORY_LIMIT=500MB")
        print(f"{'format':<22}{'seconds':>9}{'peak MB':>9}")
        for fmt in args.formats.split(","):
            out = ["--out", str(Path(tmp) / f"out.{fmt}")] if fmt != "table" else []
            seconds, peak, _ = _run(_MEASURE, [statement, "--db", db, "--format", fmt, *out])
            print(f"{'toolex sql ' + fmt:<22}{seconds:>9.1f}{peak:>9,}")
            rows.append({"command": f"toolex sql --format {fmt}", "seconds": round(seconds, 1),
                         "peak MB": peak})  # fmt: skip
            for leftover in Path(tmp).glob("out.*"):
                leftover.unlink()
        seconds, peak, _ = _run(_REFERENCE, [statement, db])
        print(f"{'reference: whole':<22}{seconds:>9.1f}{peak:>9,}")
        rows.append({"command": "reference: read whole", "seconds": round(seconds, 1),
                     "peak MB": peak})  # fmt: skip
    record(
        "bench_sql_stream",
        {f"{args.rows:,} rows, TOOLEX_MEMORY_LIMIT=500MB": rows},
        data=f"a generated statement: {statement}",
        load_at_start=started,
    )


if __name__ == "__main__":
    main()
