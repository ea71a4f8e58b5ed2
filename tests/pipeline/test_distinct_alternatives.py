"""Issue 35.3 on the shared StableToolBench expansion: alternatives are distinct tool sets.

With the verifier of issue 24, 23 of the whole benchmark's 287 alternatives repeated the tool set
of another one or of the original ((B, A) beside (A, B)), all in G1_tool, which the fixture
expands: 21 in G1_tool:16133 (whose wrong "Categories" equivalents also supplied most of its
alternatives), one each in G1_tool:77908 and G1_tool:9039. With issue 32's six-point verifier
and sub-queries, G1_tool holds 17 distinct alternatives and 2 repeats (G1_tool:14198,
G1_tool:77908). The assembly now keeps one combination per tool set (the
original, else the best ranked) and counts the rest as `repeated`; the counts of `stats`,
`expand`, `info` and the report count distinct ones, and "new" (the best over the valid
combinations) is the same with the repeats as without: shown by putting them back."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from pipeline.helpers import fated
from toolex.cli.info import section_rows
from toolex.metrics import per_query
from toolex.pipeline.outcome import expansion_outcome
from toolex.pipeline.stats import annotation_rows
from toolex.retrieval.runs import retrieve_run
from toolex.store import Store

pytestmark = pytest.mark.shared_data
BENCHMARK = "stabletoolbench"
REPEATED = {"G1_tool:14198": 1, "G1_tool:77908": 1}


def tool_sets(store: Store, expansion: str) -> dict[tuple[Any, Any], tuple[Any, ...]]:
    rows = store.con.execute(
        "SELECT c.query_id, c.combo_id, list_sort(list_distinct(list(ci.item_id))) "
        "FROM combinations c JOIN combination_items ci "
        "USING (benchmark, expansion, query_id, combo_id) "
        "WHERE c.expansion = ? AND c.status = 'valid' GROUP BY ALL",
        [expansion],
    ).fetchall()
    return {(q, c): tuple(items) for q, c, items in rows}


def test_every_count_counts_distinct_tool_sets(stb_expansion: Store) -> None:
    store = stb_expansion
    sets = tool_sets(store, "default")
    per_query_sets: dict[str, list[tuple[str, ...]]] = {}
    for (query, _), items in sets.items():
        per_query_sets.setdefault(query, []).append(items)
    assert all(len(v) == len(set(v)) for v in per_query_sets.values())
    assert store.rows("checks/pipeline_combinations_distinct.sql") == []
    repeated = store.con.execute(
        "SELECT query_id, repeated FROM combination_products WHERE expansion = 'default' "
        "AND repeated > 0"
    ).fetchall()
    assert dict(repeated) == REPEATED  # stored as valid alternatives before issue 35.3
    (row,) = annotation_rows(store, BENCHMARK)
    assert (row.alternatives, row.valid_combos, row.repeated) == (17, 158 + 17, 2)
    assert row.assembled == fated(row)
    outcome = expansion_outcome(store, BENCHMARK, "default")
    assert (outcome.valid, outcome.alternatives) == (158 + 17, 17)  # G1_tool's originals
    (info,) = [r for r in section_rows(store, "expansions") if r["expansion"] == "default"]
    assert (info["valid"], info["alternatives"]) == (158 + 17, 17)
    (report,) = store.rows(
        "reports/10_annotation.sql", {"benchmarks": [BENCHMARK], "expansion": "default"}
    )[-1:]
    assert (report["alternatives"], report["repeated"]) == (17, 2)


def test_new_is_the_same_with_the_repeats_put_back(stb_expansion: Store) -> None:
    """The repeats the assembly no longer stores, rebuilt from the verified sets (every
    arrangement of a valid combination's tool set the product holds) and stored as valid in a
    copy of the expansion: every query's new score is the same, metric by metric."""
    store = stb_expansion
    retrieve_run(store, BENCHMARK, "bm25", "bm25-distinct", scope="benchmark")
    con = store.con
    con.execute(
        "INSERT INTO expansions SELECT * REPLACE ('with-repeats' AS expansion) FROM expansions "
        "WHERE benchmark = ? AND expansion = 'default'",
        [BENCHMARK],
    )
    for table in ("combinations", "combination_items"):
        con.execute(
            f"INSERT INTO {table} SELECT * REPLACE ('with-repeats' AS expansion) FROM {table} "
            "WHERE expansion = 'default'"
        )
    accepted: dict[str, dict[int, list[str]]] = {}
    for query, slot, item in con.execute(
        "SELECT query_id, slot, item_id FROM verdicts WHERE expansion = 'default' AND accepted "
        "ORDER BY ALL"
    ).fetchall():
        accepted.setdefault(query, {}).setdefault(slot, []).append(item)
    held = tool_sets(store, "default")
    by_query: dict[str, set[tuple[str, ...]]] = {}
    for (query, _), items in held.items():
        by_query.setdefault(query, set()).add(items)
    added = 0
    for query, slots in accepted.items():
        if query not in by_query:
            continue
        stored = {
            tuple(members)
            for (members,) in con.execute(
                "SELECT list(item_id ORDER BY slot) FROM combination_items "
                "WHERE expansion = 'default' AND query_id = ? GROUP BY combo_id",
                [query],
            ).fetchall()
        }
        next_id = (
            1
            + con.execute(
                "SELECT max(combo_id) FROM combinations "
                "WHERE expansion = 'default' AND query_id = ?",
                [query],
            ).fetchall()[0][0]
        )
        for members in itertools.product(*(slots[s] for s in sorted(slots))):
            if members in stored or tuple(sorted(set(members))) not in by_query[query]:
                continue
            con.execute(
                "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, "
                "is_original, status) VALUES (?, 'with-repeats', ?, ?, false, 'valid')",
                [BENCHMARK, query, next_id],
            )
            con.executemany(
                "INSERT INTO combination_items VALUES (?, 'with-repeats', ?, ?, ?, ?)",
                [(BENCHMARK, query, next_id, s, item) for s, item in enumerate(members)],
            )
            next_id, added = next_id + 1, added + 1
    assert added >= sum(REPEATED.values())  # every repeat the old assembly stored, and more
    families = ("ndcg", "recall", "comp")
    before = per_query(store, ["bm25-distinct"], (1, 5, 10, 20), "with-repeats", families)
    after = per_query(store, ["bm25-distinct"], (1, 5, 10, 20), "default", families)
    key = ["run_id", "query_id", "metric", "k"]
    assert before.sort_by([(k, "ascending") for k in key]).equals(
        after.sort_by([(k, "ascending") for k in key])
    )
    moved = [r for r in after.to_pylist() if r["query_id"] in REPEATED and r["new"] > r["old"]]
    assert moved  # the queries that held repeats score above old: the comparison means something
