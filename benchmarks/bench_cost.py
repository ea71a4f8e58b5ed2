"""LLM calls per stage on StableToolBench and the four ToolRet tasks: the paper's pipeline,
toolex before issue 12, and each saving switched on in turn; the verdict-reuse disagreement and
the labelled equivalents the pre-screen and reuse lose.

    python benchmarks/bench_cost.py [--db /tmp/toolex-cost.duckdb] [--judge openai:gpt-4o-mini]

What is counted (same retriever, depth and judges in every row: BM25, depth 20, pooled library):

- Sub-queries come from the offline decomposer and candidates from BM25, so every row sees the
  same tasks. Calls are what the LLM judge named by ``--judge`` would make: the `toolex expand
  --dry-run` plan (``toolex.pipeline.dryrun``), i.e. distinct prompts not yet in the ledger.
- Which candidates a verifier accepts decides what the audit sees. The counts assume a stand-in
  verifier: the offline judge's P(yes) >= 0.5 (its fitted score read as a calibrated verifier),
  run through the real verify stage as a judge that "makes calls", then the real assemble stage.
- Rows, each adding one saving to the one above:
  ``paper``: one decompose per query, K verify per sub-query, one audit per combination of the
  Cartesian product (the original too), nothing shared; ``+ identical prompts``: a prompt asked
  twice is asked once; ``+ reference shortcut``: the reference passes without a verify call and
  the original without an audit; ``+ platform rule`` (= toolex before issue 12): combinations
  split across platforms are rejected before any audit call; ``+ reuse`` (same-step; toolex
  now, the defaults for a verifier that makes calls; and since issue 35 one audit per distinct
  tool set: the rows above audit the repeats too, as their pipelines did); ``+ pre-screen``
  (``--prescreen on``, off
  by default: it loses equivalents, docs/judges.md). The first rows are counted from distinct
  prompt keys (the stages toolex never runs that way); the last three are dry-run plans of real
  expansions.

Per task: the same counts for each ToolRet task and StableToolBench test group on its own (the
paper's, toolex before issue 12, toolex now); a prompt two tasks share counts in both.

Disagreement of reuse: every verdict the rule carried over, against the verdict the stand-in
verifier gave the same task fresh (the same expansion without reuse), at the stand-in's point
(0.5) and the offline judge's strict point; and the shipped labels (pairs of labels on the same
reference and candidate under different sub-queries). Loss: labelled equivalents of the shipped
set the pre-screen discards or that reuse gives a "no" the stand-in does not give them fresh, on
the expansion's sub-queries (in sample: the screen was fitted on these labels).

Rates a fresh dry run expects (toolex.pipeline.dryrun.PRIOR_*), both benchmarks pooled: verify
calls per retrieved candidate with reuse, with and without the pre-screen, and audit calls per
query (the defaults).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import figures
import reads
from cost_losses import disagreement, label_loss

from toolex.cli.options import emit_rows
from toolex.judges import make_judge
from toolex.judges.base import (
    AuditTask,
    DecomposeTask,
    Estimate,
    Judge,
    JudgeParts,
    Outcome,
    Outcomes,
    Stage,
    Verdict,
    VerifyTask,
)
from toolex.loaders import load_stabletoolbench, load_toolret
from toolex.pipeline import dryrun, record
from toolex.pipeline.runner import Settings, run_expansion, select_queries
from toolex.pipeline.stage import StageContext
from toolex.sqlrunner import SqlValue
from toolex.store import Store

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TOOLRET_TASKS = ["apibank", "apigen", "gorilla-huggingface", "toolink"]
SCENARIOS = {  # expansion -> (prescreen, reuse)
    "cost-plain": ("off", "off"),  # toolex before issue 12
    "cost-reuse": ("off", "same-step"),  # toolex now: the defaults for a verifier that calls
    "cost-screen": ("on", "same-step"),  # --prescreen on
}


class StandIn(JudgeParts):
    """The verifier the counts assume: the offline score (P(yes)) at 0.5, treated as a judge
    that makes calls (so the pre-screen and reuse apply to it as to an LLM verifier)."""

    makes_calls = True
    spec = "stand-in:p50"

    def __init__(self, store: Store, benchmark: str) -> None:
        self.inner = make_judge("heuristic", store, benchmark=benchmark)

    def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes:
        for o in self.inner.verify(tasks):
            p = o.value.confidence if isinstance(o.value, Verdict) else None
            yes = p is not None and p >= 0.5
            yield Outcome(o.key, True, Verdict(yes, f"p {p}", p), call_id=f"stand-in:{o.key}")

    # It stands in for the verifier only: the other stages have their own judges here.
    def decompose(self, tasks: Sequence[DecomposeTask]) -> Outcomes:
        raise NotImplementedError("the stand-in only verifies")

    def audit(self, tasks: Sequence[AuditTask]) -> Outcomes:
        raise NotImplementedError("the stand-in only verifies")

    def estimate(self, stage: Stage, tasks: Iterable[object]) -> Estimate:
        raise NotImplementedError("the stand-in's calls are counted from the dry-run plans")


def build(db: str) -> Store:
    store = Store.open(db)
    if "stabletoolbench" not in store.benchmarks():
        load_stabletoolbench(store, SHARED / "stabletoolbench", name="stabletoolbench")
    if "toolret" not in store.benchmarks():
        load_toolret(store, SHARED / "toolret", tasks=TOOLRET_TASKS, name="toolret")
    return store


def paper_rows(
    store: Store, bench: str, exp: str, depth: int, ids: list[str] | None = None
) -> dict[str, dict[str, int]]:
    """The rows toolex never runs: counted from the expansion's tasks by distinct prompt keys
    (decompose: query, instruction, ground truth; verify: sub-query, reference, candidate;
    audit: query, checklist, members; documentation is a function of the item); ``ids``: of
    these queries only."""
    p: dict[str, SqlValue] = {"b": bench, "e": exp, "k": depth, "ids": ids}

    def q(sql: str) -> int:
        # every subqueries/combinations/candidates alias filters on $ids
        sql = sql.replace("$ONLY", "($ids IS NULL OR list_contains($ids, query_id))")
        used = {k: v for k, v in p.items() if f"${k}" in sql}
        return int(reads.value(store, sql, used))

    queries = q(
        "SELECT count(*) FROM subqueries WHERE benchmark=$b AND expansion=$e AND slot=0 AND $ONLY"
    )
    subs = q("SELECT count(*) FROM subqueries WHERE benchmark=$b AND expansion=$e AND $ONLY")
    d_shared = q(
        """SELECT count(DISTINCT (q.text, coalesce(q.instruction, ''), g.gt)) FROM queries q
           JOIN (SELECT query_id, list(item_id ORDER BY slot) AS gt FROM qrels
                 WHERE benchmark=$b GROUP BY query_id) g USING (query_id)
           WHERE q.benchmark=$b AND q.query_id IN
                 (SELECT query_id FROM subqueries WHERE benchmark=$b AND expansion=$e AND $ONLY)"""
    )
    cands = """FROM candidates c JOIN subqueries s USING (benchmark, expansion, query_id, slot)
               WHERE c.benchmark=$b AND c.expansion=$e AND c.rank <= $k
                 AND ($ids IS NULL OR list_contains($ids, c.query_id))"""
    v_shared = q(f"SELECT count(DISTINCT (s.text, s.reference, c.item_id)) {cands}")
    v_noref = q(
        f"SELECT count(DISTINCT (s.text, s.reference, c.item_id)) {cands} "
        "AND c.item_id <> s.reference"
    )
    combos = """WITH m AS (
        SELECT ci.query_id, ci.combo_id, list(ci.item_id ORDER BY ci.slot) AS members
        FROM combination_items ci WHERE ci.benchmark=$b AND ci.expansion=$e
        GROUP BY ALL),
      chk AS (SELECT query_id, list(text ORDER BY slot) AS checklist FROM subqueries
              WHERE benchmark=$b AND expansion=$e GROUP BY ALL)
      SELECT count(DISTINCT (qq.text, coalesce(qq.instruction, ''), chk.checklist, m.members))
      FROM combinations c JOIN m USING (query_id, combo_id) JOIN chk USING (query_id)
      JOIN queries qq ON qq.benchmark=$b AND qq.query_id=c.query_id
      WHERE c.benchmark=$b AND c.expansion=$e
        AND ($ids IS NULL OR list_contains($ids, c.query_id))"""
    # toolex stores one combination per tool set (issue 35.3) and counts the rest; a pipeline
    # without that rule, the paper's or toolex's before it, audits each of them (members in
    # another order: another prompt)
    repeated = q(
        "SELECT coalesce(sum(repeated), 0) FROM combination_products "
        "WHERE benchmark=$b AND expansion=$e AND $ONLY"
    )
    a_all = repeated + q(
        "SELECT count(*) FROM combinations WHERE benchmark=$b AND expansion=$e AND $ONLY"
    )
    a_shared = repeated + q(combos)
    a_noref = repeated + q(combos + " AND NOT c.is_original")
    return {
        "repeated": {"decompose": 0, "verify": 0, "audit": repeated},  # not a row: see main
        "paper": {"decompose": queries, "verify": depth * subs, "audit": a_all},
        "+ identical prompts": {"decompose": d_shared, "verify": v_shared, "audit": a_shared},
        "+ reference shortcut": {"decompose": d_shared, "verify": v_noref, "audit": a_noref},
    }


def scenario(
    store: Store, bench: str, exp: str, llm: dict[str, Judge], depth: int
) -> tuple[dict[str, int], float]:
    """Run one expansion (offline decompose, BM25 candidates, stand-in verify, assemble) and
    return the dry-run plan's calls per stage, measured before each stage ran."""
    prescreen, reuse = SCENARIOS[exp]
    settings = Settings(depth=depth, scope="benchmark", prescreen=prescreen, reuse=reuse)
    offline = make_judge("heuristic", store, benchmark=bench)
    judges: dict[str, Judge] = {
        "decompose": offline,
        "verify": StandIn(store, bench),
        "audit": offline,
    }
    ids = select_queries(store, bench)
    record.drop_outputs(store, bench, exp)  # counted from scratch, every time
    t = time.perf_counter()
    calls: dict[str, int] = {}
    ctx = StageContext(store, bench, exp, ids)
    row = dryrun.estimate(ctx, llm, settings, ["decompose"])[0]
    calls["decompose"] = row.calls_now
    run_expansion(
        store, bench, judges, expansion=exp, settings=settings, stages=["decompose", "candidates"]
    )
    row = dryrun.estimate(ctx, llm, settings, ["verify"])[0]
    calls["verify"], calls["screened"], calls["reused"] = row.calls_now, row.screened, row.reused
    run_expansion(
        store, bench, judges, expansion=exp, settings=settings, stages=["verify", "assemble"]
    )
    row = dryrun.estimate(ctx, llm, settings, ["audit"])[0]
    calls["audit"] = row.calls_now
    return calls, time.perf_counter() - t


