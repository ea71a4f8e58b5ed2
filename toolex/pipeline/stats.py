"""The annotation table of an expansion (``toolex stats``), computed by
sql/stages/expansion/06_stats.sql.

Columns: queries annotated, sub-queries, verified items (references included), items per
sub-query; the fate of the combinations: assembled, rejected_platform, repeated (a tool set the
query already holds), audited, rejected_audit, cut, pending and valid (original included), which
add up (assembled = valid + rejected_platform + repeated + rejected_audit + cut + pending); valid
combinations are distinct tool sets; combinations per query, share of sub-queries with at least one
equivalent beyond the ground truth, share of queries with at least one alternative combination,
and dependency_unchecked (combinations whose dependency check could not run). ``by="category"``
(or ``"task"``) adds one row per query category (or task) after the 'all' row; the group column
is named ``category`` either way.

``notes`` says, in words, what the table cannot: which tasks have no platform (so hand-offs
there cannot be checked), how many combinations passed unchecked, where the dependent pairs came
from, and which queries the audit's safety limit cut.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple

from toolex.errors import InputError
from toolex.store import Store

BY = ("all", "category", "task")


class RuleRejection(NamedTuple):
    """One row of `toolex stats --rejections`: a query's count of combinations the dependency
    rule rejected, and one of the first rejections kept (all None past a query with none kept)."""

    query_id: str
    rejected: int
    rrf_rank: int | None
    members: str | None  # the combination's tools, ' + '-joined
    reason: str | None


class EdgeCounts(NamedTuple):
    """One row of `toolex stats --edges`: a query's dependencies by where they came from."""

    query_id: str
    task: str | None
    edges_loaded: int
    edges_imported: int
    derived_from_docs: int
    same_platform: int
    dependent_pairs: int
    dependency_unchecked: int


class AnnotationRow(NamedTuple):
    """One row of the annotation table (sql/stages/expansion/06_stats.sql): 'all', or one
    category (or task) of the queries annotated; the columns as the module docstring says."""

    category: str  # 'all', a category or task, '(none)' for queries without one
    queries: int
    subqueries: int
    verified: int
    items_per_sub: float | None
    assembled: int
    rejected_platform: int
    repeated: int
    audited: int
    rejected_audit: int
    cut: int
    pending: int
    valid_combos: int
    alternatives: int
    combos_per_query: float | None
    subs_with_equiv: float | None
    queries_with_alt: float | None
    dependency_unchecked: int


def annotation_rows(
    store: Store, benchmark: str, expansion: str = "default", by: str = "all"
) -> list[AnnotationRow]:
    """The annotation table, the 'all' row first, then one per group of ``by`` (BY)."""
    if by not in BY:
        raise InputError(f"--by must be one of {', '.join(BY)}, not {by!r}", field="--by")
    rows = store.typed(
        "stages/expansion/06_stats.sql",
        AnnotationRow,
        {"benchmark": benchmark, "expansion": expansion, "by": by},
    )
    # a DECIMAL the SQL may give a ratio prints as a float, as the other ratios do
    return [AnnotationRow._make(_plain(v) for v in r) for r in rows]


def _plain(value: object) -> object:
    return float(value) if isinstance(value, Decimal) else value


def combination_counts(store: Store, benchmark: str, expansion: str = "default") -> dict[str, int]:
    """Combinations per status: rejected_platform = audit calls saved; repeated = a tool set the
    query already holds; cut = beyond the cap. All three are mostly counts the assembly keeps per
    query, not rows (sql/stages/4_assemble/18)."""
    rows = store.rows(
        "stages/4_assemble/18_combination_counts.sql",
        {"benchmark": benchmark, "expansion": expansion, "query_ids": None},
    )
    return {r["status"]: int(r["combinations"]) for r in rows}


