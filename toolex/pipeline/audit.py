"""Stage 3b: audit the pending combinations (coverage of the sub-query checklist).

Only combinations that survived the platform rule and the audit cap are pending. Each goes to
``judge.audit`` with the query, its sub-queries (the checklist), the members' documentation and
the ground-truth combination's (the reference the paper's audit is shown); the verdict sets status
'valid' or 'rejected_audit', stored as it completes. Where the benchmark records the call chain
(explicit dependency edges), a consumer's checklist line says what it uses from which step, so
the audit checks the hand-off too.
"""

from __future__ import annotations

from itertools import groupby

from toolex.judges.base import AuditTask, Judge, Outcome, ToolDoc, Verdict, tool_doc
from toolex.pipeline.stage import StageContext, StageCounts, Writer, run_judged


def pending_tasks(
    ctx: StageContext, where: dict[str, tuple[str, int]] | None = None
) -> list[AuditTask]:
    """Audit tasks of the pending combinations; ``where`` receives key -> (query_id, combo_id)."""
    rows = ctx.store.rows("stages/36_audit_pending.sql", ctx.params(retry_failed=ctx.retry_failed))
    checklists = _checklists(ctx)
    tasks: list[AuditTask] = []
    for (query_id, combo_id), group in groupby(rows, key=lambda r: (r["query_id"], r["combo_id"])):
        members = sorted(group, key=lambda r: r["slot"])
        query, instruction, subs, reference = checklists[query_id]
        key = f"{query_id}/{combo_id}"
        if where is not None:
            where[key] = (query_id, combo_id)
        tools = tuple(
            tool_doc(r["item_id"], r["name"], r["platform"], r["doc"], r["text"], r["kind"])
            for r in members
        )
        tasks.append(AuditTask(key, query, instruction, subs, tools, reference))
    return tasks


def run(ctx: StageContext, judge: Judge) -> StageCounts:
    counts = StageCounts("audit")
    where: dict[str, tuple[str, int]] = {}
    tasks = pending_tasks(ctx, where)

    def store_one(writer: Writer, outcome: Outcome) -> str | None:
        if outcome.key not in where:
            return f"answer for unknown task {outcome.key!r}"
        if not isinstance(outcome.value, Verdict):
            return "audit answer is not a verdict"
        query_id, combo_id = where[outcome.key]
        writer.add(
            "stages/37_set_audit_status.sql",
            dict(
                query_id=query_id,
                combo_id=combo_id,
                status="valid" if outcome.value.accepted else "rejected_audit",
                reason=outcome.value.reason,
                judge=judge.spec,
                call_id=outcome.call_id,
            ),
        )
        return None

    run_judged(ctx, counts, tasks, judge, store_one, "audit")
    return counts


def _checklists(
    ctx: StageContext,
) -> dict[str, tuple[str, str | None, tuple[str, ...], tuple[ToolDoc, ...]]]:
    """query_id -> (query, instruction, checklist, reference combination), slot order."""
    rows = ctx.store.rows("stages/44_checklists.sql", ctx.params())
    handoffs = _handoffs(ctx)
    out = {}
    for query_id, group in groupby(rows, key=lambda r: r["query_id"]):
        members = list(group)
        reference = tuple(
            tool_doc(
                r["ref_item_id"],
                r["ref_name"],
                r["ref_platform"],
                r["ref_doc"],
                r["ref_text"],
                r["ref_kind"],
            )
            for r in members
        )
        out[query_id] = (
            members[0]["query"],
            members[0]["instruction"],
            tuple(r["text"] + handoffs.get((query_id, r["slot"]), "") for r in members),
            reference,
        )
    return out


def _handoffs(ctx: StageContext) -> dict[tuple[str, int], str]:
    """(query_id, consumer slot) -> what its checklist line adds: the values it takes from which
    steps, as the explicit edges record them (steps numbered from 1, as the checklist is)."""
    rows = ctx.store.rows(
        "stages/65_checklist_edges.sql", {"benchmark": ctx.benchmark, "query_ids": ctx.query_ids}
    )
    out: dict[tuple[str, int], list[str]] = {}
    for r in rows:
        what = f"the {r['value']}" if r["value"] else "the result"
        out.setdefault((r["query_id"], r["consumer_slot"]), []).append(
            f"{what} that step {r['producer_slot'] + 1} returns"
        )
    return {key: f" (using {' and '.join(parts)})" for key, parts in out.items()}
