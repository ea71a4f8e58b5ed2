"""What an exported ToolBench folder must hold, checked against the store it came from.

``export toolbench`` swaps a query's equivalents into its ``api_list``; an agent run on a task
whose relevant API is missing from that list cannot call it, so the pass rate of that task says
nothing about the equivalent. Every task of a folder is held to the store's own facts:

* the folder holds exactly the store's valid combinations: each query's original and one task
  per valid alternative (``tasks.csv`` maps task ids, unique across groups, to them;
  ``test_query_ids`` lists every task id);
* an original is the source's task as loaded;
* an alternative's ``relevant APIs`` are its members, in slot order, and each is in its
  ``api_list``;
* its ``api_list`` is the original's, less the replaced APIs that serve no slot of the
  alternative, plus its members, each listed once (an entry the source itself lists twice may
  stay twice);
* each entry is the store's documentation of that API, or for an API of the original's
  ``api_list``, the original's own entry (the loader keeps the first of two differing entries
  of one API: the source's may be the other).

:func:`task_problems` checks one task (the export runs it on every task before writing);
:func:`check_toolbench` reads a folder back and checks all of it.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from toolex.errors import InputError
from toolex.exports.common import resolve
from toolex.exports.queries import toolbench_combinations
from toolex.loaders.queries import stored_benchmark
from toolex.store import Store


class ToolBenchProblem(NamedTuple):
    """One way an exported task departs from the store: where, and what."""

    group: str
    task_id: str
    query_id: str
    combo_id: int | None
    problem: str

    def __str__(self) -> str:
        combo = "" if self.combo_id is None else f" (combination {self.combo_id})"
        return f"{self.group} task {self.task_id} of {self.query_id}{combo}: {self.problem}"


def key(api: Mapping[str, object]) -> tuple[str, str]:
    """An API's identity in ToolBench's files: (tool_name, api_name)."""
    return (str(api.get("tool_name")), str(api.get("api_name")))


def task_problems(
    original: dict[str, Any], task: dict[str, Any], docs: list[dict[str, Any]], combo_id: int
) -> list[str]:
    """How ``task`` departs from what the export owes combination ``combo_id``, whose members'
    documentation (slot order) is ``docs``, of the query whose source task is ``original``."""
    if combo_id == 0:
        same = {k: v for k, v in task.items() if k != "toolex"} == original
        return [] if same else ["the original task is not the source's task as loaded"]
    members = [key(d) for d in docs]
    relevant = [tuple(pair) for pair in task.get("relevant APIs", [])]
    problems = []
    if relevant != list(dict.fromkeys(members)):
        problems.append(f"relevant APIs {relevant} are not the combination's members {members}")
    entries: list[Mapping[str, object]] = [
        a for a in task.get("api_list", []) if isinstance(a, dict)
    ]
    theirs: list[Mapping[str, object]] = original["api_list"]
    replaced = {tuple(pair) for pair in original["relevant APIs"]} - set(members)
    problems += _listing_problems(theirs, replaced, entries, members)
    return problems + _entry_problems(theirs, entries, docs)


def _listing_problems(
    original: list[Mapping[str, object]],
    replaced: set[tuple[str, ...]],
    entries: list[Mapping[str, object]],
    members: list[tuple[str, str]],
) -> list[str]:
    """Which APIs the task's api_list holds against what it should: the original's list with
    the ``replaced`` relevant APIs swapped for the combination's ``members``, none twice."""
    problems = []
    listed = Counter(key(a) for a in entries)
    missing = [m for m in dict.fromkeys(members) if m not in listed]
    if missing:
        problems.append(f"relevant API(s) missing from api_list: {_names(missing)}")
    before = [key(a) for a in original]
    expected = (set(before) - replaced) | set(members)
    if set(listed) != expected:
        extra, lost = set(listed) - expected, expected - set(listed)
        if extra:
            problems.append(f"api_list holds what it should not: {_names(extra)}")
        if lost - set(missing):
            problems.append(f"api_list lost APIs it should keep: {_names(lost - set(missing))}")
    own = Counter(before)
    twice = [k for k, n in listed.items() if n > max(own.get(k, 0), 1)]
    if twice:
        problems.append(f"api_list repeats {_names(twice)}")
    return problems


