"""Peak memory of each loader per byte of input (issue 10: a 50 MB single-line file used 971 MB).

    python benchmarks/bench_loader_memory.py              # 50 MB inputs, every format
    python benchmarks/bench_loader_memory.py --mb 10 --formats beir,plain-jsonl

Each measurement runs in a fresh interpreter: import toolex, pay the fixed first-use costs, note
the resident set size (RSS), load the generated input into a new store, then read the peak RSS
(``VmHWM``). The figure printed is (peak - RSS before loading) / input bytes.

The reference, measured in the same run on the biggest file, is ``json.loads`` of its text into
Python objects (for Parquet: ``pyarrow.parquet.read_table(...).to_pylist()``): what merely
parsing the input costs in Python. ``load/ref`` is the loader's peak over the reference's.
A load holds the validated rows (documentation as JSON text plus its rendering), their Arrow
copy, and DuckDB's transaction until it commits; records are parsed and dropped one at a time.
(Parquet inputs are compressed: their "x input" compares against the file's bytes.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolex.store import Store

# Generated inputs: ToolBench-shaped documentation, ~700 bytes per tool.
FORMATS = (
    "toolret-json-1line",
    "toolret-jsonl",
    "stabletoolbench-1line",
    "beir",
    "plain-jsonl",
    "plain-parquet",
    "one-huge-record",
)


def _tool(i: int) -> dict[str, object]:
    return {
        "name": f"get_weather_forecast_{i}",
        "description": f"Returns the weather forecast for a place and a day (variant {i}). " * 3,
        "required_parameters": [
            {"name": "city", "type": "STRING", "description": "city name, e.g. Paris"},
            {"name": "day", "type": "STRING", "description": "ISO date of the forecast day"},
        ],
        "optional_parameters": [{"name": "units", "type": "STRING", "description": "metric"}],
    }


def _count(mb: float, per: int) -> int:
    return max(10, int(mb * 1_000_000 / per))


def generate(fmt: str, mb: float, root: Path) -> tuple[list[str], Path]:
    """Write the input of ``fmt`` (about ``mb`` megabytes) under ``root``; the toolex call
    (loader name and arguments) and the biggest file."""
    root.mkdir(parents=True, exist_ok=True)
    n = _count(mb, 700)
    if fmt.startswith("toolret"):
        task = root / "apibank"
        task.mkdir()
        tools = [{"id": f"apibank_tool_{i}", "documentation": _tool(i)} for i in range(n)]
        queries = [
            {"id": f"q{i}", "query": f"weather {i}", "labels": [{"id": f"apibank_tool_{i}"}]}
            for i in range(min(n, 1000))
        ]
        if fmt.endswith("jsonl"):
            big = task / "tools.jsonl"
            big.write_text("".join(json.dumps(t) + "\n" for t in tools))
        else:
            big = task / "tools.json"
            big.write_text(json.dumps(tools))  # one line
        (task / "queries.json").write_text(json.dumps(queries))
        return ["toolret", str(task)], big
    if fmt == "stabletoolbench-1line":
        folder = root / "test_instruction"
        folder.mkdir()
        per_query = 5
        recs = []
        for q in range(max(2, n // per_query)):
            apis = [
                {
                    "tool_name": f"tool{q}",
                    "api_name": f"api{j}",
                    "category_name": "Weather",
                    **_tool(q * per_query + j),
                }
                for j in range(per_query)
            ]
            recs.append(
                {
                    "query_id": q,
                    "query": f"weather {q}",
                    "api_list": apis,
                    "relevant APIs": [[f"tool{q}", "api0"]],
                }
            )
        big = folder / "G1_instruction.json"
        big.write_text(json.dumps(recs))
        return ["stabletoolbench", str(root)], big
    if fmt == "beir":
        (root / "qrels").mkdir()
        big = root / "corpus.jsonl"
        with big.open("w") as fh:
            for i in range(n):
                tool = _tool(i)
                fh.write(json.dumps({"_id": f"d{i}", "title": tool["name"], "text": str(tool)}))
                fh.write("\n")
        with (root / "queries.jsonl").open("w") as fh:
            for i in range(min(n, 1000)):
                fh.write(json.dumps({"_id": f"q{i}", "text": f"weather {i}"}) + "\n")
        lines = "".join(f"q{i}\td{i}\t1\n" for i in range(min(n, 1000)))
        (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + lines)
        return ["beir", str(root)], big
    if fmt.startswith("plain") or fmt == "one-huge-record":
        items: list[dict[str, Any]] = [{"id": f"t{i}", "doc": _tool(i)} for i in range(n)]
        if fmt == "one-huge-record":  # one item whose documentation is the whole file
            items = [
                {"id": "t0", "doc": {"name": "huge", "examples": [_tool(i) for i in range(n)]}}
            ]
        queries = [{"id": f"q{i}", "text": f"weather {i}"} for i in range(min(len(items), 1000))]
        qrels = [{"query_id": q["id"], "item_id": f"t{i}"} for i, q in enumerate(queries)]
        if fmt == "plain-parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            rows = [{"id": it["id"], "doc": json.dumps(it["doc"])} for it in items]
            big = root / "items.parquet"
            pq.write_table(pa.Table.from_pylist(rows), big)
        else:
            big = root / "items.jsonl"
            big.write_text("".join(json.dumps(it) + "\n" for it in items))
        for name, rows in (("queries", queries), ("qrels", qrels)):
            (root / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        return ["plain", str(big), str(root / "queries.jsonl"), str(root / "qrels.jsonl")], big
    raise SystemExit(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")


def _status_mb(field: str) -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _rss_mb() -> float:
    return _status_mb("VmRSS")


def _peak_mb() -> float:
    """Peak RSS of this process image (VmHWM). Not ru_maxrss: Linux carries a parent's peak
    into a child across fork and exec, so a child started by a big process reports its size."""
    return _status_mb("VmHWM")


def _warm_up(store: Store) -> None:
    """Pay the fixed costs before the 'before' figure: the first Arrow conversion and the first
    DuckDB insert map ~80 MB of code and pools whatever the input's size."""
    import pyarrow as pa
    from fixtures import write

    table = pa.table({"x": pa.array(["warm"] * 1000)})
    with store.registered("warm_up", table):
        write(store, "CREATE TEMP TABLE warm AS SELECT * FROM warm_up")
        write(store, "DROP TABLE warm")


