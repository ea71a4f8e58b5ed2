"""`toolex judges eval --stage audit`: audit verdicts against combination-level review labels.

The labels are the final labels of a review sample (toolex.review.finals: the two reviewers'
shared label, else the adjudicator's; items still pending are left out); "valid" is the positive
class. It lives in review, above toolex.labels, because it reads the review protocol's final
labels; the figures and their one writer (judge_evaluations) are toolex.labels'.
The verdicts are either the expansion's stored outcomes (no judge named: status 'valid' is a yes,
'rejected_audit' and 'rejected_platform' a no, 'cut' and 'pending' were never audited and are
counted apart) or a judge's fresh audit of each sampled combination (its query, the expansion's
sub-queries as the checklist, the members' documentation). Same figures as the verify stage,
per benchmark and per review stratum (category x number of tools).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import NamedTuple

from toolex.errors import ToolexError
from toolex.judges.base import AuditTask, Verdict, tool_doc
from toolex.labels.evaluate import JudgeSettings, build_judge, plan_row
from toolex.labels.report import (
    Evaluation,
    JudgeReport,
    PlanRow,
    Scored,
    judge_report,
    save_evaluation,
)
from toolex.progress import progress
from toolex.review.finals import reviewed_items
from toolex.review.levels import COMBINATION
from toolex.review.queries import AuditSampleItem, audit_members, audit_sample
from toolex.store import Store

AUDIT_STRATA = ("benchmark", "stratum")
STORED_VERDICT = {"valid": True, "rejected_audit": False, "rejected_platform": False}


class LabelledItem(NamedTuple):
    """A sampled combination with its final review label and failure bucket."""

    item: AuditSampleItem
    label: str
    bucket: str | None


def evaluate_audit(
    store: Store,
    sample_id: str,
    specs: Sequence[str] = (),
    *,
    config: JudgeSettings = None,
    save: bool = True,
) -> Evaluation:
    """Stored audit outcomes (no ``specs``) or each judge's audit, against the sample's labels."""
    items = _labelled_items(store, sample_id)
    evaluation = Evaluation(sample_id, "audit", len(items), [])
    if not specs:
        evaluation.reports.append(_stored(items))
        evaluation.notes.append("verdicts: the expansion's stored audit outcomes")
    else:
        tasks = _tasks(store, sample_id, items)
        by_key = {_key(it): it for it in items}
        bench = items[0].item.benchmark
        for spec in specs:
            judge = build_judge(spec, store, config, bench)
            scored, failed = [], []
            with progress(f"judges eval {spec}", len(tasks), unit="combinations") as advance:
                for outcome in judge.audit(tasks):
                    advance(1)
                    if not outcome.ok or not isinstance(outcome.value, Verdict):
                        failed.append((outcome.key, outcome.error or "no verdict"))
                        continue
                    it = by_key[outcome.key]
                    v = outcome.value
                    scored.append(_scored(it, v.accepted, v.reason, v.confidence))
            evaluation.reports.append(
                judge_report(spec, "audit", scored, failed, dimensions=AUDIT_STRATA)
            )
    if save:
        save_evaluation(store, evaluation)
    return evaluation


def plan_audit(
    store: Store, sample_id: str, specs: Sequence[str], *, config: JudgeSettings = None
) -> list[PlanRow]:
    """A dry run of the audit evaluation: per judge the calls, ledger answers and cost."""
    items = _labelled_items(store, sample_id)
    tasks = _tasks(store, sample_id, items)
    bench = items[0].item.benchmark
    judges = [build_judge(s, store, config, bench, pricing=True) for s in specs]
    return [plan_row("audit", judge, tasks) for judge in judges]


def _labelled_items(store: Store, sample_id: str) -> list[LabelledItem]:
    sample = audit_sample(store, sample_id)
    if not sample:
        raise ToolexError(
            f"no review sample named {sample_id!r}; draw one with `toolex review sample`"
        )
    finals = {
        COMBINATION.key_of(r.item): r.labels for r in reviewed_items(store, COMBINATION, sample_id)
    }
    items = []
    for row in sample:
        final = finals.get(COMBINATION.key_of(row._asdict()))
        if final is not None and final.final_label in COMBINATION.labels:
            items.append(LabelledItem(row, final.final_label, final.final_bucket))
    if not items:
        raise ToolexError(
            f"review sample {sample_id!r} has no final labels yet (both reviewers agreeing, or "
            "the adjudicator); label it with `toolex review label` or the TUI"
        )
    return items


def _stored(items: list[LabelledItem]) -> JudgeReport:
    scored, failed = [], []
    for it in items:
        verdict = STORED_VERDICT.get(it.item.status)
        if verdict is None:
            failed.append((_key(it), f"never audited (status {it.item.status})"))
            continue
        scored.append(_scored(it, verdict, it.item.reason or it.item.status, None))
    judges = sorted({it.item.judge for it in items if it.item.judge})
    spec = "+".join(judges) or "stored"
    return judge_report(spec, "audit", scored, failed, dimensions=AUDIT_STRATA)


def _tasks(store: Store, sample_id: str, items: list[LabelledItem]) -> list[AuditTask]:
    members = audit_members(store, sample_id)
    by_combo = {k: list(g) for k, g in groupby(members, key=lambda r: (r.query_id, r.combo_id))}
    tasks = []
    for it in items:
        slots = by_combo.get((it.item.query_id, it.item.combo_id), [])
        tasks.append(
            AuditTask(
                _key(it),
                it.item.query,
                it.item.instruction,
                tuple(r.subquery or "" for r in slots),
                tuple(
                    tool_doc(r.item_id, r.name, r.platform, r.doc, r.text, r.kind) for r in slots
                ),
            )
        )
    return tasks


def _key(it: LabelledItem) -> str:
    return f"{it.item.query_id}/{it.item.combo_id}"


def _scored(it: LabelledItem, judged: bool, reason: str, confidence: float | None) -> Scored:
    row = it.item
    return Scored(
        key=_key(it),
        label=it.label == "valid",
        judged=judged,
        strata={"benchmark": row.benchmark, "stratum": row.stratum},
        reason=reason,
        confidence=confidence,
        note=it.bucket,
        detail={
            "benchmark": row.benchmark,
            "expansion": row.expansion,
            "query_id": row.query_id,
            "combo_id": row.combo_id,
        },
    )