def _entry_problems(
    original: list[Mapping[str, object]],
    entries: list[Mapping[str, object]],
    docs: Sequence[Mapping[str, object]],
) -> list[str]:
    """Each api_list entry is the store's documentation of its API or the original's entry."""
    stored = {key(d): d for d in docs}
    theirs: dict[tuple[str, str], list[Mapping[str, object]]] = {}
    for a in original:
        theirs.setdefault(key(a), []).append(a)
    return [
        f"api_list entry {_names([key(entry)])} is neither the store's documentation of it nor "
        "the original's entry"
        for entry in entries
        if entry != stored.get(key(entry)) and entry not in theirs.get(key(entry), [])
    ]


def check_toolbench(
    store: Store,
    folder: str | Path,
    benchmark: str | None = None,
    expansion: str = "default",
    *,
    source: str | Path | None = None,
) -> list[ToolBenchProblem]:
    """Every way the exported ``folder`` departs from the store's valid combinations of
    ``expansion`` and the source tasks (``source``, default: the folder the benchmark was loaded
    from); an empty list when it holds exactly what it should."""
    benchmark, expansion = resolve(store, benchmark, expansion)
    folder = Path(folder)
    root = Path(source or stored_benchmark(store, benchmark).source)
    rows = toolbench_combinations(store, benchmark, expansion)
    wanted = {(r.query_id, r.combo_id): r for r in rows}
    mapping = _mapping(folder / "tasks.csv")
    problems: list[ToolBenchProblem] = []
    seen: set[tuple[str, int]] = set()
    done: dict[str, str] = {}  # task id -> the group it was first met in
    for group in sorted({r.task for r in rows} | {g for g, _ in mapping}):
        originals = original_tasks(root, group)
        tasks = _json(folder / "test_instruction" / f"{group}.json")
        ids = _json(folder / "test_query_ids" / f"{group}.json")
        for task in tasks:
            task_id = str(task.get("query_id"))
            row = mapping.get((group, task_id))
            if task_id in done:  # the join of tasks.csv and pass rates on task_id breaks
                problems.append(
                    ToolBenchProblem(group, task_id, "?", None, f"task id also {done[task_id]}'s")
                )
            done.setdefault(task_id, group)
            if row is None:
                problems.append(ToolBenchProblem(group, task_id, "?", None, "not in tasks.csv"))
                continue
            query_id, combo_id = row["query_id"], int(row["combo_id"])
            where = (group, task_id, query_id, combo_id)
            if task_id not in ids:
                problems.append(ToolBenchProblem(*where, "not in test_query_ids"))
            combo = wanted.get((query_id, combo_id))
            if combo is None:
                problems.append(ToolBenchProblem(*where, "no valid combination of the store"))
                continue
            seen.add((query_id, combo_id))
            docs = [json.loads(d) for d in combo.docs]
            original = originals.get(query_id.split(":", 1)[1])
            if original is None:
                problems.append(ToolBenchProblem(*where, "not in the source's tasks"))
                continue
            for problem in task_problems(original, task, docs, combo_id):
                problems.append(ToolBenchProblem(*where, problem))
    for query_id, combo_id in sorted(set(wanted) - seen):
        group = wanted[(query_id, combo_id)].task
        problems.append(
            ToolBenchProblem(group, "-", query_id, combo_id, "valid combination not exported")
        )
    return problems


def original_tasks(root: Path, group: str) -> dict[str, dict[str, Any]]:
    """The source's tasks of ``group`` by query id (toolex keeps the library and the labels, not
    each query's api_list)."""
    path = root / "test_instruction" / f"{group}.json"
    if not path.is_file():
        raise InputError(
            f"the original tasks of {group} are not there: toolex keeps the library and the "
            "labels, each query's api_list is read from the StableToolBench folder (pass "
            "--source PATH)",
            path=str(path),
        )
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise InputError(f"not JSON: {exc}", path=str(path)) from None
    return {str(t["query_id"]): t for t in records if isinstance(t, dict) and "query_id" in t}


def _names(keys: Iterable[tuple[str, str]]) -> str:
    return ", ".join(f"{tool}::{api}" for tool, api in sorted(keys))


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("missing from the exported folder", path=str(path)) from None
    except ValueError as exc:
        raise InputError(f"not JSON: {exc}", path=str(path)) from None


def _mapping(path: Path) -> dict[tuple[str, str], dict[str, str]]:
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            return {(row["group"], row["task_id"]): row for row in csv.DictReader(fh)}
    except FileNotFoundError:
        raise InputError("missing from the exported folder", path=str(path)) from None
