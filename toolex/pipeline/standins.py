"""Stand-in tasks that price the calls of stages whose tasks do not exist yet (the dry run).

Before decompose has run there are no candidates to verify and no combinations to audit, yet a
dry run should say what verifying and auditing will cost (issue 28.5). The prompts of those calls
are built from the ground truth, which exists from the start: a verify task per ground-truth
tool, asking whether the tool can stand in for itself on a sub-query made of the first sentence
of its documentation (a candidate is another tool of the same library: about the same size), and
an audit task per query, the original combination judged against itself. Their average cost per
call prices the calls the later stages will make; nothing is stored or called.
"""

from __future__ import annotations

from toolex.judges.base import AuditTask, DecomposeTask, ToolDoc, VerifyTask
from toolex.pipeline import decompose
from toolex.pipeline.stage import StageContext

MAX_STAND_INS = 200  # queries whose ground truth prices a stage: enough for an average
NO_EXPANSION = "\x00stand-ins"  # an expansion name no run can take: every query is pending


def reference_tasks(ctx: StageContext) -> list[DecomposeTask]:
    """Every query of ``ctx`` with its ground-truth tools, decomposed or not (at most
    ``MAX_STAND_INS``): the decompose stage's pending tasks of an expansion holding nothing."""
    empty = StageContext(ctx.store, ctx.benchmark, NO_EXPANSION, ctx.query_ids, retry_failed=True)
    tasks, _ = decompose.pending_tasks(empty)
    return tasks[:MAX_STAND_INS]


def step_of(tool: ToolDoc) -> str:
    """A sub-query-sized text for a tool: the first sentence of its documentation."""
    return (tool.text.split(".")[0] or tool.item_id)[:120]


def verify_tasks(queries: list[DecomposeTask]) -> list[VerifyTask]:
    return [
        VerifyTask(f"{q.key}/{slot}/{tool.item_id}", step_of(tool), tool, tool, q.query)
        for q in queries
        for slot, tool in enumerate(q.tools)
    ]


def audit_tasks(queries: list[DecomposeTask]) -> list[AuditTask]:
    return [
        AuditTask(
            f"{q.key}/0",
            q.query,
            q.instruction,
            tuple(step_of(t) for t in q.tools),
            q.tools,
            q.tools,
        )
        for q in queries
    ]
