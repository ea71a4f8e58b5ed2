"""What the stages hand the judges: the items' kind (so a skill library's prompts speak of
skills) and, for the audit, the ground-truth combination as a reference (issue 14)."""

from __future__ import annotations

from collections.abc import ItemsView, Sequence
from typing import Any

from pipeline.fixtures import build
from pipeline.helpers import overlap_search
from toolex.judges.base import AuditTask, DecomposeTask, Outcomes, VerifyTask
from toolex.judges.heuristic import HeuristicJudge
from toolex.judges.llm import render_audit
from toolex.pipeline.runner import run_expansion
from toolex.store import Store


class Recording(HeuristicJudge):
    """The offline judge, keeping every task it is given."""

    def __init__(self, store: Store) -> None:
        super().__init__(store, benchmark="b")
        self.seen: dict[str, list[Any]] = {"decompose": [], "verify": [], "audit": []}

    def decompose(self, tasks: Sequence[DecomposeTask]) -> Outcomes:
        self.seen["decompose"] += tasks
        return super().decompose(tasks)

    def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes:
        self.seen["verify"] += tasks
        return super().verify(tasks)

    def audit(self, tasks: Sequence[AuditTask]) -> Outcomes:
        self.seen["audit"] += tasks
        return super().audit(tasks)


def test_audit_tasks_carry_the_ground_truth_combination_and_the_kind(store: Store) -> None:
    build(store)
    store.con.execute("UPDATE items SET kind = 'skill'")
    judge = Recording(store)
    run_expansion(store, "b", judge, search=overlap_search)
    audits = judge.seen["audit"]
    assert audits, "the fixture assembles at least one combination to audit"
    refs = {
        q: [i for _, i in sorted(rows)]
        for q, rows in _group(
            store.con.execute("SELECT query_id, slot, reference FROM subqueries").fetchall()
        )
    }
    for task in audits:
        query_id = task.key.split("/")[0]
        assert [t.item_id for t in task.reference] == refs[query_id]
        assert all(t.text and t.doc for t in task.reference)  # documentation, not just ids
        assert {t.kind for t in (*task.tools, *task.reference)} == {"skill"}
    for stage in ("decompose", "verify"):
        tasks = judge.seen[stage]
        docs = [t for task in tasks for t in getattr(task, "tools", ())] or [
            d for task in tasks for d in (task.candidate, task.reference)
        ]
        assert docs and {d.kind for d in docs} == {"skill"}
    _, user = render_audit(audits[0])
    assert "Reference skill 1:" in user and "Skill 1:" in user


def _group(rows: list[tuple[Any, ...]]) -> ItemsView[str, list[tuple[int, str]]]:
    out: dict[str, list[tuple[int, str]]] = {}
    for query_id, slot, item_id in rows:
        out.setdefault(query_id, []).append((slot, item_id))
    return out.items()
