"""Labelled verdicts as judge tasks: the sub-query, both documentations, the request.

Where the sub-query comes from (``subqueries``):

- ``decomposer`` (default): the decompose judge (the offline ``heuristic`` unless the config names
  another) decomposes the label's query in memory, and the verifier is asked with the sub-query
  it writes for the reference's slot: the judge end to end, as an expansion asks it. No pipeline
  table is written;
- ``expansion``: the expansion's sub-query for (query, reference) (table ``subqueries``,
  ``reference``), else a decomposition as above;
- ``labels``: the label's own sub-query (a diagnostic: the judge fed the sub-query a person or
  an earlier decomposer wrote), else the expansion's, else a decomposition.

A decomposition that fails leaves its labels unresolved; they are counted, never guessed.

Each task also carries its strata: benchmark, part (the label's ``stratum.part``, else
``stratum.category``, else the query's category) and rank band (the label's
``stratum.candidate_source`` when it is a band or 'near-duplicate', else the band of
``stratum.rank``, else of the candidate's rank in the expansion, else 'unranked').
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

import pyarrow as pa

from toolex.judges.base import DecomposeTask, Judge, SubQuery, ToolDoc, VerifyTask, tool_doc
from toolex.labels.queries import LabelTaskRow, label_task_rows, references
from toolex.labels.records import Label
from toolex.labels.spread import spread
from toolex.progress import progress
from toolex.store import Store

SUBQUERY_SOURCES = ("decomposer", "expansion", "labels")
RANK_BANDS = ((3, "rank 1-3"), (10, "rank 4-10"), (20, "rank 11-20"))
NEAR_DUPLICATE = "near-duplicate"
STRATA = ("benchmark", "part", "rank band")
EVAL_LABELS = pa.schema(
    [
        ("key", pa.string()),
        ("benchmark", pa.string()),
        ("query_id", pa.string()),
        ("subquery", pa.string()),
        ("reference", pa.string()),
        ("candidate", pa.string()),
        ("label", pa.string()),
        ("note", pa.string()),
        ("source", pa.string()),
        ("stratum", pa.string()),
    ]
)


@dataclass(frozen=True)
class LabelledTask:
    """A verify task with the label it is scored against."""

    task: VerifyTask
    label: str  # yes | no
    note: str | None
    benchmark: str
    query_id: str
    slot: int
    subquery_from: str  # label | expansion | decomposed
    strata: dict[str, str]


@dataclass
class LabelTasks:
    tasks: list[LabelledTask]
    dropped: int = 0  # labels whose query or items the store no longer holds
    unresolved: list[tuple[str, str]] = field(default_factory=list)  # (key, why)
    decompose: list[tuple[str, DecomposeTask]] = field(default_factory=list)  # for a dry run

    def origins(self) -> dict[str, int]:
        """How many sub-queries came from the labels, the expansion, or a decomposition."""
        out: dict[str, int] = {}
        for t in self.tasks:
            out[t.subquery_from] = out.get(t.subquery_from, 0) + 1
        return out


def task_key(benchmark: str, query_id: str, slot: int, candidate: str) -> str:
    return f"{benchmark}:{query_id}/{slot}/{candidate}"


def stratum_order(value: str) -> tuple[int, str]:
    """Sort key of stratum values: rank bands by rank, then every other value by name."""
    bands = [band for _, band in RANK_BANDS] + ["rank 21+", NEAR_DUPLICATE, "unranked"]
    return (bands.index(value), "") if value in bands else (len(bands), value)


def rank_band(stratum: dict[str, Any] | None, expansion_rank: int | None) -> str:
    stratum = stratum or {}
    named = stratum.get("candidate_source")
    if named == NEAR_DUPLICATE or named in {band for _, band in RANK_BANDS}:
        return str(named)
    rank = stratum.get("rank")
    rank = rank if isinstance(rank, int) and not isinstance(rank, bool) else expansion_rank
    if rank is None:
        return "unranked"
    return next((band for cut, band in RANK_BANDS if rank <= cut), "rank 21+")


def label_tasks(
    store: Store,
    labels: Sequence[Label],
    *,
    expansion: str = "default",
    subqueries: str = "decomposer",
    decomposer: Callable[[str], Judge],
    call_decomposer: bool = True,
    spread_seed: int | None = None,
) -> LabelTasks:
    """The verify tasks of ``labels``; ``decomposer(benchmark)`` gives the decompose judge.

    With ``call_decomposer`` False (a dry run of a judge that makes calls) queries to decompose
    are returned in ``decompose`` instead, and their tasks carry a stand-in sub-query (the
    reference's description) so that their verify prompts can still be priced. With
    ``spread_seed`` (a run under a call budget) the queries are decomposed in rounds of
    ``SPREAD_ROUND`` per benchmark, in the seed's order, rather than benchmark after benchmark:
    a budget spent while decomposing still leaves every benchmark something."""
    if subqueries not in SUBQUERY_SOURCES:
        raise ValueError(f"subqueries must be one of {SUBQUERY_SOURCES}, not {subqueries!r}")
    keyed = [(f"#{i}", label) for i, label in enumerate(labels)]
    table = pa.Table.from_pylist(
        [
            {
                "key": key,
                **{f: getattr(label, f) for f in EVAL_LABELS.names if f not in ("key", "stratum")},
                "stratum": json.dumps(label.stratum) if label.stratum else None,
            }
            for key, label in keyed
        ],
        schema=EVAL_LABELS,
    )
    with store.registered("eval_labels", table):
        rows = label_task_rows(store, expansion)
    out = LabelTasks([], dropped=len(labels) - len(rows))
    need: dict[str, set[str]] = {}  # benchmark -> queries to decompose
    for r in rows:
        if _subquery(r, subqueries)[0] is None:
            need.setdefault(r.benchmark, set()).add(r.query_id)
    decomposed: dict[tuple[str, str, str], str] = {}  # (benchmark, query, reference) -> text
    failures: dict[tuple[str, str], str] = {}  # (benchmark, query) -> why
    for bench, query_ids in _rounds(need, spread_seed):
        found, failed, asked = _decompose(store, bench, query_ids, decomposer, call_decomposer)
        decomposed |= {(bench, q, ref): text for (q, ref), text in found.items()}
        failures |= {(bench, q): why for q, why in failed.items()}
        out.decompose += [(bench, t) for t in asked]
    used: set[str] = set()
    for r in rows:
        text, origin = _subquery(r, subqueries)
        if text is None:
            text = decomposed.get((r.benchmark, r.query_id, r.reference))
            origin = "decomposed"
        key = task_key(r.benchmark, r.query_id, r.slot, r.candidate)
        if key in used:  # the same verdict labelled in two sources of one file
            key += f"@{r.source}"
        used.add(key)
        if text is None:
            why = failures.get((r.benchmark, r.query_id), "no sub-query for the reference")
            out.unresolved.append((key, why))
            continue
        stratum = json.loads(r.stratum) if r.stratum else None
        part = (stratum or {}).get("part") or (stratum or {}).get("category")
        out.tasks.append(
            LabelledTask(
                VerifyTask(
                    key,
                    text,
                    tool_doc(r.candidate, r.c_name, r.c_platform, r.c_doc, r.c_text, r.c_kind),
                    tool_doc(r.reference, r.r_name, r.r_platform, r.r_doc, r.r_text, r.r_kind),
                    r.request,
                ),
                label=r.label,
                note=r.note,
                benchmark=r.benchmark,
                query_id=r.query_id,
                slot=r.slot,
                subquery_from=origin,
                strata={
                    "benchmark": r.benchmark,
                    "part": str(part or r.query_category or "?"),
                    "rank band": rank_band(stratum, r.expansion_rank),
                },
            )
        )
    out.tasks.sort(key=lambda t: t.task.key)
    return out


SPREAD_ROUND = 25  # queries of one benchmark decomposed in a round, under a budget


def _rounds(need: dict[str, set[str]], seed: int | None) -> list[tuple[str, list[str]]]:
    """(benchmark, its queries) to decompose: each benchmark whole, in order; with ``seed``,
    rounds of SPREAD_ROUND queries per benchmark in turn, each benchmark's in the seed's order."""
    if seed is None:
        return [(bench, sorted(ids)) for bench, ids in sorted(need.items())]
    order = {b: spread(sorted(ids), lambda q: (), seed) for b, ids in sorted(need.items())}
    deepest = max((len(ids) for ids in order.values()), default=0)
    return [
        (bench, sorted(ids[start : start + SPREAD_ROUND]))
        for start in range(0, deepest, SPREAD_ROUND)
        for bench, ids in order.items()
        if ids[start : start + SPREAD_ROUND]
    ]


def _subquery(row: LabelTaskRow, subqueries: str) -> tuple[str | None, str]:
    if subqueries == "labels" and row.label_subquery:
        return row.label_subquery, "label"
    if subqueries != "decomposer" and row.expansion_subquery:
        return row.expansion_subquery, "expansion"
    return None, "decomposed"


def _decompose(
    store: Store,
    benchmark: str,
    query_ids: list[str],
    decomposer: Callable[[str], Judge],
    call: bool,
) -> tuple[dict[tuple[str, str], str], dict[str, str], list[DecomposeTask]]:
    """Sub-query per (query, reference) from the decompose judge, nothing written; failures per
    query; and, when not ``call``, the tasks left unasked with stand-in sub-queries."""
    rows = references(store, benchmark, query_ids)
    tasks = []
    for query_id, group in groupby(rows, key=lambda r: r.query_id):
        members = list(group)
        tools = tuple(
            tool_doc(r.item_id, r.name, r.platform, r.doc, r.text, r.kind) for r in members
        )
        tasks.append(DecomposeTask(query_id, members[0].query, members[0].instruction, tools))
    found: dict[tuple[str, str], str] = {}
    failed: dict[str, str] = {}
    if not call:
        for t in tasks:
            for tool in t.tools:
                found[(t.key, tool.item_id)] = _stand_in(tool)
        return found, failed, tasks
    by_key = {t.key: t for t in tasks}
    # A progress task: on a local model this takes minutes (issue 28.5: 22 min without a line).
    with progress(f"decompose {benchmark} (in memory)", len(tasks), unit="queries") as advance:
        for outcome in decomposer(benchmark).decompose(tasks):
            advance(1)
            task = by_key.get(outcome.key)
            if task is None:
                continue
            subs = outcome.value if outcome.ok and isinstance(outcome.value, list) else None
            if not subs or not all(isinstance(s, SubQuery) for s in subs):
                failed[task.key] = f"decomposition failed: {outcome.error or 'no sub-queries'}"
                continue
            expected = {i: tool.item_id for i, tool in enumerate(task.tools)}
            for s in subs:
                if expected.get(s.slot) == s.item_id and s.text.strip():
                    found[(task.key, s.item_id)] = s.text.strip()
    return found, failed, []


def _stand_in(tool: ToolDoc) -> str:
    """A sub-query-sized text for pricing a prompt before its sub-query exists."""
    return (tool.text.split(".")[0] or tool.item_id)[:120]
