"""The whole pipeline at library scale: every stage's wall, CPU, peak RSS and rows written.

    python benchmarks/bench_pipeline.py                      # 5k x 1k, 50k x 10k, 200k x 20k
    python benchmarks/bench_pipeline.py --sizes 5000:1000    # tools:queries, repeatable
    python benchmarks/bench_pipeline.py --grid               # every size x every query count

Issue 11's target: 200,000 tools x 20,000 queries, heuristic judge, the whole expansion plus
BM25 retrieval and eval, finishes on the 2-core machine in under 30 minutes with every stage's
peak RSS under 4 GB.

The synthetic benchmark (seeded) replicates ../shared/data/stabletoolbench: replica r of each
of its 2,479 real APIs keeps its documentation with the provider renamed ("<tool> r<r>") and one
description word dropped, so every replica is a near-duplicate of a real tool (the worst case for
equivalents: a sub-query's top 20 is mostly replicas of the same API, and all of them verify).
Replica r of each real query keeps its text and is labelled with the replicas r' = r mod R of
its ground-truth APIs (R = replicas per API), so labels spread over the whole library.

Each stage runs as its own `toolex` process (the CLI a user runs), measured with wait4: wall,
user+sys CPU, peak RSS of that process, and the rows it added to the store's tables. The load
average is printed beside every line; figures taken on a busy machine say so.

Real StableToolBench queries list one API twice in `relevant APIs` (a tool used in two steps),
so some synthetic queries repeat a label in two slots; the header says how many. The run ends
with `toolex check` on the store it built: figures from a store that fails its own invariants
are not figures (issue 27: before the loader kept slots dense, these stores failed it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

from toolex.sqlaccess.stream import run_sql

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "stabletoolbench"
TOOLEX = str(Path(sys.executable).with_name("toolex"))
TABLES = ("subqueries", "candidates", "verdicts", "combinations", "combination_items",
          "runs", "run_results")  # fmt: skip
STAGES = ("decompose", "candidates", "verify", "assemble", "audit")


class RealQuery(TypedDict):
    """A StableToolBench test query and the keys (tool, API) of its relevant APIs."""

    id: str
    text: str
    category: str
    relevant: list[tuple[str, ...]]


class StageLine(TypedDict):
    """What one stage cost, printed as a JSON line."""

    stage: str
    wall_s: float
    cpu_s: float
    peak_rss_mb: int
    load: float
    rows: dict[str, int]  # rows the stage added, per table it changed


def real_queries() -> tuple[list[dict[str, Any]], list[RealQuery]]:
    """The real APIs (StableToolBench's JSON, first seen order) and queries (with their
    relevant API keys)."""
    apis: dict[tuple[str, str], dict[str, Any]] = {}
    queries: list[RealQuery] = []
    for path in sorted((SHARED / "test_instruction").glob("*.json")):
        group = path.stem.split("_")[0]
        for q in json.loads(path.read_text()):
            for api in q["api_list"]:
                apis.setdefault((api["tool_name"], api["api_name"]), api)
            rel = [tuple(r) for r in q["relevant APIs"] if tuple(r) in apis]
            if rel:
                queries.append({"id": f"{path.stem}-{q['query_id']}", "text": q["query"],
                                "category": group, "relevant": rel})  # fmt: skip
    return list(apis.values()), queries


def write_benchmark(folder: Path, n_tools: int, n_queries: int, seed: int) -> int:
    """Write items/queries/qrels JSONL; returns how many queries repeat a label."""
    rng = random.Random(seed)
    apis, queries = real_queries()
    replicas = max(1, n_tools // len(apis))
    index: dict[tuple[str, ...], int] = {
        (a["tool_name"], a["api_name"]): i for i, a in enumerate(apis)
    }
    folder.mkdir(parents=True, exist_ok=True)

    def item_id(i: int, rep: int) -> str:
        api = apis[i]
        tool = api["tool_name"] if rep == 0 else f"{api['tool_name']} r{rep}"
        return f"{tool}::{api['api_name']}"

    with open(folder / "items.jsonl", "w") as out:
        for n in range(n_tools):
            i, rep = n % len(apis), n // len(apis)
            api = dict(apis[i])
            if rep:
                api["tool_name"] = f"{api['tool_name']} r{rep}"
                words = str(api.get("api_description") or "").split()
                if len(words) > 3:
                    del words[rng.randrange(len(words))]
                api["api_description"] = " ".join(words)
            record = {"id": item_id(i, rep), "platform": api["tool_name"],
                      "category": api.get("category_name"), "doc": api}  # fmt: skip
            out.write(json.dumps(record) + "\n")
    repeats = 0
    with open(folder / "queries.jsonl", "w") as qf, open(folder / "qrels.jsonl", "w") as rf:
        for n in range(n_queries):
            q, rep = queries[n % len(queries)], (n // len(queries)) % replicas
            repeats += len(set(q["relevant"])) < len(q["relevant"])
            qid = f"{q['id']}-r{n // len(queries)}"
            qf.write(json.dumps({"id": qid, "text": q["text"], "category": q["category"]}) + "\n")
            for slot, key in enumerate(q["relevant"]):
                i = index[key]
                rid = item_id(i, rep) if i + rep * len(apis) < n_tools else item_id(i, 0)
                rf.write(json.dumps({"query_id": qid, "item_id": rid, "slot": slot}) + "\n")
    return repeats


def rows(db: Path) -> dict[str, int]:
    if not db.exists():
        return dict.fromkeys(TABLES, 0)
    # `toolex sql`'s own path (toolex.sqlaccess): a read-only store, a vetted query
    return {t: run_sql(str(db), f"SELECT count(*) FROM {t}").column(0)[0].as_py() for t in TABLES}


def step(name: str, args: list[str], db: Path) -> StageLine:
    before = rows(db)
    started = time.perf_counter()
    proc = subprocess.Popen([TOOLEX, *args, "--db", str(db), "-q"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    err = proc.stderr.read() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{name} failed ({os.waitstatus_to_exitcode(status)}):\n{err[-3000:]}")
    after = rows(db)
    added = {t: after[t] - before[t] for t in TABLES if after[t] != before[t]}
    cpu = usage.ru_utime + usage.ru_stime
    line: StageLine = {"stage": name, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "peak_rss_mb": round(usage.ru_maxrss / 1024), "load": round(os.getloadavg()[0], 2),
            "rows": added}  # fmt: skip
    print(json.dumps(line), flush=True)
    return line


def run_size(n_tools: int, n_queries: int, seed: int, work: Path) -> list[StageLine]:
    folder = work / f"t{n_tools}-q{n_queries}"
    shutil.rmtree(folder, ignore_errors=True)
    t = time.perf_counter()
    repeats = write_benchmark(folder, n_tools, n_queries, seed)
    print(f"# {n_tools} tools x {n_queries} queries, {repeats} repeating a label in two slots "
          f"(files in {time.perf_counter() - t:.1f} s)")  # fmt: skip
    db = folder / "scale.duckdb"
    out = [step("load", ["load", "plain", "--name", "scale", "--items", str(folder / "items.jsonl"),
                         "--queries", str(folder / "queries.jsonl"),
                         "--qrels", str(folder / "qrels.jsonl")], db)]  # fmt: skip
    for stage in STAGES:
        out.append(step(stage, ["expand", "--benchmark", "scale", "--judge", "heuristic",
                                "--stage", stage], db))  # fmt: skip
    out.append(step("retrieve bm25", ["retrieve", "--benchmark", "scale", "--retriever", "bm25",
                                      "--run", "bm25"], db))  # fmt: skip
    out.append(step("eval", ["eval", "--run", "bm25"], db))
    wall = sum(s["wall_s"] for s in out)
    peak = max(s["peak_rss_mb"] for s in out)
    check = subprocess.run([TOOLEX, "check", "--db", str(db), "--format", "csv", "-q"],
                           capture_output=True, text=True)  # fmt: skip
    print(json.dumps({"stage": "toolex check", "passed": check.returncode == 0}), flush=True)
    if check.returncode != 0:
        raise SystemExit(f"toolex check failed on the store built:\n{check.stdout[-3000:]}")
    print(f"# total {wall / 60:.1f} min wall, peak RSS {peak} MB "
          f"(targets at 200k x 20k: < 30 min, < 4096 MB)", flush=True)  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", default=["5000:1000", "50000:10000", "200000:20000"])
    ap.add_argument("--grid", action="store_true", help="every tool count x every query count")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/toolex-bench-pipeline"))
    a = ap.parse_args()
    sizes = [tuple(int(x) for x in s.split(":")) for s in a.sizes]
    if a.grid:
        tools, queries = sorted({t for t, _ in sizes}), sorted({q for _, q in sizes})
        sizes = [(t, q) for t in tools for q in queries]
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()}")
    for n_tools, n_queries in sizes:
        run_size(n_tools, n_queries, a.seed, a.dir)


if __name__ == "__main__":
    main()