def child(mode: str, args: list[str], db: str) -> None:
    """Runs in a fresh interpreter: prints RSS before, peak RSS after (MB)."""
    import pyarrow.parquet as pq

    from toolex import loaders
    from toolex.loaders import readers  # noqa: F401  (imported before the 'before' figure)
    from toolex.store import Store

    store = Store.open(db)
    _warm_up(store)
    before = _rss_mb()
    if mode == "reference":
        path = Path(args[0])
        if path.suffix == ".parquet":
            value = pq.read_table(path).to_pylist()
        else:
            text = path.read_text(encoding="utf-8")
            value = (
                [json.loads(line) for line in text.splitlines() if line.strip()]
                if path.suffix == ".jsonl"
                else json.loads(text)
            )
        del value
    else:
        loader, *paths = args
        if loader == "plain":
            loaders.load_plain(store, *paths, name="bench")
        else:
            getattr(loaders, f"load_{loader}")(store, paths[0], name="bench")
    peak = _peak_mb()
    print(json.dumps({"before": before, "peak": peak}))


def measure(mode: str, args: list[str], db: str) -> dict[str, float]:
    """The child's RSS before the load and its peak (MB), from the JSON line it prints last."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, db, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"{mode} {args} failed:\n{out.stderr}")
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return {"before": float(got["before"]), "peak": float(got["peak"])}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[4:], sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=50.0, help="input size per format (MB)")
    ap.add_argument("--formats", default=",".join(FORMATS))
    opts = ap.parse_args()
    # imported here: tests/attacks/test_memory.py loads this file as a module, without
    # benchmarks/ on the path, and uses only its measuring half
    from figures import load, record

    started, rows = load(), []
    print(
        f"{'format':>22} {'input MB':>9} {'load MB':>8} {'x input':>8} {'json.loads MB':>14} "
        f"{'x input':>8} {'load/ref':>9}"
    )
    for fmt in opts.formats.split(","):
        with tempfile.TemporaryDirectory(prefix="toolex-mem-") as tmp:
            call, big = generate(fmt, opts.mb, Path(tmp) / "in")
            size = sum(f.stat().st_size for f in Path(tmp, "in").rglob("*") if f.is_file())
            ref = measure("reference", [str(big)], os.path.join(tmp, "r.duckdb"))
            got = measure("load", call, os.path.join(tmp, "l.duckdb"))
            used = got["peak"] - got["before"]
            ref_used = ref["peak"] - ref["before"]
            big_mb = big.stat().st_size / 2**20
            print(
                f"{fmt:>22} {size / 2**20:9.1f} {used:8.0f} {used * 2**20 / size:7.1f}x "
                f"{ref_used:14.0f} {ref_used / big_mb:7.1f}x {used / ref_used:8.1f}x"
            )
            rows.append(
                {
                    "format": fmt,
                    "input MB": round(size / 2**20, 1),
                    "load peak MB": round(used),
                    "load x input": round(used * 2**20 / size, 1),
                    "json.loads x input": round(ref_used / big_mb, 1),
                    "load / json.loads": round(used / ref_used, 1),
                }
            )
    record(
        "bench_loader_memory",
        {"peak memory of a load per byte of input": rows},
        data=f"generated ToolBench-shaped inputs of {opts.mb:g} MB per format",
        load_at_start=started,
    )


if __name__ == "__main__":
    main()
