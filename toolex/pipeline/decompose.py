"""Stage 1: decompose each query into exactly k sub-queries, slot i answering ground-truth tool i.

A judge's answer is checked before it is stored; these are failures (recorded in stage_failures,
retried with ``--retry-failed``), never partial rows: a wrong number of sub-queries, slots that are
not 0..k-1, a slot mapped to another tool than the ground truth of that slot, an empty text, or
a text, operation or entity that spells out a tool/API name, platform or item id the request
itself does not use (``tooldoc.fields.name_leak``: identifiers and multi-word names, not ordinary
words). LLM answers are parsed stricter (``toolex.judges.plans``: names written as words too,
and a plan must be split into steps). That second rule is not applied here yet: the offline
decomposer gives 5 of the bundled sample's 300 queries two slots with one text (one ask two
tools serve, with no list to share: "Download the file"), and failing them would leave those
queries unexpanded. A qrel
naming an item missing from the library is a failure the judge is never asked about.
"""

from __future__ import annotations

from itertools import groupby

from toolex import expansions
from toolex.judges.base import DecomposeTask, Judge, Outcome, SubQuery, tool_doc
from toolex.pipeline import queries
from toolex.pipeline.stage import StageContext, StageCounts, Writer, run_judged
from toolex.tooldoc import fields


def pending_tasks(ctx: StageContext) -> tuple[list[DecomposeTask], list[tuple[str, str]]]:
    """Decompose tasks still to do, and (query_id, error) for queries that cannot be asked."""
    rows = queries.decompose_pending(ctx.store, ctx.params(retry_failed=ctx.retry_failed))
    tasks, broken = [], []
    for query_id, group in groupby(rows, key=lambda r: r.query_id):
        members = list(group)
        missing = [r.item_id for r in members if not r.item_found]
        if missing:
            broken.append((query_id, f"ground-truth items not in the library: {missing}"))
            continue
        tools = tuple(
            tool_doc(r.item_id, r.name, r.platform, r.doc, r.text, r.kind) for r in members
        )
        tasks.append(DecomposeTask(query_id, members[0].query, members[0].instruction, tools))
    return tasks, broken


def check(task: DecomposeTask, subs: object) -> str | None:
    """Why a decomposition is unusable, or None when it is exactly k well-formed sub-queries."""
    if not isinstance(subs, list) or not all(isinstance(s, SubQuery) for s in subs):
        return "decomposition is not a list of sub-queries"
    k = len(task.tools)
    if len(subs) != k:
        return f"wrong k: {len(subs)} sub-queries for {k} ground-truth tools"
    if sorted(s.slot for s in subs) != list(range(k)):
        return f"slots {sorted(s.slot for s in subs)} are not 0..{k - 1}"
    for s in subs:
        tool = task.tools[s.slot]
        if s.item_id != tool.item_id:
            return f"slot {s.slot} maps to {s.item_id!r}, expected {tool.item_id!r}"
        if not s.text.strip():
            return f"slot {s.slot} has an empty sub-query"
        for other in task.tools:
            names = [other.name, fields.name(other.doc)]
            for field, said in (("text", s.text), ("operation", s.operation), ("entity", s.entity)):
                leak = fields.name_leak(
                    said or "",
                    other.item_id,
                    names,
                    [other.platform],
                    request=task.query,
                )
                if leak:
                    where = "" if field == "text" else f" ({field})"
                    return f"slot {s.slot}{where} names the tool {leak!r}"
    return None


def run(ctx: StageContext, judge: Judge) -> StageCounts:
    counts = StageCounts("decompose")
    tasks, broken = pending_tasks(ctx)
    by_key = {t.key: t for t in tasks}
    with Writer(ctx.store, ctx.base()) as writer:
        for query_id, error in broken:
            counts.failed += 1
            writer.add(
                "stages/0_run/07_record_failure.sql",
                {"stage": "decompose", "task_key": query_id, "error": error, "call_id": None},
            )

    def store_one(writer: Writer, outcome: Outcome) -> str | None:
        task = by_key.get(outcome.key)
        if task is None:
            return f"answer for unknown task {outcome.key!r}"
        problem = check(task, outcome.value)
        if problem:
            return problem
        assert isinstance(outcome.value, list)  # check() returned no problem
        for s in sorted(outcome.value, key=lambda s: s.slot):
            writer.add(
                expansions.insert_subqueries,
                expansions.SubqueryRow(
                    query_id=task.key,
                    slot=s.slot,
                    text=s.text.strip(),
                    operation=s.operation,
                    entity=s.entity,
                    reference=s.item_id,
                    judge=judge.spec,
                    call_id=outcome.call_id,
                ),
            )
        return None

    run_judged(ctx, counts, tasks, judge, store_one)
    return counts