def rule_rejections(
    store: Store, benchmark: str, expansion: str = "default"
) -> list[RuleRejection]:
    """The dependency rule's rejections: per query its count (``rejected``) and the first ones
    kept, each with its rank, members and the rule's reason (sql/stages/expansion/10)."""
    return store.typed(
        "stages/expansion/10_rule_rejections.sql",
        RuleRejection,
        {"benchmark": benchmark, "expansion": expansion},
    )


def platform_coverage(store: Store, benchmark: str) -> list[dict[str, Any]]:
    """Per task: items, with_platform, platforms (distinct), sources (sql/stages/expansion/07)."""
    return store.rows("stages/expansion/07_platform_coverage.sql", {"benchmark": benchmark})


def edges_per_query(store: Store, benchmark: str, expansion: str = "default") -> list[EdgeCounts]:
    """Per query with any dependency: explicit edges (loaded, imported), pairs derived from the
    docs, same-platform pairs, and combinations left unchecked (sql/stages/expansion/08)."""
    return store.typed(
        "stages/expansion/08_edges_per_query.sql",
        EdgeCounts,
        {"benchmark": benchmark, "expansion": expansion},
    )


def safety_limit_hits(store: Store, benchmark: str, expansion: str = "default") -> dict[str, int]:
    """query_id -> combinations the per-query audit safety limit cut (uncapped runs)."""
    rows = store.rows(
        "stages/4_assemble/19_safety_limit_hits.sql",
        {"benchmark": benchmark, "expansion": expansion, "query_ids": None},
    )
    return {r["query_id"]: int(r["cut"]) for r in rows}


def notes(store: Store, benchmark: str, expansion: str = "default") -> list[str]:
    """The stats' diagnostics in words (printed by `toolex stats` on stderr)."""
    out = []
    coverage = platform_coverage(store, benchmark)
    if coverage:
        parts = [
            f"{c['task']} {c['with_platform']}/{c['items']}"
            + (f" ({c['sources']})" if c["with_platform"] else " (none)")
            for c in coverage
        ]
        if len(coverage) == 1 and coverage[0]["task"] == "(none)":
            out.append("items with a platform: " + parts[0].removeprefix("(none) "))
        else:
            out.append("items with a platform, per task: " + "; ".join(parts))
        blind = [c["task"] for c in coverage if not c["with_platform"]]
        if blind:
            out.append(
                f"no platform is known for {', '.join(blind)}: the dependency rule cannot check "
                "hand-offs there (a combination replacing a dependent tool passes unchecked, "
                "counted as dependency_unchecked)"
            )
    edges = edges_per_query(store, benchmark, expansion)
    if edges:
        total = {
            "edges_loaded": sum(r.edges_loaded for r in edges),
            "edges_imported": sum(r.edges_imported for r in edges),
            "derived_from_docs": sum(r.derived_from_docs for r in edges),
            "same_platform": sum(r.same_platform for r in edges),
        }
        with_edges = sum(1 for r in edges if r.edges_loaded or r.edges_imported)
        with_docs = sum(1 for r in edges if r.derived_from_docs)
        explicit = (
            f"{total['edges_loaded']} edge(s) loaded and {total['edges_imported']} imported in "
            f"{with_edges} queries"
            if with_edges
            else "no explicit edges"
        )
        out.append(
            f"dependencies: {explicit}; {total['derived_from_docs']} pair(s) derived from the "
            f"docs in {with_docs} queries"
            + (
                f"; {total['same_platform']} same-platform pair(s)"
                if total["same_platform"]
                else ""
            )
            + " (per query: `toolex stats --edges`)"
        )
        unchecked = sum(r.dependency_unchecked for r in edges)
        if unchecked:
            out.append(
                f"{unchecked} combination(s) replace a tool on a dependent pair whose platform (or "
                "what it hands over) is unknown: their dependency check could not run"
            )
    limited = safety_limit_hits(store, benchmark, expansion)
    if limited:
        out.append(
            f"{len(limited)} quer{'y' if len(limited) == 1 else 'ies'} hit the audit's safety "
            f"limit; {sum(limited.values())} combination(s) beyond it were cut, not audited"
        )
    return out
