"""Invariants as SQL: every file in ``sql/checks/`` is one query that returns the rows violating
one invariant, so a healthy store gives zero rows from each (sqlmesh's audits).

Conventions for check files (any part of toolex may add one; the runner loads every file):
- name ``<area>_<invariant>.sql``, one SELECT, no parameters, read-only;
- the header comment's first line is ``-- <file stem>: <the invariant, in words>``; the comment
  block is shown to the user next to the violations;
- the metric macros (``sql/metrics/``) are created before the checks run, so checks may use them;
  so is ``check_metric_scores`` (``sql/checks/scores/``), every per-query score of the store
  computed once, which the metric checks read instead of each scoring the store again.

Before the invariants, one check reads every table of the store in full (``store_readable``):
a damaged file can open, pass queries that touch other tables, and fail later. A check whose
query cannot run on a damaged store is reported failing with DuckDB's reason, not a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolex.errors import StoreError
from toolex.metrics.engine import ensure_macros
from toolex.resources import sql_files

if TYPE_CHECKING:
    from toolex.store import Store

READABLE = "store_readable"


@dataclass
class CheckResult:
    """The outcome of one check file: the invariant it guards and the rows breaking it."""

    name: str
    invariant: str
    columns: list[str] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.rows


def header(text: str) -> str:
    """The leading ``--`` comment block of a SQL file, without the dashes, as one paragraph."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("--"):
            break
        lines.append(stripped[2:].strip())
    return " ".join(line for line in lines if line)


def run_checks(store: Store, limit: int = 20) -> list[CheckResult]:
    """Every table readable, then every ``sql/checks/*.sql``; each result keeps at most
    ``limit`` violating rows."""
    unreadable = store.unreadable_tables()
    results = [
        CheckResult(
            READABLE,
            "every table of the store can be read in full (a damaged file fails here; restore "
            "a backup or rebuild the store, copying readable tables out first)",
            ["table", "error"],
            [tuple(u) for u in unreadable[:limit]],
        )
    ]
    try:
        ensure_macros(store)
    except StoreError as exc:
        return [
            *results,
            CheckResult(
                "metric_macros", "the metric macros can be created", ["error"], [(str(exc),)]
            ),
        ]
    scores_failed = ""
    try:
        score_once(store)
    except Exception as exc:  # a table it reads is damaged: the metric checks say so below
        if not unreadable:
            raise
        scores_failed = str(exc).splitlines()[0]
    for path in sql_files("checks"):
        text = path.read_text(encoding="utf-8")
        # The invariant is the header's prose before its "Reads:" bookkeeping.
        invariant = header(text).removeprefix(f"{path.stem}:").split(" Reads:")[0].strip()
        try:
            cur = store.execute(f"checks/{path.name}")
            columns = [d[0] for d in cur.description or []]
            rows = cur.fetchmany(limit)
        except Exception as exc:  # a table the check reads is damaged (see store_readable)
            if not unreadable:
                raise
            reason = str(exc).splitlines()[0]
            if scores_failed and "check_metric_scores" in reason:  # never made: say why
                reason = scores_failed
            columns, rows = ["error"], [(f"cannot run: {reason}",)]
        results.append(CheckResult(path.stem, invariant, columns, rows))
    return results


def score_once(store: Store) -> None:
    """Create ``check_metric_scores`` (sql/checks/scores/), which the metric checks read: the
    whole metric table once per run of the checks, not once per check. The metric macros must
    exist (:func:`toolex.metrics.engine.ensure_macros`)."""
    for path in sql_files("checks/scores"):
        store.execute_script(f"checks/scores/{path.name}")


def violations(store: Store, limit: int = 20) -> list[CheckResult]:
    """Only the failing checks (an empty list means every invariant holds)."""
    return [r for r in run_checks(store, limit) if not r.ok]
