"""Merge two independent labelling passes of the verdict pool, report agreement, adjudicate.

    python benchmarks/merge_verdict_labels.py --pool /tmp/pool --labels /tmp/labels \
        --out toolex/data/labels/verdicts.jsonl

Reads ``pool.jsonl`` and ``tasks.jsonl`` (benchmarks/make_verdict_pool.py), the two passes
``pass1_*.jsonl`` and ``pass2_*.jsonl`` (``{"group", "candidate", "label", "note"}``), the gold
sub-queries ``subqueries.jsonl`` (``{"group", "subquery", ...}``) and, once written,
``adjudication.jsonl`` (``{"group", "candidate", "label", "note"}``, one per disagreement).

Prints Cohen's kappa of the two passes (overall and per part) and writes ``disagreements.jsonl``
(both labels and notes, for the adjudicator) next to the passes. With every disagreement
adjudicated it writes the final label set: one line per verdict with the agreed or adjudicated
label, the sub-query, the stratum (part, candidate source, rank) and how the label was reached.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

SOURCE = "toolex-dev-v1"


def _read(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a .jsonl file; their fields are read where used, as written by hand."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _pass(labels: Path, n: int) -> dict[tuple[int, str], dict[str, Any]]:
    out: dict[tuple[int, str], dict[str, Any]] = {}
    for path in sorted(labels.glob(f"pass{n}_*.jsonl")):
        for row in _read(path):
            out[(int(row["group"]), row["candidate"])] = row  # a later line corrects an earlier
    return out


def kappa(pairs: list[tuple[str, str]]) -> float:
    """Cohen's kappa of two raters' yes/no labels."""
    n = len(pairs)
    if not n:
        return float("nan")
    po = sum(a == b for a, b in pairs) / n
    ya = sum(a == "yes" for a, _ in pairs) / n
    yb = sum(b == "yes" for _, b in pairs) / n
    pe = ya * yb + (1 - ya) * (1 - yb)
    return 1.0 if pe == 1 else (po - pe) / (1 - pe)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pool", type=Path, required=True)
    ap.add_argument("--labels", type=Path, required=True)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    pool = _read(args.pool / "pool.jsonl")
    tasks = {t["group"]: t for t in _read(args.pool / "tasks.jsonl")}
    subs = {r["group"]: r for r in _read(args.labels / "subqueries.jsonl")}
    p1, p2 = _pass(args.labels, 1), _pass(args.labels, 2)
    adj_path = args.labels / "adjudication.jsonl"
    adj = (
        {(int(r["group"]), r["candidate"]): r for r in _read(adj_path)} if adj_path.exists() else {}
    )

    missing = [
        (p["group"], p["candidate"])
        for p in pool
        if (p["group"], p["candidate"]) not in p1 or (p["group"], p["candidate"]) not in p2
    ]
    if missing:
        raise SystemExit(f"{len(missing)} pool items lack a label in one pass, e.g. {missing[:3]}")

    pairs, by_part = [], defaultdict(list)
    disagree = []
    for p in pool:
        key = (p["group"], p["candidate"])
        a, b = p1[key]["label"], p2[key]["label"]
        pairs.append((a, b))
        by_part[p["part"]].append((a, b))
        if a != b:
            disagree.append({**p, "pass1": p1[key], "pass2": p2[key]})
    agree = sum(a == b for a, b in pairs)
    print(f"items {len(pairs)}  agreement {agree / len(pairs):.3f}  kappa {kappa(pairs):.3f}")
    print(
        f"yes: pass1 {sum(a == 'yes' for a, _ in pairs)}  pass2 {sum(b == 'yes' for _, b in pairs)}"
    )
    for part, pp in by_part.items():
        print(f"  {part:<10} n={len(pp):<4} kappa {kappa(pp):.3f}")
    with (args.labels / "disagreements.jsonl").open("w") as fh:
        for d in disagree:
            t = tasks[d["group"]]
            cand = next(c for c in t["candidates"] if c["item_id"] == d["candidate"])
            fh.write(
                json.dumps(
                    {
                        "group": d["group"],
                        "candidate": d["candidate"],
                        "query": t["query"],
                        "instruction": t["instruction"],
                        "subquery": subs.get(d["group"], {}).get("subquery"),
                        "reference": t["reference"],
                        "candidate_doc": cand["doc"],
                        "pass1": {k: d["pass1"][k] for k in ("label", "note") if k in d["pass1"]},
                        "pass2": {k: d["pass2"][k] for k in ("label", "note") if k in d["pass2"]},
                    }
                )
                + "\n"
            )
    print(f"{len(disagree)} disagreements -> {args.labels / 'disagreements.jsonl'}")
    open_ = [
        (d["group"], d["candidate"]) for d in disagree if (d["group"], d["candidate"]) not in adj
    ]
    if not args.out:
        return
    if open_:
        raise SystemExit(f"{len(open_)} disagreements are not adjudicated yet, e.g. {open_[:3]}")
    final: Counter[str] = Counter()
    lines = []
    for p in pool:
        key = (p["group"], p["candidate"])
        a, b = p1[key], p2[key]
        if a["label"] == b["label"]:
            label, how = a["label"], "agreed"
            note = a.get("note") or b.get("note") or ""
        else:
            label, how, note = adj[key]["label"], "adjudicated", adj[key].get("note", "")
        final[label] += 1
        t = tasks[p["group"]]
        lines.append(
            {
                "benchmark": p["benchmark"],
                "query_id": p["query_id"],
                "slot": p["slot"],
                "subquery": subs[p["group"]]["subquery"],
                "reference": p["reference"],
                "candidate": p["candidate"],
                "label": label,
                "labeller": how,
                "note": note,
                "source": SOURCE,
                "stratum": {
                    "part": p["part"],
                    "candidate_source": p["source"],
                    "rank": p["rank"],
                    "task": t["reference"].get("task"),
                },
            }
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    print(f"wrote {len(lines)} labels ({dict(final)}) -> {args.out}")


if __name__ == "__main__":
    main()
