"""How well does the offline decomposer follow Stage 1? Measured on every loaded query.

    python benchmarks/subquery_quality.py --db STORE [--examples 20]

STORE holds the benchmarks (``toolex load toolret ../shared/data/toolret``, ``toolex load
stabletoolbench ../shared/data/stabletoolbench``). The offline decomposer
(toolex/judges/decomposer.py, the ``heuristic`` judge's decompose) writes one sub-query per
ground-truth tool for every query with its tools in the library, as an expansion does. Printed
per benchmark part:

- leaks: sub-queries that write out a tool, API or parameter name the request does not use, by
  the strict rule (``toolex.judges.step_text.leak``: an identifier's words count, so "get user
  token" names ``GetUserToken``; so do parameter names of two words or written as identifiers);
- placeholders: sub-queries that say nothing of the step (no content word beyond the verb, or
  the old "Get the requested data");
- shared: queries where two tools get the same sub-query text (one ask both serve, no list);
- whole: sub-queries of queries of two or more tools that are the whole request (they write it
  out, or hold every content word of a request of five or more);
- keys: sub-queries with a word their tool documents only as a key of its response, that
  neither the request nor the tool's name, description or parameters say ("Get the success and
  message");
- borrowed: sub-queries holding a value of the request (quoted, a code or number, a capitalised
  name) that only clauses another sub-query states hold;
  (the three rules: toolex/judges/step_faults.py, the same for every library)
- agreement with the gold sub-queries the annotators wrote for the shipped labels
  (docs/labels/passes/subqueries.jsonl, 190 steps): mean token F1 of content words, and the share
  of steps with F1 >= 0.5 (recorded for docs/judges.md by benchmarks/figures.py).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

from figures import load, record

from toolex.judges.base import DecomposeTask, SubQuery
from toolex.judges.decomposer import Decomposer
from toolex.judges.library import library_idf, store_tools
from toolex.judges.operating_points import part_of
from toolex.judges.step_faults import faults
from toolex.judges.step_text import leak
from toolex.store import Store
from toolex.tooldoc import fields as df

ROOT = Path(__file__).resolve().parents[1]
PASSES = ROOT / "docs" / "labels" / "passes"


def gold_steps() -> dict[tuple[str, str, str], str]:
    """(benchmark, query, reference) -> the gold sub-query the shipped set's annotators wrote."""
    subs = {}
    for line in (PASSES / "subqueries.jsonl").read_text().splitlines():
        row = json.loads(line)
        subs[row["group"]] = row["subquery"]
    out = {}
    for line in (PASSES / "pool.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["group"] in subs:
            out[(row["benchmark"], row["query_id"], row["reference"])] = subs[row["group"]]
    return out


def offline_steps(store: Store, benchmark: str) -> Iterator[tuple[DecomposeTask, list[SubQuery]]]:
    """Every query of ``benchmark`` whose tools are all in its library, decomposed by the
    offline decomposer weighing words by the library's IDF (as an expansion does)."""
    tools = store_tools(store, benchmark)
    docs = {t.item_id: t for t in tools}
    idf, unseen = library_idf(tools)
    decomposer = Decomposer(lambda w: idf.get(w, unseen))
    queries = {
        q["query_id"]: q
        for q in store.rows("retrieval/071_query_texts.sql", {"benchmark": benchmark})
    }
    combos: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for r in store.rows("expansions/02_qrels_of_benchmark.sql", {"benchmark": benchmark}):
        combos[r["query_id"]].append((r["slot"], r["item_id"]))
    for qid, members in sorted(combos.items()):
        if qid not in queries or any(i not in docs for _, i in members):
            continue
        q = queries[qid]
        task = DecomposeTask(
            qid, q["text"], q["instruction"], tuple(docs[i] for _, i in sorted(members))
        )
        yield task, decomposer.decompose(task)


def f1(made: str, gold: str) -> float:
    a, b = set(df.content_tokens(made)), set(df.content_tokens(gold))
    both = len(a & b)
    return 0.0 if not both else 2 * both / (len(a) + len(b))


COUNTS = ("queries", "subqueries", "leaks", "placeholders", "shared", "whole", "keys", "borrowed")
HEADERS = ("part", "queries", "sub-queries", "leaks", "placeholders", "shared", "whole", "keys")
WIDTHS = (22, 8, 12, 7, 13, 8, 7, 6, 9)


def row(cells: tuple[object, ...]) -> str:
    first, *rest = cells
    return f"{first!s:<{WIDTHS[0]}}" + "".join(
        f"{c!s:>{w}}" for c, w in zip(rest, WIDTHS[1:], strict=True)
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--examples", type=int, default=0, help="print this many random sub-queries")
    ap.add_argument(
        "--faults", type=int, default=0, help="print this many random sub-queries of each fault"
    )
    args = ap.parse_args()
    started = load()
    store = Store.open(args.db, read_only=True)
    counts: Counter[tuple[str, str]] = Counter()
    made: dict[tuple[str, str, str], tuple[str, str]] = {}
    faulty: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for bench in store.benchmarks():
        for task, subs in offline_steps(store, bench):
            qid = task.key
            part = part_of(bench, qid)
            counts[(part, "queries")] += 1
            counts[(part, "shared")] += len({s.text for s in subs}) < len(subs)
            for s, f in zip(subs, faults(task.query, subs, task.tools), strict=True):
                counts[(part, "subqueries")] += 1
                counts[(part, "leaks")] += bool(leak(s.text, task.tools, task.query))
                counts[(part, "placeholders")] += not s.entity or "requested data" in s.text
                for kind, found in (
                    ("whole", f.whole_request),
                    ("keys", ", ".join(f.response_keys)),
                    ("borrowed", ", ".join(f.other_values)),
                ):
                    counts[(part, kind)] += bool(found)
                    if found:
                        faulty[kind].append((task.query, s.text, str(found)))
                made[(bench, qid, s.item_id)] = (task.query, s.text)
    print(row((*HEADERS, "borrowed")))
    for part in sorted({p for p, _ in counts}):
        print(row((part, *(counts[(part, k)] for k in COUNTS))))
    print(row(("all", *(sum(v for (_, kk), v in counts.items() if kk == k) for k in COUNTS))))
    scores = [f1(made[k][1], g) for k, g in gold_steps().items() if k in made]
    if scores:
        print(
            f"agreement with {len(scores)} gold sub-queries: mean token F1 "
            f"{sum(scores) / len(scores):.3f}, share with F1 >= 0.5 "
            f"{sum(s >= 0.5 for s in scores) / len(scores):.3f}"
        )
    parts = sorted({p for p, _ in counts})
    table = [{"part": p, **{k: counts[(p, k)] for k in COUNTS}} for p in [*parts, "all"]]
    table[-1].update({k: sum(v for (_, kk), v in counts.items() if kk == k) for k in COUNTS})
    figures: dict[str, object] = {"the offline decomposer's sub-queries, per part": table}
    if scores:
        figures["gold sub-queries compared"] = len(scores)
        figures["mean token F1 with the gold sub-queries"] = round(sum(scores) / len(scores), 3)
        figures["share with F1 >= 0.5"] = round(sum(s >= 0.5 for s in scores) / len(scores), 3)
    record(
        "subquery_quality",
        figures,
        data=f"every query of the store's benchmarks ({', '.join(map(str, store.benchmarks()))})",
        load_at_start=started,
    )
    for key in random.Random(7).sample(sorted(made), min(args.examples, len(made))):
        query, text = made[key]
        print(f"- {key[1]} [{key[2]}]\n    request: {query[:160]}\n    step:    {text}")
    for kind, cases in sorted(faulty.items()):
        for query, text, what in random.Random(7).sample(cases, min(args.faults, len(cases))):
            print(f"- {kind} ({what})\n    request: {query[:200]}\n    step:    {text}")


if __name__ == "__main__":
    main()
