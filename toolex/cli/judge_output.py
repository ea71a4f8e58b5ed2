"""The plain-data forms of a judge evaluation that `toolex judges eval` prints: the whole
evaluation as JSON (``--format json``) and one flat row per judge and scope (``--format csv``).
Made here, at the edge, from the typed Evaluation: rows leave toolex.labels typed."""

from __future__ import annotations

from toolex.labels.report import DEFAULT_ERRORS, Evaluation, Scored


def as_dict(evaluation: Evaluation, errors: int = DEFAULT_ERRORS) -> dict[str, object]:
    """The whole evaluation as plain data (``--format json``), ``errors`` mistakes per kind."""

    def mistake(s: Scored) -> dict[str, object]:
        return {**s.detail, "note": s.note, "reason": s.reason, "confidence": s.confidence}

    return {
        "source": evaluation.source,
        "stage": evaluation.stage,
        "labels": evaluation.labels,
        "intervals": evaluation.intervals,
        "notes": evaluation.notes,
        "judges": [
            {
                "judge": r.judge,
                "screen": r.screen,
                "overall": r.overall.row(),
                "strata": [{"dimension": d, "stratum": v, **f.row()} for d, v, f in r.strata],
                "false_accepts": [mistake(s) for s in r.false_accepts[:errors]],
                "false_rejects": [mistake(s) for s in r.false_rejects[:errors]],
                "failed": [{"key": k, "error": e} for k, e in r.failed],
                "calls": r.calls,
            }
            for r in evaluation.reports
        ],
    }


def metric_rows(evaluation: Evaluation) -> list[dict[str, object]]:
    """One flat row per judge and scope ('all', then each stratum): ``--format csv``."""
    rows: list[dict[str, object]] = []
    for r in evaluation.reports:
        scopes = [("all", "all", r.overall), *r.strata]
        for dim, value, figs in scopes:
            rows.append(
                {
                    "judge": r.judge,
                    "stage": r.stage,
                    "source": evaluation.source,
                    "dimension": dim,
                    "stratum": value,
                    **figs.row(),
                }
            )
    return rows
