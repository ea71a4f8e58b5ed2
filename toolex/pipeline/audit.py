"""Stage 3b: audit the pending combinations (coverage of the sub-query checklist).

Only combinations that survived the platform rule and the audit cap are pending. Each goes to
``judge.audit`` with the query, its sub-queries (the checklist), the members' documentation and
the ground-truth combination's (the reference the paper's audit is shown); the verdict sets status
'valid' or 'rejected_audit', stored as it completes. Where the benchmark records the call chain
(explicit dependency edges), a consumer's checklist line says what it uses from which step, so
the audit checks the hand-off too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from itertools import groupby

from toolex import expansions
from toolex.judges.base import AuditTask, Handoff, Judge, Outcome, ToolDoc, Verdict, tool_doc
from toolex.pipeline import queries
from toolex.pipeline.stage import StageContext, StageCounts, Writer, run_judged
from toolex.sqlrunner import SqlValue

# Pending combinations are read this many queries at a time (at most the audit budget each),
# and each group's tools' documentation once: reading a whole expansion's combinations with a
# copy of the documentation on every member row was 13 M rows of documentation in Python at once
# for a 200k-tool library (5.8 M pending combinations).
QUERY_GROUP = 200


class PendingAudits:
    """The audit tasks of the pending combinations, read a group of queries at a time as the
    judge asks for them; ``len`` is known before, for the counts and the progress bar."""

    def __init__(self, ctx: StageContext) -> None:
        self.ctx = ctx
        self.total = ctx.store.count("stages/5_audit/01_audit_pending_count.sql", self._params())
        self.checklists = _checklists(ctx) if self.total else {}
        self.issued: dict[str, tuple[str, int]] = {}  # task key -> (query_id, combo_id)

    def _params(self, query_ids: list[str] | None = None) -> dict[str, SqlValue]:
        part = self.ctx if query_ids is None else dataclasses.replace(self.ctx, query_ids=query_ids)
        return part.params(retry_failed=self.ctx.retry_failed)

    def __len__(self) -> int:
        return self.total

    def __iter__(self) -> Iterator[AuditTask]:
        if not self.total:
            return
        ids = list(self.ctx.query_ids)
        for start in range(0, len(ids), QUERY_GROUP):
            yield from self._group(ids[start : start + QUERY_GROUP])

    def _group(self, query_ids: list[str]) -> Iterator[AuditTask]:
        store = self.ctx.store
        rows = store.rows("stages/5_audit/04_audit_pending.sql", self._params(query_ids))
        if not rows:
            return
        item_ids = sorted({r["item_id"] for r in rows})
        docs = {
            r["item_id"]: tool_doc(
                r["item_id"], r["name"], r["platform"], r["doc"], r["text"], r["kind"]
            )  # fmt: skip
            for r in store.rows(
                "stages/5_audit/05_audit_docs.sql",
                {"benchmark": self.ctx.benchmark, "item_ids": item_ids},
            )
        }
        for (query_id, combo_id), group in groupby(
            rows, key=lambda r: (r["query_id"], r["combo_id"])
        ):
            members = sorted(group, key=lambda r: r["slot"])
            query, instruction, subs, reference, handoffs = self.checklists[query_id]
            key = f"{query_id}/{combo_id}"
            self.issued[key] = (query_id, combo_id)
            tools = tuple(docs[r["item_id"]] for r in members)
            yield AuditTask(key, query, instruction, subs, tools, reference, handoffs)

    def answered(self, key: str) -> tuple[str, int] | None:
        """The combination a task key names, once: keys are forgotten as they are answered, so
        what is held follows the tasks in flight, not the expansion."""
        return self.issued.pop(key, None)


def pending_tasks(ctx: StageContext) -> list[AuditTask]:
    """Every audit task of the pending combinations at once (the dry run's estimate)."""
    return list(PendingAudits(ctx))


def run(ctx: StageContext, judge: Judge) -> StageCounts:
    counts = StageCounts("audit")
    tasks = PendingAudits(ctx)

    def store_one(writer: Writer, outcome: Outcome) -> str | None:
        where = tasks.answered(outcome.key)
        if where is None:
            return f"answer for unknown task {outcome.key!r}"
        if not isinstance(outcome.value, Verdict):
            return "audit answer is not a verdict"
        query_id, combo_id = where
        writer.add(
            expansions.set_audit_statuses,
            expansions.AuditStatus(
                query_id=query_id,
                combo_id=combo_id,
                status="valid" if outcome.value.accepted else "rejected_audit",
                reason=outcome.value.reason,
                judge=judge.spec,
                call_id=outcome.call_id,
            ),
        )
        return None

    run_judged(ctx, counts, tasks, judge, store_one)
    return counts


Checklist = tuple[str, str | None, tuple[str, ...], tuple[ToolDoc, ...], tuple[Handoff, ...]]


def _checklists(ctx: StageContext) -> dict[str, Checklist]:
    """query_id -> (query, instruction, checklist, reference combination, explicit hand-offs),
    slot order."""
    rows = queries.checklist_steps(ctx.store, ctx.params())
    edges = queries.checklist_edges(ctx.store, ctx.benchmark, ctx.query_ids)
    handoffs = _handoffs(edges)
    chains: dict[str, list[Handoff]] = {}
    for r in edges:
        chains.setdefault(r.query_id, []).append(
            Handoff(r.producer_slot, r.consumer_slot, r.value or "")
        )
    out = {}
    for query_id, group in groupby(rows, key=lambda r: r.query_id):
        members = list(group)
        reference = tuple(
            tool_doc(r.reference, r.ref_name, r.ref_platform, r.ref_doc, r.ref_text, r.ref_kind)
            for r in members
        )
        out[query_id] = (
            members[0].query,
            members[0].instruction,
            tuple(r.text + handoffs.get((query_id, r.slot), "") for r in members),
            reference,
            tuple(chains.get(query_id, ())),
        )
    return out


def _handoffs(rows: list[queries.ExplicitEdge]) -> dict[tuple[str, int], str]:
    """(query_id, consumer slot) -> what its checklist line adds: the values it takes from which
    steps, as the explicit edges record them (steps numbered from 1, as the checklist is)."""
    out: dict[tuple[str, int], list[str]] = {}
    for r in rows:
        what = f"the {r.value}" if r.value else "the result"
        out.setdefault((r.query_id, r.consumer_slot), []).append(
            f"{what} that step {r.producer_slot + 1} returns"
        )
    return {key: f" (using {' and '.join(parts)})" for key, parts in out.items()}
