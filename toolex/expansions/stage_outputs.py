"""What the pipeline's stages write into the expansion tables, and what ``--replace`` drops.

The stages decide what to write (``toolex.pipeline``); these functions are the only place it is
written: the decomposer's sub-queries, the retrieved candidates, the assembled combinations (from
the assembly's staging tables) and their product counts, the audit's statuses, an expansion's
recorded config, and an expansion's rows dropped. A batch of records crosses as a registered Arrow
table (``stage_rows``), one set-based statement per batch; each function runs inside its caller's
transaction, so a stage keeps writing its outcomes and its failures in one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import pyarrow as pa

from toolex.expansions.records import AuditStatus, CandidateRow, ProductCount, SubqueryRow
from toolex.store import Store


def insert_subqueries(
    store: Store, benchmark: str, expansion: str, rows: Sequence[SubqueryRow]
) -> None:
    """Store the decomposer's sub-queries; a sub-query already stored is kept."""
    _write(store, "expansions/23_insert_decomposed_subqueries.sql", benchmark, expansion, rows)


def insert_candidates(
    store: Store, benchmark: str, expansion: str, rows: Sequence[CandidateRow]
) -> None:
    """Store candidate lists (a candidate already stored is kept)."""
    _write(store, "expansions/24_insert_candidates.sql", benchmark, expansion, rows)


def count_products(
    store: Store, benchmark: str, expansion: str, rows: Sequence[ProductCount]
) -> None:
    """Record each assembled query's product, what its group stored and what the rule rejected
    (read from the assembly's staging tables, before ``store_assembled``)."""
    _write(store, "expansions/30_count_products.sql", benchmark, expansion, rows)


def store_assembled(store: Store) -> None:
    """Store a group's assembled combinations and members from the assembly's staging tables
    (``assembled_combinations``, ``assembled_items``; their rows carry benchmark and expansion)."""
    store.execute_script("expansions/31_store_assembled.sql")


def set_audit_statuses(
    store: Store, benchmark: str, expansion: str, rows: Sequence[AuditStatus]
) -> None:
    """Set the audit's statuses on pending combinations (others are left as they are)."""
    _write(store, "expansions/32_set_audit_status.sql", benchmark, expansion, rows)


def record_config(
    store: Store, benchmark: str, expansion: str, config: Mapping[str, object]
) -> None:
    """Create the expansions row, or replace its config (toolex.pipeline.record decides it)."""
    store.execute(
        "expansions/03_upsert_expansion.sql",
        {"benchmark": benchmark, "expansion": expansion, "config": json.dumps(config)},
    )


def drop_combinations(store: Store, benchmark: str, expansion: str) -> None:
    """Delete the expansion's combinations, their members and their product counts."""
    params = {"benchmark": benchmark, "expansion": expansion}
    store.execute("expansions/40_drop_combination_items.sql", params)
    store.execute("expansions/41_drop_combinations.sql", params)
    store.execute("expansions/42_drop_combination_products.sql", params)


def drop_candidates(store: Store, benchmark: str, expansion: str) -> None:
    """Delete the expansion's candidates (imported ones too)."""
    store.execute(
        "expansions/45_drop_candidates.sql", {"benchmark": benchmark, "expansion": expansion}
    )


def drop_subqueries(store: Store, benchmark: str, expansion: str) -> None:
    """Delete the expansion's sub-queries."""
    store.execute(
        "expansions/43_drop_subqueries.sql", {"benchmark": benchmark, "expansion": expansion}
    )


def drop_expansion(store: Store, benchmark: str, expansion: str) -> None:
    """Delete the expansions row, and with it the config it recorded."""
    store.execute(
        "expansions/44_drop_expansion.sql", {"benchmark": benchmark, "expansion": expansion}
    )


def _write(
    store: Store,
    name: str,
    benchmark: str,
    expansion: str,
    rows: Sequence[SubqueryRow | CandidateRow | AuditStatus | ProductCount],
) -> None:
    """Run the batch SQL file ``name`` over ``rows`` registered as ``stage_rows``."""
    if not rows:
        return
    table = pa.Table.from_pylist([row._asdict() for row in rows])
    with store.registered("stage_rows", table):
        store.execute(name, {"benchmark": benchmark, "expansion": expansion})
