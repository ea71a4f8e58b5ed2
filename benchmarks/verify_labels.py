"""The offline verifier's verdicts on every labelled pair, both ways, kept to compare two trees.

    python benchmarks/verify_labels.py --db STORE --out before.json      # on one tree
    python benchmarks/verify_labels.py --db STORE --out after.json --compare before.json

STORE holds the labels' benchmarks (``toolex load toolret ../shared/data/toolret`` and
``toolex load stabletoolbench ../shared/data/stabletoolbench``). Every label of
toolex/data/labels (pipeline-v2, dev-v1) and docs/labels/fresh is judged by ``HeuristicJudge``
with the label's own sub-query and its query's text as the request, one pair at a time
(``judge_pair``) and in one batch per benchmark (``verify``). The verdicts (accepted, reason,
confidence) of both are written to ``--out``; the run fails when the two paths part, or, with
``--compare``, when any verdict differs from the earlier file's (issue 34: how fast the rules
run changes, never what they say). Run with ``PYTHONHASHSEED=0`` on both trees: a sum of IDF
weights over a set follows its strings' hashes in its last bit.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from toolex.judges.base import Verdict, VerifyTask
from toolex.judges.heuristic import HeuristicJudge
from toolex.store import Store

ROOT = Path(__file__).resolve().parents[1]
FILES = [
    ROOT / "toolex" / "data" / "labels" / "pipeline-v2.jsonl",
    ROOT / "toolex" / "data" / "labels" / "dev-v1.jsonl",
    *sorted((ROOT / "docs" / "labels" / "fresh").glob("round*/labels.jsonl")),
]


def verdicts(db: str) -> list[dict[str, Any]]:
    labels = [json.loads(line) for f in FILES for line in f.read_text().splitlines() if line]
    store = Store.open(db, read_only=True)
    out: list[dict[str, Any]] = []
    for bench in sorted({lab["benchmark"] for lab in labels}):
        judge = HeuristicJudge(store, benchmark=bench)
        docs = {t.item_id: t for t in judge.library()}
        texts = {
            q["query_id"]: q["text"]
            for q in store.rows("retrieval/071_query_texts.sql", {"benchmark": bench})
        }
        mine = [lab for lab in labels if lab["benchmark"] == bench]
        tasks = [
            VerifyTask(
                str(i),
                lab.get("subquery") or "",
                docs[lab["candidate"]],
                docs[lab["reference"]],
                texts[lab["query_id"]],
            )
            for i, lab in enumerate(mine)
        ]
        batch = []
        for outcome in judge.verify(tasks):
            assert isinstance(outcome.value, Verdict), outcome.error  # the heuristic never fails
            batch.append(outcome.value)
        for t, b in zip(tasks, batch, strict=True):
            one = judge.judge_pair(t.subquery, t.candidate, t.reference, t.request)
            out.append(
                {
                    "benchmark": bench,
                    "candidate": t.candidate.item_id,
                    "reference": t.reference.item_id,
                    "subquery": t.subquery,
                    "per_pair": [one.accepted, one.reason, one.confidence],
                    "bulk": [b.accepted, b.reason, b.confidence],
                }
            )
    store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="a store holding the labels' benchmarks")
    ap.add_argument("--out", required=True, help="where the verdicts go (JSON)")
    ap.add_argument("--compare", help="an earlier --out file every verdict must equal")
    args = ap.parse_args()
    rows = verdicts(args.db)
    Path(args.out).write_text(json.dumps(rows, indent=0))
    parted = sum(r["per_pair"] != r["bulk"] for r in rows)
    accepted = sum(bool(r["bulk"][0]) for r in rows)
    print(
        f"{len(rows)} labelled pairs; {accepted} accepted; bulk differs from per-pair on {parted}"
    )
    failed = parted > 0
    if args.compare:
        before = json.loads(Path(args.compare).read_text())
        if len(before) != len(rows):
            raise SystemExit(f"{args.compare} holds {len(before)} pairs, this run {len(rows)}")
        changed = sum(a != b for a, b in zip(before, rows, strict=True))
        print(f"against {args.compare}: {changed} of {len(rows)} verdicts differ")
        failed = failed or changed > 0
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