def per_task(
    store: Store, bench: str, llm: dict[str, Judge], depth: int
) -> list[dict[str, object]]:
    """Each task's (StableToolBench: each test group's) own calls: the paper's, toolex before
    issue 12 (cost-plain) and now (cost-reuse). Verify calls now are the distinct prompts the
    stand-in answered fresh; audits are the dry-run plans of the assembled expansions."""
    tasks = reads.rows(
        store,
        "SELECT DISTINCT task FROM queries WHERE benchmark = ? AND task IS NOT NULL ORDER BY 1",
        [bench],
    )
    settings = Settings(depth=depth, scope="benchmark")
    out: list[dict[str, object]] = []
    for (task,) in tasks:
        ids = select_queries(store, bench, task=task)
        rows = paper_rows(store, bench, "cost-plain", depth, ids)
        plans = {
            exp: dryrun.estimate(StageContext(store, bench, exp, ids), llm, settings, ["audit"])
            for exp in ("cost-plain", "cost-reuse")
        }
        audits = {exp: plan[0].calls_now for exp, plan in plans.items()}
        fresh = reads.value(
            store,
            """SELECT count(DISTINCT (s.text, s.reference, v.item_id)) FROM verdicts v
               JOIN subqueries s USING (benchmark, expansion, query_id, slot)
               WHERE v.benchmark = ? AND v.expansion = 'cost-reuse' AND v.judge = ?
                 AND list_contains(?, v.query_id)""",
            [bench, StandIn.spec, ids],
        )
        repeated = rows.pop("repeated")["audit"]
        paper = sum(rows["paper"].values())
        d = rows["+ identical prompts"]["decompose"]
        before = d + rows["+ reference shortcut"]["verify"] + audits["cost-plain"] + repeated
        now = d + int(fresh) + audits["cost-reuse"]
        out.append(
            {
                "benchmark": bench,
                "task": task,
                "paper": paper,
                "toolex_before": before,
                "toolex_now": now,
                "saved_vs_paper": f"{1 - now / paper:.1%}",
            }
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default="/tmp/toolex-cost.duckdb")
    ap.add_argument("--judge", default="openai:gpt-4o-mini", help="the LLM judge planned for")
    ap.add_argument("--depth", type=int, default=20)
    args = ap.parse_args()
    started = figures.load()
    os.environ.setdefault("OPENAI_API_KEY", "dry-run-no-key")  # plans make no call
    os.environ.setdefault("ANTHROPIC_API_KEY", "dry-run-no-key")
    store = build(args.db)
    llm = dict.fromkeys(("decompose", "verify", "audit"), make_judge(args.judge, store))
    table: list[dict[str, object]] = []
    reuse_rows: list[dict[str, object]] = []
    tasks: list[dict[str, object]] = []
    pooled = dict.fromkeys(("candidates", "queries", "screen", "no_screen", "audit"), 0)
    for bench in ("stabletoolbench", "toolret"):
        counted: dict[str, dict[str, int]] = {}
        for exp in SCENARIOS:
            counted[exp], secs = scenario(store, bench, exp, llm, args.depth)
            print(f"{bench} {exp}: {counted[exp]} ({secs:.0f} s)", flush=True)
        rows = paper_rows(store, bench, "cost-plain", args.depth)
        repeated = rows.pop("repeated")["audit"]
        plain, reuse, screen = (counted[e] for e in SCENARIOS)
        d = plain["decompose"]
        rows["+ platform rule (toolex before)"] = {
            "decompose": d,
            "verify": plain["verify"],
            "audit": plain["audit"] + repeated,  # it audited repeated tool sets too
        }
        rows["+ reuse (toolex now)"] = {
            "decompose": d,
            "verify": reuse["verify"],
            "audit": reuse["audit"],
        }
        rows["+ pre-screen (--prescreen on)"] = {
            "decompose": d,
            "verify": screen["verify"],
            "audit": screen["audit"],
        }
        pooled["candidates"] += rows["paper"]["verify"]  # K per sub-query
        pooled["queries"] += rows["paper"]["decompose"]
        pooled["screen"] += screen["verify"]
        pooled["no_screen"] += reuse["verify"]
        pooled["audit"] += reuse["audit"]
        paper = sum(rows["paper"].values())
        for name, r in rows.items():
            total = sum(r.values())
            table.append(
                {
                    "benchmark": bench,
                    "pipeline": name,
                    **r,
                    "total": total,
                    "saved_vs_paper": f"{1 - total / paper:.1%}",
                }
            )
        reuse_rows.append(disagreement(store, bench))
        tasks += per_task(store, bench, llm, args.depth)
    emit_rows(table, "table", title=f"LLM calls per stage ({args.judge}, depth {args.depth})")
    emit_rows(tasks, "table", title="calls per task (ToolRet) and test group (StableToolBench)")
    emit_rows(reuse_rows, "table", title="reused verdicts vs fresh ones (stand-in verifier)")
    lost, rates = label_loss(store), prior_rates(pooled)
    emit_rows([lost], "table", title="labelled equivalents lost (shipped set)")
    emit_rows([rates], "table", title="rates a fresh dry run expects (both pooled)")
    figures.record(
        "bench_cost",
        {
            f"LLM calls per stage ({args.judge}, depth {args.depth})": table,
            "calls per task (ToolRet) and test group (StableToolBench)": tasks,
            "reused verdicts vs fresh ones (stand-in verifier)": reuse_rows,
            "labelled equivalents lost (shipped set)": [lost],
            "rates a fresh dry run expects (toolex.pipeline.dryrun.PRIOR_*)": [rates],
        },
        data="the shared StableToolBench data and the four ToolRet tasks; BM25 candidates, the "
        "offline decomposer's sub-queries, a stand-in verifier (offline P(yes) >= 0.5)",
        load_at_start=started,
    )


def prior_rates(pooled: dict[str, int]) -> dict[str, object]:
    """toolex.pipeline.dryrun.PRIOR_*: verify calls per retrieved candidate with reuse, with and
    without the pre-screen; audit calls per query (the defaults: reuse, no screen)."""
    return {
        **pooled,
        "verify_share_screen": round(pooled["screen"] / pooled["candidates"], 3),
        "verify_share_no_screen": round(pooled["no_screen"] / pooled["candidates"], 3),
        "audits_per_query": round(pooled["audit"] / pooled["queries"], 3),
    }


if __name__ == "__main__":
    main()
