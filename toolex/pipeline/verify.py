"""Stage 2b: one verdict per candidate; the reference passes without asking the judge.

The reference (the slot's ground-truth tool) is accepted with judge ``'reference'`` and no call,
whether or not the retriever found it. Every other candidate goes to ``judge.verify`` with the
sub-query, its full raw documentation and the reference's; each verdict is stored as it completes.
Before that, toolex.pipeline.verify_plan screens candidates out, carries verdicts over from
sub-queries asking for the same step, and orders the rest (``options``). A verdict from a judge
that makes calls but gave no confidence (no token log-probabilities) takes the second-judge
signal of toolex.judges.confidence, with the offline screen as the second judge.
"""

from __future__ import annotations

from dataclasses import replace

from toolex.judges.base import Judge, Outcome, Verdict, VerifyTask, tool_doc
from toolex.judges.confidence import second_judge
from toolex.pipeline import verify_plan
from toolex.pipeline.stage import StageContext, StageCounts, Writer, run_judged


def task_key(query_id: str, slot: int, item_id: str) -> str:
    return f"{query_id}/{slot}/{item_id}"


def pending_tasks(
    ctx: StageContext,
    writer: Writer | None = None,
    counts: StageCounts | None = None,
    where: dict[str, tuple[str, int, str]] | None = None,
) -> list[VerifyTask]:
    """Verify tasks still to do; with a writer, the references pass on the way (no call).

    ``where`` receives task key -> (query_id, slot, item_id) (item ids may contain '/')."""
    pending = ctx.store.arrow(
        "stages/3_verify/01_verify_pending.sql", ctx.params(retry_failed=ctx.retry_failed)
    )
    rows = zip(*(pending.column(c).to_pylist() for c in pending.column_names), strict=True)
    # One ToolDoc per item (3_verify/02), shared by every task naming it, and one copy of each
    # sub-query and request text: docs on every task row made memory grow with tasks x doc size.
    ids = sorted(
        set(pending.column("item_id").to_pylist() + pending.column("reference").to_pylist())
    )
    docs = {
        d["item_id"]: tool_doc(
            d["item_id"], d["name"], d["platform"], d["doc"], d["text"], d["kind"]
        )
        for d in ctx.store.rows(
            "stages/3_verify/02_verify_docs.sql", {"benchmark": ctx.benchmark, "item_ids": ids}
        )
    }
    texts: dict[str, str] = {}
    tasks: list[VerifyTask] = []
    for query_id, slot, item_id, is_reference, subquery, reference, request in rows:
        if is_reference:
            if writer is not None and counts is not None:
                counts.notes["references"] = counts.notes.get("references", 0) + 1
                writer.add(
                    "stages/3_verify/04_insert_verdict.sql",
                    dict(
                        query_id=query_id,
                        slot=slot,
                        item_id=item_id,
                        accepted=True,
                        reason="the ground-truth tool of this slot",
                        judge="reference",
                        call_id=None,
                        confidence=1.0,
                    ),
                )
            continue
        key = task_key(query_id, slot, item_id)
        if where is not None:
            where[key] = (query_id, slot, item_id)
        tasks.append(
            VerifyTask(
                key,
                texts.setdefault(subquery, subquery),
                docs[item_id],
                docs[reference],
                None if request is None else texts.setdefault(request, request),
            )
        )
    return tasks


def run(
    ctx: StageContext, judge: Judge, options: verify_plan.VerifyOptions | None = None
) -> StageCounts:
    counts = StageCounts("verify")
    where: dict[str, tuple[str, int, str]] = {}
    with Writer(ctx.store, ctx.base()) as writer:
        tasks = pending_tasks(ctx, writer, counts, where)
        plan = verify_plan.make(ctx, tasks, judge, options)
        plan.write_free(writer, where, counts.notes)
    tasks = plan.to_judge
    by_key = {t.key: t for t in tasks}
    calls = judge.makes_calls

    def store_one(writer: Writer, outcome: Outcome) -> str | None:
        if outcome.key not in where:
            return f"answer for unknown task {outcome.key!r}"
        if not isinstance(outcome.value, Verdict):
            return "verification answer is not a verdict"
        verdict = outcome.value
        if verdict.confidence is None and calls and outcome.key in by_key:
            # no token probabilities (Anthropic, some servers): a second judge's signal
            prior = plan.prior(by_key[outcome.key])
            verdict = replace(verdict, confidence=second_judge(verdict.accepted, prior))
        query_id, slot, item_id = where[outcome.key]
        writer.add(
            "stages/3_verify/04_insert_verdict.sql",
            dict(
                query_id=query_id,
                slot=slot,
                item_id=item_id,
                accepted=verdict.accepted,
                reason=verdict.reason,
                judge=judge.spec,
                call_id=outcome.call_id,
                confidence=verdict.confidence,
            ),
        )
        plan.write_followers(writer, where, outcome, verdict, counts.notes)
        return None

    run_judged(ctx, counts, tasks, judge, store_one)
    counts.notes["accepted"] = _accepted(ctx)
    return counts


def _accepted(ctx: StageContext) -> int:
    return int(ctx.store.rows("stages/3_verify/05_count_accepted.sql", ctx.params())[0]["n"])
