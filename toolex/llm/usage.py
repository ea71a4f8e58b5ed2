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


def usage(store: Store, by: Sequence[str] = GROUPS) -> list[dict[str, Any]]:
    """Ledger rows grouped by the columns of ``by`` (a subset of GROUPS), then a total row."""
    unknown = set(by) - set(GROUPS)
    if unknown:
        raise ValueError(f"cannot group by {sorted(unknown)}; choose from {', '.join(GROUPS)}")
    rows = store.rows("llm/51_ledger_usage.sql", {f"by_{name}": name in by for name in GROUPS})
    out = [{k: v for k, v in r.items() if k not in GROUPS or k in by} for r in rows]
    if len(out) > 1:
        total: dict[str, Any] = {name: "total" if i == 0 else "" for i, name in enumerate(by)}
        total |= {k: sum(int(r[k]) for r in out) for k in _SUMMED}
        costs = [r["cost_usd"] for r in out if r["cost_usd"] is not None]
        total["cost_usd"] = sum(costs) if costs else None
        out.append({k: total.get(k) for k in out[0]})
    for row in out:
        if row["cost_usd"] is not None:
            row["cost_usd"] = round(float(row["cost_usd"]), 6)
    return out


def uncalled(store: Store) -> list[dict[str, Any]]:
    """Outputs no call made, by stage and who decided them (reference, heuristic, pre-screen,
    platform rule, audit cap, import)."""
    return store.rows("llm/52_ledger_uncalled.sql")
