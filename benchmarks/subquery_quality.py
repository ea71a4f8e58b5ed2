"""How good are the offline decomposer's sub-queries? Measured against the shipped gold sub-queries.

    python benchmarks/subquery_quality.py --db pool.duckdb

For every (query, reference) step of the shipped verdict labels (toolex/data/labels/), the
heuristic decomposer writes its sub-query for that step from the query and the full ground-truth
combination, as in the pipeline; the gold sub-query is the one the annotators wrote. Printed:

- operation agreement: the decomposer's verb names the gold sub-query's verb (same stem, or the
  same operation class of toolex/judges/lexicon.py);
- entity recall: share of the gold sub-query's content words (its verb aside) the decomposer's
  sub-query contains;
- share of sub-queries of three words or fewer (too thin to judge a candidate against);
- the name-leak check's verdict on each (must be 0 leaks);
- the strict verifier's precision and recall on the labels, fed the decomposer's sub-queries
  instead of the gold ones (what a user's offline run actually gets).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from toolex.judges.base import DecomposeTask, ToolDoc
from toolex.judges.heuristic import HeuristicJudge
from toolex.judges.lexicon import OP_BY_STEM
from toolex.store import Store
from toolex.tooldoc import fields as df

LABELS = Path(__file__).resolve().parents[1] / "toolex" / "data" / "labels" / "verdicts.jsonl"


def _verb(text: str) -> str:
    words = df.split_words(text)
    return df.stem(words[0]) if words else ""


def same_operation(a: str, b: str) -> bool:
    return a == b or (a in OP_BY_STEM and OP_BY_STEM.get(a) == OP_BY_STEM.get(b))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--labels", type=Path, default=LABELS)
    args = ap.parse_args()
    rows = [json.loads(line) for line in args.labels.read_text().splitlines() if line.strip()]
    store = Store.open(args.db, read_only=True)
    steps: dict[tuple[str, str, str], str] = {}
    for r in rows:
        steps[(r["benchmark"], r["query_id"], r["reference"])] = r["subquery"]
    made: dict[tuple[str, str, str], str] = {}
    judges: dict[str, HeuristicJudge] = {}
    docs: dict[str, dict[str, ToolDoc]] = {}
    requests: dict[tuple[str, str], str] = {}
    for bench in sorted({b for b, _, _ in steps}):
        judge = judges[bench] = HeuristicJudge(store, benchmark=bench)
        judge._read_library()
        docs[bench] = {t.item_id: t for t in judge._library}
        queries = {
            q["query_id"]: q
            for q in store.rows("retrieval/071_query_texts.sql", {"benchmark": bench})
        }
        requests.update({(bench, qid): q["text"] for qid, q in queries.items()})
        combos: dict[str, list[str]] = defaultdict(list)
        for q in store.rows("expansions/02_qrels_of_benchmark.sql", {"benchmark": bench}):
            combos[q["query_id"]].append(q["item_id"])
        wanted = sorted({q for b, q, _ in steps if b == bench})
        tasks = [
            DecomposeTask(
                qid,
                queries[qid]["text"],
                queries[qid]["instruction"],
                tuple(docs[bench][i] for i in combos[qid]),
            )
            for qid in wanted
        ]
        for outcome in judge.decompose(tasks):
            for sub in outcome.value:  # type: ignore[union-attr]
                made[(bench, outcome.key, sub.item_id)] = sub.text
    n = len(steps)
    op_ok = ent = short = leaks = 0
    examples = []
    for key, gold in steps.items():
        mine = made[key]
        gv, mv = _verb(gold), _verb(mine)
        ok = same_operation(mv, gv)
        op_ok += ok
        gold_words = set(df.content_tokens(gold)) - {gv}
        ent += len(gold_words & set(df.content_tokens(mine))) / len(gold_words) if gold_words else 1
        short += len(mine.split()) <= 3
        tool = docs[key[0]][key[2]]
        leaks += bool(
            df.name_leak(mine, tool.item_id, [tool.name, df.name(tool.doc)], [tool.platform])
        )
        if not ok and len(examples) < 12:
            examples.append(f"  gold: {gold}\n  made: {mine}")
    print(f"{n} labelled steps")
    print(f"operation agrees with gold: {op_ok / n:.1%}")
    print(f"gold entity words recalled: {ent / n:.1%}")
    print(f"three words or fewer:       {short / n:.1%}")
    print(f"name leaks:                 {leaks}")
    tp = fp = fn = 0
    for r in rows:
        bench = r["benchmark"]
        sub = made[(bench, r["query_id"], r["reference"])]
        v = judges[bench].judge_pair(
            sub,
            docs[bench][r["candidate"]],
            docs[bench][r["reference"]],
            requests[(bench, r["query_id"])],
        )
        y = r["label"] == "yes"
        tp += v.accepted and y
        fp += v.accepted and not y
        fn += (not v.accepted) and y
    print(
        f"strict verifier on decomposer sub-queries: precision {tp / max(tp + fp, 1):.3f} "
        f"({tp}/{tp + fp}), recall {tp / max(tp + fn, 1):.3f}"
    )
    print("operation disagreements (first 12):")
    print("\n".join(examples))


if __name__ == "__main__":
    main()
