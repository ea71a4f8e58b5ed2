"""What the savings bench_cost.py counts lose: reused verdicts against fresh ones, and labelled
equivalents the pre-screen or reuse turn away.

Both read the expansions bench_cost.py ran (``cost-reuse`` against ``cost-plain``, the same tasks
without reuse) and the shipped label set; the verifier is its stand-in (the offline judge's P(yes)
at 0.5)."""

from __future__ import annotations

import reads

from toolex.judges import make_judge
from toolex.judges import operating_points as op
from toolex.judges.base import Verdict
from toolex.store import Store


def disagreement(store: Store, bench: str) -> dict[str, object]:
    """Reused verdicts (cost-reuse) against the fresh stand-in verdicts of the same tasks
    (cost-plain: the same screen, none), at 0.5 and at the strict threshold."""
    rows = reads.rows(
        store,
        """SELECT r.accepted, f.accepted, r.confidence, f.confidence
           FROM verdicts r JOIN verdicts f USING (benchmark, query_id, slot, item_id)
           WHERE r.benchmark = ? AND r.expansion = 'cost-reuse' AND r.judge = 'reused'
             AND f.expansion = 'cost-plain'""",
        [bench],
    )
    strict = op.STRICT_THRESHOLD
    p50 = sum(a != b for a, b, _, _ in rows)
    hi = sum((c >= strict) != (d >= strict) for _, _, c, d in rows if c == c and d == d)
    yes_lost = sum(b and not a for a, b, _, _ in rows)
    return {
        "benchmark": bench,
        "reused": len(rows),
        "disagree_p50": p50,
        "rate_p50": round(p50 / len(rows), 4) if rows else None,
        "fresh_yes_reused_no": yes_lost,
        "disagree_strict": hi,
        "rate_strict": round(hi / len(rows), 4) if rows else None,
    }


def label_loss(store: Store) -> dict[str, object]:
    """Labelled equivalents (the shipped set drawn from expansions) lost to the pre-screen or to
    reuse, on the expansion's sub-queries: the screen's in-sample loss (its held-out one is
    benchmarks/fit_offline_judge.py's), and the yes a reused verdict turned into a no."""
    from toolex.labels.records import SHIPPED, Label
    from toolex.labels.table import checked_labels
    from toolex.labels.tasks import label_tasks

    labels, _ = checked_labels(store, SHIPPED)
    pairs: dict[tuple[str, str, str], list[Label]] = {}
    for label in labels:
        pairs.setdefault((label.benchmark, label.reference, label.candidate), []).append(label)
    label_pairs = sum(1 for v in pairs.values() if len({x.subquery for x in v}) > 1)
    lt = label_tasks(
        store,
        labels,
        expansion="cost-reuse",
        subqueries="expansion",
        decomposer=lambda b: make_judge("heuristic", store, benchmark=b),
    )
    yes = [t for t in lt.tasks if t.label == "yes"]
    screened: set[str] = set()
    for bench in sorted({t.benchmark for t in yes}):
        screen = make_judge("heuristic:prescreen", store, benchmark=bench)
        mine = [t for t in yes if t.benchmark == bench]
        for t, o in zip(mine, screen.verify([t.task for t in mine]), strict=True):
            verdict = o.value
            assert isinstance(verdict, Verdict), o.error  # the offline screen never fails
            if not verdict.accepted and verdict.confidence == verdict.confidence:
                screened.add(t.task.key)
    reused_no: set[str] = set()
    exposed: set[str] = set()
    for t in yes:
        found = reads.rows(
            store,
            """SELECT r.accepted, f.accepted, r.reason FROM verdicts r
               JOIN verdicts f USING (benchmark, query_id, slot, item_id)
               WHERE r.benchmark = ? AND r.query_id = ? AND r.slot = ? AND r.item_id = ?
                 AND r.expansion = 'cost-reuse' AND r.judge = 'reused'
                 AND f.expansion = 'cost-plain'""",
            [t.benchmark, t.query_id, t.slot, t.task.candidate.item_id],
        )
        row = found[0] if found else None
        if row is not None:
            exposed.add(t.task.key)
            if row[1] and not row[0]:
                reused_no.add(t.task.key)
    lost = screened | reused_no
    return {
        "labelled_equivalents": len(yes),
        "label_pairs_same_reference_and_candidate": label_pairs,
        "screened_out": len(screened),
        "reached_by_reuse": len(exposed),
        "reuse_gave_no": len(reused_no),
        "lost": len(lost),
        "lost_share": round(len(lost) / len(yes), 4) if yes else None,
    }
