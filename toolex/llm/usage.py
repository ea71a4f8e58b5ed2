"""What the call ledger says was spent and what it answered (`toolex ledger`).

One row per stage, judge and model (or coarser, ``by``): attempts, tokens, cost, and the tasks
the calls answered, of which how many were served without paying again (identical prompts, ledger
hits) and how many verdicts were reused from another sub-query. The outputs no call made (the
reference shortcut, the offline judge, the pre-screen, the platform rule) are counted apart, so a
run's savings can be read next to its spending.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolex.llm import queries
from toolex.llm.queries import Uncalled, UsageRow

GROUPS = ("stage", "judge", "model")
_SUMMED = (
    "attempts",
    "ok",
    "failed",
    "pending",
    "tokens_in",
    "tokens_out",
    "unpriced",
    "tasks",
    "served",
    "reused",
)

if TYPE_CHECKING:
    from toolex.store import Store


def usage(store: Store, by: Sequence[str] = GROUPS) -> list[UsageRow]:
    """Ledger rows grouped by the columns of ``by`` (a subset of GROUPS), then a total row
    ('total' in the first column of ``by``, '' in the others); a group column not in ``by`` is
    None (the CLI leaves it out of the table), cost_usd rounded to 6 places."""
    unknown = set(by) - set(GROUPS)
    if unknown:
        raise ValueError(f"cannot group by {sorted(unknown)}; choose from {', '.join(GROUPS)}")
    rows = queries.ledger_usage(store, {f"by_{name}": name in by for name in GROUPS})
    if len(rows) > 1:
        costs = [r.cost_usd for r in rows if r.cost_usd is not None]
        total: dict[str, Any] = {name: "total" if name == by[0] else "" for name in by}
        total |= {k: sum(int(getattr(r, k)) for r in rows) for k in _SUMMED}
        total["cost_usd"] = sum(costs) if costs else None
        rows.append(UsageRow(**{**dict.fromkeys(GROUPS), **total}))
    return [
        r._replace(cost_usd=None if r.cost_usd is None else round(float(r.cost_usd), 6))
        for r in rows
    ]


def uncalled(store: Store) -> list[Uncalled]:
    """Outputs no call made, by stage and who decided them (reference, heuristic, pre-screen,
    platform rule, audit cap, import)."""
    return queries.uncalled(store)
