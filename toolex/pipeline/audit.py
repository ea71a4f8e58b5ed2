"""Stage 3b: audit the pending combinations (coverage of the sub-query checklist).

Only combinations that survived the platform rule and the audit cap are pending. Each goes to
``judge.audit`` with the query, its sub-queries (the checklist) and the members' documentation;
the verdict sets status 'valid' or 'rejected_audit', stored as it completes.
"""

from __future__ import annotations

from itertools import groupby

from toolex.judges.base import AuditTask, Judge, Outcome, Verdict
from toolex.pipeline.stage import StageContext, StageCounts, Writer, run_judged, tool_doc


def pending_tasks(
    ctx: StageContext, where: dict[str, tuple[str, int]] | None = None
) -> list[AuditTask]:
    """Audit tasks of the pending combinations; ``where`` receives key -> (query_id, combo_id)."""
    rows = ctx.store.rows("stages/36_audit_pending.sql", ctx.params(retry_failed=ctx.retry_failed))
    checklists = _checklists(ctx)
    tasks: list[AuditTask] = []
    for (query_id, combo_id), group in groupby(rows, key=lambda r: (r["query_id"], r["combo_id"])):
        members = sorted(group, key=lambda r: r["slot"])
        query, instruction, subs = checklists[query_id]
        key = f"{query_id}/{combo_id}"
        if where is not None:
            where[key] = (query_id, combo_id)
        tools = tuple(
            tool_doc(r["item_id"], r["name"], r["platform"], r["doc"], r["text"]) for r in members
        )
        tasks.append(AuditTask(key, query, instruction, subs, tools))
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


def _checklists(ctx: StageContext) -> dict[str, tuple[str, str | None, tuple[str, ...]]]:
    rows = ctx.store.rows("stages/44_checklists.sql", ctx.params())
    out = {}
    for query_id, group in groupby(rows, key=lambda r: r["query_id"]):
        members = list(group)
        out[query_id] = (
            members[0]["query"],
            members[0]["instruction"],
            tuple(r["text"] for r in members),
        )
    return out
