"""Variants of the report fixture (tests/reports/fixtures.py) for what stands behind "new".

- :func:`fitted`: its 'heuristic' verdicts carry a confidence, as the fitted offline verifier
  writes them, so the shipped figures describe them.
- :func:`llm_expansion`: a copy of the expansion, named 'llm', judged by 'openai:x' (no
  measurement anywhere: unvalidated).
- :func:`review`: a combination-level review sample of the 'default' expansion.

The fixture's accepted equivalents (non-reference members of valid combinations) are three:
(q1, 0, w2), (q2, 0, w5) and (q4, 0, c2).
"""

from __future__ import annotations

import json
from typing import Any

from reports.fixtures import BENCHMARK, EXPANSION
from toolex.judges import operating_points
from toolex.judges.embedding import DEFAULT_EMBEDDING
from toolex.store import Store

LLM = "openai:x"
EQUIVALENTS = [("q1", 0, "w2"), ("q2", 0, "w5"), ("q4", 0, "c2")]


def fitted(store: Store) -> Store:
    store.con.execute("UPDATE verdicts SET confidence = 0.9 WHERE judge = 'heuristic'")
    return store


def llm_expansion(store: Store, name: str = "llm") -> Store:
    """The fixture's expansion again under ``name``, every judged row by :data:`LLM`."""
    con = store.con
    config = {"judges": {"decompose": LLM, "verify": LLM, "audit": LLM}}
    con.execute(
        "INSERT INTO expansions (benchmark, expansion, config) VALUES (?, ?, ?)",
        [BENCHMARK, name, json.dumps(config)],
    )
    judge = "CASE WHEN judge = 'heuristic' THEN ? ELSE judge END AS judge"
    for table in ("subqueries", "verdicts", "combinations"):  # a closed set of names
        con.execute(
            f"INSERT INTO {table} SELECT * REPLACE (? AS expansion, {judge}) FROM {table} "
            "WHERE expansion = ?",
            [name, LLM, EXPANSION],
        )
    con.execute(
        "INSERT INTO combination_items SELECT * REPLACE (? AS expansion) FROM combination_items "
        "WHERE expansion = ?",
        [name, EXPANSION],
    )
    return store


def review(store: Store, sample_id: str, labels: dict[str, str | None]) -> Store:
    """A review sample of the valid combinations q1/1 and q2/1 of 'default'; ``labels`` maps
    'q1'/'q2' to the label both reviewers gave ('valid'/'invalid'), None for not labelled."""
    con = store.con
    for position, query in enumerate(("q1", "q2"), start=1):
        con.execute(
            "INSERT INTO review_samples VALUES (?, ?, ?, ?, 1, 'web x 1', ?, 0)",
            [sample_id, BENCHMARK, EXPANSION, query, position],
        )
        label = labels.get(query)
        if label is None:
            continue
        for role in ("reviewer1", "reviewer2"):
            con.execute(
                "INSERT INTO review_labels (sample_id, benchmark, expansion, query_id, combo_id, "
                "role, reviewer, label) VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
                [sample_id, BENCHMARK, EXPANSION, query, role, role, label],
            )
    return store


def figures(where: str) -> dict[str, Any]:
    """The fit script's figures (toolex/data/labels/held_out.json) of one benchmark or "all"."""
    from toolex.resources import data_path

    found = json.loads(data_path(operating_points.HELD_OUT_FILE).read_text(encoding="utf-8"))
    found = found[DEFAULT_EMBEDDING]  # the default embedding's figures
    figures: dict[str, Any] = found["all"] if where == "all" else found["benchmarks"][where]
    return figures
