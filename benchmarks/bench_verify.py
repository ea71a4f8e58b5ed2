"""The offline verifier's pairs per CPU second: the bulk path against the per-pair path, and
against an earlier toolex, on the pairs the demo and the four shared ToolRet tasks verify.

    python benchmarks/bench_verify.py                       # demo + ToolRet, 3 rounds
    python benchmarks/bench_verify.py --reference 979b28b --limit 150 --rounds 3
    python benchmarks/bench_verify.py --only demo

Set-up (not timed): the bundled sample (the demo's 300 queries) and ../shared/data/toolret's
apibank, apigen, gorilla-huggingface and toolink (the first ``--limit`` queries of each) are
loaded into a temporary store, decomposed and given candidates by the pipeline, and the verify
stage's tasks are captured as the pipeline hands them to the judge.

Each round then runs, one after the other, each in a fresh interpreter (the memos cold, as a
pipeline run finds them), with the judge's library and embedding model loaded before the clock
starts:

- ``reference``: ``HeuristicJudge.verify`` of ``--reference`` (a temporary ``git worktree``),
  the per-pair path as it was (skipped with ``--reference none``);
- ``per-pair``: this tree's reference path, ``judge_pair`` for one pair at a time;
- ``bulk``: this tree's ``HeuristicJudge.verify`` (toolex.judges.evidence_bulk).

CPU seconds are the child's process time around the verification alone (the embedding of the
batch's texts included). The median over the rounds is the figure; the verdicts (accepted,
reason, confidence) of the three are compared: bulk must equal per-pair (the run fails
otherwise); the reference's may differ where its rules did.
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import figures

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
TOOLRET = ("apibank", "apigen", "gorilla-huggingface", "toolink")
REFERENCE = "979b28b"  # the head issue 34 measured "today" on

CAPTURE = """
import pickle, sys
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline.runner import run_expansion
from toolex.store import Store

db, name, out, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
store = Store.open(db)
if name == "demo":
    from toolex.loaders import load_stabletoolbench
    from toolex.resources import data_path
    load_stabletoolbench(store, data_path("sample"), name=name)
else:
    from toolex.loaders import load_toolret
    load_toolret(store, sys.argv[5], tasks=[name], name=name)
captured = []

class Capture(HeuristicJudge):
    def verify(self, tasks):
        tasks = list(tasks)
        captured.extend(tasks)
        yield from super().verify(tasks)

judge = Capture(store, benchmark=name)
run_expansion(store, name, judge, stages=("decompose", "candidates", "verify"),
              limit=None if name == "demo" else limit)
store.close()
with open(out, "wb") as f:  # the library's weights go with the tasks: no store to open later
    pickle.dump((judge._idf, judge._default_idf, captured), f)
print(len(captured))
"""

TIME = """
import pickle, sys, time
from toolex.judges.heuristic import HeuristicJudge
from toolex.store import Store

tasks_file, mode, out = sys.argv[1:4]
with open(tasks_file, "rb") as f:
    idf, default_idf, tasks = pickle.load(f)
# the library's weights as captured (an older toolex cannot open a newer store), and the
# embedding model: set-up, not timed
judge = HeuristicJudge(idf=idf)
judge._default_idf = default_idf
reader = judge.reader()
t = time.process_time()
if mode == "per-pair":
    from toolex.judges import evidence as ev
    reader.prefetch(ev.texts_to_embed(tasks))
    verdicts = [judge.judge_pair(x.subquery, x.candidate, x.reference, x.request) for x in tasks]
else:
    verdicts = [o.value for o in judge.verify(tasks)]
cpu = time.process_time() - t
with open(out, "wb") as f:
    pickle.dump([(v.accepted, v.reason, v.confidence) for v in verdicts], f)
