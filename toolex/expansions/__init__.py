"""Expansions: the one owner of the tables ``expansions``, ``subqueries``, ``candidates``,
``combinations``, ``combination_items`` and ``combination_products``, for pipeline stages and
imports alike (its SQL is ``sql/expansions/``; no other package writes or deletes their rows).

* :mod:`toolex.expansions.stage_outputs` writes what the pipeline's stages decide (the
  decomposer's sub-queries, the retrieved candidates, the assembled combinations and their
  product counts, the audit's statuses, an expansion's config) and drops an expansion's rows,
  from typed records (:mod:`toolex.expansions.records`);
* :mod:`toolex.expansions.combinations` imports combinations made elsewhere,
  :mod:`toolex.expansions.subqueries` sub-queries and :mod:`toolex.expansions.candidates`
  per-sub-query candidate lists; the first two read the benchmark through
  :mod:`toolex.expansions.originals`.

The explicit dependency edges an imported combinations file carries are the benchmark's, written
by their owner, ``toolex.loaders.edges``.
"""

from toolex.expansions.records import AuditStatus, CandidateRow, ProductCount, SubqueryRow
from toolex.expansions.stage_outputs import (
    count_products,
    drop_candidates,
    drop_combinations,
    drop_expansion,
    drop_subqueries,
    insert_candidates,
    insert_subqueries,
    record_config,
    set_audit_statuses,
    store_assembled,
)

__all__ = [
    "AuditStatus",
    "CandidateRow",
    "ProductCount",
    "SubqueryRow",
    "count_products",
    "drop_candidates",
    "drop_combinations",
    "drop_expansion",
    "drop_subqueries",
    "insert_candidates",
    "insert_subqueries",
    "record_config",
    "set_audit_statuses",
    "store_assembled",
]
