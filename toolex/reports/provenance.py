"""Where a scored run's numbers come from, for the marks and warnings of every score table.

* Oracle: a sub-query-level run retrieves once per sub-query, and the sub-queries were written
  from the ground-truth tool count and documentation; the paper marks such rows with †, and so
  does every table and figure here (:func:`run_label`).
* Pool bias: the expansion's new labels hold only tools its candidate retriever found (Stage 2),
  so a run by that same retriever (or a hybrid sharing a component with it) is scored against
  labels drawn from its own pool; :func:`pool_bias_warnings` says so (sql/reports/22).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolex.store import Store


ORACLE_MARK = "†"
ORACLE_SHORT = f"{ORACLE_MARK} sub-query level: oracle-assisted (ground-truth tool count and docs)"
ORACLE_NOTE = (
    f"{ORACLE_MARK} sub-query-level run: oracle-assisted (its sub-queries were made with the "
    "ground-truth tool count and documentation), as the paper's † rows."
)


@dataclass(frozen=True)
class RunProvenance:
    run_id: str
    benchmark: str
    level: str
    oracle: bool
    retriever: str | None
    candidate_retriever: str | None  # of the expansion, on the run's benchmark
    pool_bias: str | None  # 'same' | 'shared' | None


def run_provenance(
    store: Store, run_ids: Sequence[str], expansion: str
) -> dict[str, RunProvenance]:
    """run id -> its provenance, for the runs named (unknown ids are simply absent)."""
    rows = store.rows(
        "reports/22_run_provenance.sql", {"run_ids": list(run_ids), "expansion": expansion}
    )
    return {r["run_id"]: RunProvenance(**r) for r in rows}


def run_label(run_id: str, oracle: bool) -> str:
    """The run as tables and figures show it: ``sub-bm25 †`` for an oracle-assisted run."""
    return f"{run_id} {ORACLE_MARK}" if oracle else run_id


def oracle_runs(provenance: Mapping[str, RunProvenance]) -> set[str]:
    return {p.run_id for p in provenance.values() if p.oracle}


def pool_bias_warnings(provenance: Iterable[RunProvenance], expansion: str) -> list[str]:
    """One sentence per run scored against labels its own retriever helped draw."""
    out = []
    for p in provenance:
        if p.pool_bias is None:
            continue
        how = (
            f"uses {p.retriever}, the retriever"
            if p.pool_bias == "same"
            else f"uses {p.retriever}, which shares a component with {p.candidate_retriever}, the "
            "retriever"
        )
        out.append(
            f"run {p.run_id} {how} that drew the candidates of expansion {expansion!r} on "
            f"{p.benchmark}: the expanded labels hold only tools that retriever found, so its new "
            "scores may favour it over other retrievers (pool bias)"
        )
    return out