print(cpu)
"""


def child(code: str, source: Path, *args: str) -> str:
    # One hash seed for every child: a set's order follows its strings' hashes, and a sum of
    # IDF weights over a set in another order can differ in its last bit (a confidence 1e-17
    # apart), between two processes of one tree as much as between the paths.
    env = os.environ | {"PYTHONPATH": str(source), "PYTHONHASHSEED": "0"}
    # run outside any checkout: with -c the working directory comes first on sys.path
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    if done.returncode != 0:
        raise SystemExit(f"child failed ({source}):\n{done.stderr[-3000:]}")
    return done.stdout.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", default=REFERENCE, help="git revision, or 'none'")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--limit", type=int, default=150, help="queries per ToolRet task")
    ap.add_argument("--only", nargs="*", default=None, help="demo and/or ToolRet task names")
    args = ap.parse_args()
    sets = ["demo", *TOOLRET] if not args.only else args.only
    started = figures.load()
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        sources = {"bulk": ROOT, "per-pair": ROOT}
        if args.reference != "none":
            base = tmp / "reference"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.reference],
                check=True,
                capture_output=True,
            )
            sources = {"reference": base, **sources}
        failed = False
        try:
            totals: dict[str, list[float]] = {m: [] for m in sources}
            pairs_total = 0
            for name in sets:
                db, tasks_file = tmp / f"{name}.duckdb", tmp / f"{name}.tasks"
                n = int(
                    child(CAPTURE, ROOT, str(db), name, str(tasks_file), str(args.limit),
                          str(SHARED / "toolret"))
                )  # fmt: skip
                pairs_total += n
                cpu: dict[str, list[float]] = {m: [] for m in sources}
                verdicts: dict[str, list[tuple[bool, str, float | None]]] = {}
                for r in range(args.rounds):
                    for mode, source in sources.items():
                        out = tmp / f"{name}.{mode}.verdicts"
                        run_mode = "verify" if mode == "reference" else mode
                        seconds = float(child(TIME, source, str(tasks_file), run_mode, str(out)))
                        cpu[mode].append(seconds)
                        with open(out, "rb") as f:
                            verdicts[mode] = pickle.load(f)
                        load = os.getloadavg()[0]
                        print(f"{name:>20} round {r + 1} {mode:>9}: {seconds:6.2f} CPU-s  "
                              f"{n / seconds:8.0f} pairs/CPU-s  load {load:4.2f}")  # fmt: skip
                for mode in sources:
                    if verdicts[mode] != verdicts["per-pair"]:
                        # the reference is another commit: its rules may differ on purpose
                        failed = failed or mode == "bulk"
                        pairs = list(zip(verdicts[mode], verdicts["per-pair"], strict=True))
                        diff = sum(a != b for a, b in pairs)
                        flips = sum(a[0] != b[0] for a, b in pairs)
                        print(f"{name}: {mode} differs from per-pair on {diff} of {n} verdicts "
                              f"({flips} accepted/rejected)")  # fmt: skip
                med = {m: statistics.median(v) for m, v in cpu.items()}
                for m in sources:
                    totals[m].append(med[m])
                rows.append(_row(name, n, med))
                print(f"{name:>20}: {n} pairs; median pairs/CPU-s "
                      + ", ".join(f"{m} {n / med[m]:.0f}" for m in sources)
                      + "; bulk x" + ", x".join(f"{med[m] / med['bulk']:.2f} vs {m}"
                                                 for m in sources if m != "bulk"))  # fmt: skip
            print(f"\nall ({pairs_total} pairs): "
                  + ", ".join(f"{m} {pairs_total / sum(v):.0f} pairs/CPU-s"
                              for m, v in totals.items())
                  + "; bulk x" + ", x".join(f"{sum(totals[m]) / sum(totals['bulk']):.2f} vs {m}"
                                             for m in sources if m != "bulk"))  # fmt: skip
            print("bulk vs per-pair verdicts: " + ("DIFFER" if failed else "identical"))
            if not failed:
                rows.append(_row(f"all ({len(sets)})", pairs_total,
                                 {m: sum(v) for m, v in totals.items()}))  # fmt: skip
                _record(rows, args, sets, started)
        finally:
            if args.reference != "none":
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                    capture_output=True,
                )
        if failed:
            raise SystemExit(1)


def _row(name: str, pairs: int, cpu: dict[str, float]) -> dict[str, object]:
    """One set's medians: pairs per CPU second of each path, and the bulk path's speed-up."""
    row: dict[str, object] = {"pairs": name, "n": pairs}
    for mode, seconds in cpu.items():
        row[f"{mode} pairs/CPU-s"] = round(pairs / seconds)
    for mode, seconds in cpu.items():
        if mode != "bulk":
            row[f"bulk x vs {mode}"] = round(seconds / cpu["bulk"], 2)
    return row


def _record(
    rows: list[dict[str, object]], args: argparse.Namespace, sets: list[str], started: list[float]
) -> None:
    figures.record(
        "bench_verify",
        {
            "pairs per CPU second (medians of the rounds)": rows,
            "bulk verdicts equal per-pair verdicts": "identical",
        },
        data=f"the verify stage's pairs of: {', '.join(sets)} (ToolRet tasks: the first "
        f"{args.limit} queries each), decomposed and given candidates by the pipeline",
        notes=f"{args.rounds} rounds; each path in a fresh interpreter, the embedding model "
        f"loaded before the clock; reference = {args.reference} (the per-pair path as it was; "
        "the target is bulk >= 5x it)",
        load_at_start=started,
    )


if __name__ == "__main__":
    main()
