"""How "new" moves when the accepted equivalents are thinned to their judge's measured precision:
a seeded resampling band (sql/reports/85_trust_thinning.sql, over the metric macros).

If a verifier's accepted equivalents are right with probability p, a fraction 1 - p of them are
wrong and should not have earned credit. Replicate r drops each accepted non-reference verdict
with probability 1 - p (a hash of seed, r, benchmark, query, slot and item), keeps the valid
combinations all of whose members survive (the original always does), and recomputes new
NDCG/Recall/Comp@k; the band is the 5th to 95th percentile of the ``replicates`` means. One
hash serves every p, so the band is monotone in p, equals new at p = 1 and old at p = 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pyarrow as pa

from toolex import metrics
from toolex.reports.inputs import ReportContext, Table
from toolex.reports.trust import UNVALIDATED, ExpansionTrust, trust_of_runs
from toolex.sqlrunner import Params
from toolex.store import Store

REPLICATES = 200
BAND = (0.05, 0.95)
PRECISION_SCHEMA = pa.schema(
    [("benchmark", pa.string()), ("judge", pa.string()), ("precision", pa.float64())]
)
# benchmark -> verify judge -> precision (None = unmeasured); judge '' = equivalents that no
# verdict covers (imported combinations): they take the stage's first judge's precision.
Precisions = Mapping[str, Mapping[str, float | None]]


def measured_precisions(trusts: Iterable[ExpansionTrust | None]) -> Precisions:
    """The verify judges' measured precision per benchmark (toolex.reports.trust)."""
    return {t.benchmark: t.verify_precision() for t in trusts if t is not None}


def thinning_rows(
    store: Store,
    run_ids: Sequence[str],
    expansion: str,
    k: int,
    *,
    seed: int = 0,
    replicates: int = REPLICATES,
    precisions: Precisions | None = None,
) -> list[dict[str, Any]]:
    """Per run and metric: old, new and the thinned band (``thinned_lo``, ``thinned_median``,
    ``thinned_hi``; None where an equivalent's judge is unmeasured). ``precisions`` overrides the
    measured ones (benchmark -> judge -> p)."""
    if not run_ids:
        return []
    metrics.ensure_macros(store)
    if precisions is None:
        precisions = measured_precisions(trust_of_runs(store, run_ids, expansion).values())
    table = pa.Table.from_pylist(
        [
            {"benchmark": b, "judge": j, "precision": p}
            for b, judges in precisions.items()
            for j, p in judges.items()
        ],
        schema=PRECISION_SCHEMA,
    )
    params: Params = {
        "run_ids": list(run_ids),
        "k": k,
        "expansion": expansion,
        "seed": seed,
        "replicates": replicates,
        "lo": BAND[0],
        "hi": BAND[1],
    }
    with store.registered("trust_precision", table):
        return store.rows("reports/85_trust_thinning.sql", params)


def thinning_table(
    ctx: ReportContext, trusts: Sequence[ExpansionTrust], replicates: int = REPLICATES
) -> Table:
    """The report's band: new beside new thinned to the measured precision."""
    precisions = measured_precisions(trusts)
    rows = thinning_rows(
        ctx.store,
        ctx.run_ids,
        ctx.expansion,
        ctx.k,
        seed=ctx.seed,
        replicates=replicates,
        precisions=precisions,
    )
    why_not = {t.benchmark: t.unthinned() for t in trusts}
    for row in rows:
        judges = precisions.get(row["benchmark"])
        row["thinned_to"] = (
            _thinned_to(judges, why_not.get(row["benchmark"], {}))
            if judges
            else "nothing to thin (not expanded)"
        )
    lo, hi = (round(100 * q) for q in BAND)
    return Table(
        "trust_thinning",
        "How far to trust this: new, thinned to the measured precision",
        rows,
        note=(
            f"If the verifier's accepted equivalents are right with probability p (its measured "
            f"precision, above), 1 - p of them earned credit they should not have. Each of "
            f"{replicates} seeded replicates (seed {ctx.seed}) drops every accepted non-reference "
            f"equivalent with probability 1 - p, keeps the combinations all of whose members "
            f"survive, and recomputes new; thinned_lo..thinned_hi is the {lo}th to {hi}th "
            f"percentile of the replicates (median between). At p = 1 it is new, at p = 0 old. "
            f"The band carries which equivalents are wrong, not the uncertainty of p: read it "
            f"with p's interval. Only a precision measured on the benchmark's own labels thins: "
            f"empty where the verifier is {UNVALIDATED}, or where only the expectation of a "
            f"library nobody tuned on stands (thinned_to says why)."
        ),
        columns=[
            "benchmark",
            "run_id",
            "metric",
            "k",
            "old",
            "new",
            "thinned_lo",
            "thinned_median",
            "thinned_hi",
            "thinned_to",
            "n_equivalents",
        ],
    )


def _thinned_to(judges: Mapping[str, float | None], why_not: Mapping[str, str]) -> str:
    named = {j: p for j, p in judges.items() if j}
    if not named:
        named = {"(none recorded)": judges.get("")}
    return "; ".join(
        f"{j} {p:.3f}" if p is not None else f"{j} {why_not.get(j, UNVALIDATED)}"
        for j, p in named.items()
    )
