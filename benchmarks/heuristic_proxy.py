"""How well does the offline HeuristicJudge verifier agree with a PROXY of equivalence?

    python benchmarks/heuristic_proxy.py ../shared/data/stabletoolbench

There is no LLM or human label here, so this measures agreement with proxies that can be justified
from StableToolBench's own structure — it is not an accuracy figure:

* positives A, "clones": pairs of APIs from DIFFERENT providers with the same api_name and the
  same description (RapidAPI forks and re-uploads, e.g. ``Email Validator_v2`` / ``_v3``); they do
  the same thing by construction. The verifier should accept them (recall proxy).
* positives B, "namesakes": different providers, same api_name (case-folded), different
  description (e.g. two "Get Weather" endpoints): mostly equivalent, some not; acceptance rate
  is reported, not judged.
* negatives, "near misses": for each clone reference, BM25's top-20 neighbours (over the whole
  library, by the reference's rendered text) from a DIFFERENT RapidAPI category, with another
  api_name and another description (the same demo APIs, e.g. the Swagger petstore, are uploaded
  under several categories: those are clones, not negatives). Sharing words but not the category
  is a fair sign of a different function, not a proof; the acceptance rate is a false-accept
  proxy and an upper bound on the false-accept rate only as far as the proxy holds.

The sub-query shown to the verifier is the heuristic decomposition of the reference (slot 0 of
a one-tool query whose text is the reference's description), as in the pipeline.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict

import reads

from toolex.judges.base import DecomposeTask, ToolDoc, tool_doc
from toolex.judges.heuristic import HeuristicJudge
from toolex.loaders import load_stabletoolbench
from toolex.retrieval import search
from toolex.store import Store
from toolex.tooldoc import fields


def main(path: str) -> None:
    store = Store.memory()
    load_stabletoolbench(store, path, name="stb")
    found = reads.rows(
        store,
        "SELECT item_id, name, platform, category, doc, text FROM items WHERE benchmark = 'stb' "
        "ORDER BY item_id",
    )
    tools = {r[0]: (tool_doc(r[0], r[1], r[2], r[4], r[5]), r[3]) for r in found}
    judge = HeuristicJudge(store, benchmark="stb")

    by_name: dict[str, list[str]] = defaultdict(list)
    for item_id, (t, _) in tools.items():
        by_name[(t.name or "").strip().lower()].append(item_id)
    clones: list[tuple[str, str]] = []
    namesakes: list[tuple[str, str]] = []
    for ids in by_name.values():
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                ta, tb = tools[a][0], tools[b][0]
                if ta.platform == tb.platform:
                    continue
                da = fields.description(ta.doc).strip()
                db = fields.description(tb.doc).strip()
                (clones if da and da == db else namesakes).append((a, b))

    def subquery(ref: ToolDoc) -> str:
        task = DecomposeTask("p", fields.description(ref.doc) or (ref.name or ""), None, (ref,))
        made = next(judge.decompose([task])).value
        assert isinstance(made, list), made  # the heuristic always decomposes
        return made[0].text

    def rate(pairs: list[tuple[str, str]]) -> tuple[int, int]:
        acc = 0
        for ref_id, cand_id in pairs:
            ref, cand = tools[ref_id][0], tools[cand_id][0]
            acc += judge.judge_pair(subquery(ref), cand, ref).accepted
        return acc, len(pairs)

    refs = sorted({a for a, _ in clones})
    hits = search(
        store, "stb", "bm25", [(r, 0, tools[r][0].text) for r in refs], depth=20, scope="benchmark"
    ).to_pylist()

    def unrelated(a: str, b: str) -> bool:
        ta, tb = tools[a][0], tools[b][0]
        return (
            tools[a][1] != tools[b][1]
            and (ta.name or "").strip().lower() != (tb.name or "").strip().lower()
            and fields.description(ta.doc).strip() != fields.description(tb.doc).strip()
        )

    negatives = [
        (h["query_id"], h["item_id"]) for h in hits if unrelated(h["query_id"], h["item_id"])
    ]

    started = time.perf_counter()
    for label, pairs in (
        ("positives A: clones (same name+description, other provider)", clones),
        ("positives B: namesakes (same name, other description/provider)", namesakes),
        ("negatives: BM25 top-20 neighbours from another category", negatives),
    ):
        both = pairs + [(b, a) for a, b in pairs]  # each pair judged in both directions
        acc, n = rate(both)
        print(f"{label}: accepted {acc}/{n} = {acc / max(n, 1):.3f}")
    print(f"({time.perf_counter() - started:.1f} s for the verdicts)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/stabletoolbench")
