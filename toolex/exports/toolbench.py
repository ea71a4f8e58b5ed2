"""ToolBench-format tasks with a query's valid equivalent combinations swapped in, so the paper's
downstream question (Figure 6: does an agent still solve the task with the equivalents?) can be
answered with StableToolBench's own runner and pass-rate evaluator.

Written under ``out`` in StableToolBench's ``solvable_queries`` layout:

* ``test_instruction/<group>.json``: per group (the benchmark's task: ``G1_instruction``, ...)
  a JSON array of ``{query_id, query, api_list, "relevant APIs", toolex}``: each query's
  original task as loaded, then one task per valid alternative combination. An alternative's
  ``api_list`` is the original's with each replaced ground-truth API swapped for its equivalent
  (the equivalent's own ``api_list`` entry, as loaded; an equivalent already listed keeps its
  place and the replaced API leaves; a replaced API that is itself a member, serving another
  slot, stays), and its ``relevant APIs`` are its own members, in slot order, every one of them
  in its ``api_list``. ``toolex`` says where the task came from (query id, combination,
  members); the runner ignores keys it does not know. Each task is checked against what it
  owes its combination before anything is written (``toolbench_tasks.task_problems``;
  ``toolbench_tasks.check_toolbench`` checks a written folder against the store).
* ``test_query_ids/<group>.json``: ``{task id: 0}`` for every task, what ``eval_pass_rate.py
  --test_ids`` reads.
* ``tasks.csv``: task id -> group, query id, combo id, original or not, members: how pass rates
  come back to queries and combinations.

Task ids are integers, as StableToolBench's are (its converter splits answer file names on
``_``): an original keeps its own id, alternatives are numbered after the largest of every group
exported, so ids stay unique across groups as StableToolBench's are.

The original tasks are read from the benchmark's source folder (``benchmarks.source``), or
``source``: toolex stores the library and the labels, not each query's ``api_list``. Only a
benchmark loaded from StableToolBench's layout can be exported: its APIs are the RapidAPI tools
StableToolBench's (virtual) API server answers for.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolex.errors import InputError, ToolexError
from toolex.exports.common import resolve
from toolex.exports.files import check_folder, check_output, output_file
from toolex.exports.queries import toolbench_combinations
from toolex.exports.toolbench_tasks import key, original_tasks, task_problems
from toolex.loaders.queries import stored_benchmark
from toolex.store import Store

FORMAT = "stabletoolbench"


@dataclass
class ToolBenchExport:
    folder: Path
    groups: dict[str, int] = field(default_factory=dict)  # group -> tasks written
    originals: int = 0
    alternatives: int = 0

    def summary(self) -> str:
        per = ", ".join(f"{g} {n}" for g, n in self.groups.items())
        return (
            f"wrote {self.originals + self.alternatives} ToolBench tasks to {self.folder} "
            f"({self.originals} originals, {self.alternatives} with equivalents swapped in; {per})"
        )


def export_toolbench(
    store: Store,
    out: str | Path,
    benchmark: str | None = None,
    expansion: str = "default",
    *,
    source: str | Path | None = None,
) -> ToolBenchExport:
    benchmark, expansion = resolve(store, benchmark, expansion)
    root = _source_root(store, benchmark, source)
    guard = _guard(store, out, root)
    rows = toolbench_combinations(store, benchmark, expansion)
    groups = sorted({r.task for r in rows})
    originals = {g: original_tasks(root, g) for g in groups}
    result = ToolBenchExport(Path(out))
    tasks: dict[str, list[dict[str, Any]]] = {g: [] for g in groups}
    mapping: list[dict[str, Any]] = []
    # one numbering for every group: StableToolBench's ids are unique across its groups, and
    # tasks.csv maps a task id back to its query without its group
    known = [int(t["query_id"]) for g in groups for t in originals[g].values()]
    next_id = 1 + max(known, default=0)
    for r in rows:
        group, query_id = r.task, r.query_id
        raw = query_id.split(":", 1)[1]
        task = _original(originals, group, raw, root)
        docs = [json.loads(d) for d in r.docs]
        if r.combo_id == 0:
            task_id, out_task = task["query_id"], dict(task)
            result.originals += 1
        else:
            task_id, next_id = next_id, next_id + 1
            out_task = swapped(task, docs, task_id)
            result.alternatives += 1
        out_task["toolex"] = {
            "query_id": query_id,
            "combo_id": r.combo_id,
            "members": list(r.members),
        }
        wrong = task_problems(task, out_task, docs, r.combo_id)
        if wrong:  # a task an agent could not solve as the combination means: write nothing
            raise ToolexError(
                f"internal error: task {task_id} of {query_id} (combination {r.combo_id}) "
                f"would be exported wrong: {wrong[0]}"
            )
        tasks[group].append(out_task)
        mapping.append(
            {
                "task_id": task_id,
                "group": group,
                "query_id": query_id,
                "combo_id": r.combo_id,
                "original": r.combo_id == 0,
                "members": " + ".join(r.members),
            }
        )
    _write(result.folder, tasks, mapping, guard)
    result.groups = {g: len(t) for g, t in tasks.items()}
    return result


def _source_root(store: Store, benchmark: str, source: str | Path | None) -> Path:
    """The StableToolBench folder the tasks are read from (``source``, or where the benchmark
    was loaded from); a benchmark of another format has no ToolBench tasks."""
    stored = stored_benchmark(store, benchmark)
    if stored.format != FORMAT:
        raise ToolexError(
            f"benchmark {benchmark!r} was loaded from {stored.format!r}, not StableToolBench: "
            "ToolBench tasks need its RapidAPI tools (`toolex load stabletoolbench`), which "
            "StableToolBench's API server answers for"
        )
    return Path(source or stored.source)


def _guard(store: Store, out: str | Path, root: Path) -> tuple[str, list[str]]:
    """What the export must never write into, checked on ``out``: the store's own folders and
    the folder the tasks are read from (it once wrote 381 tasks into StableToolBench's own
    test_instruction/)."""
    guard = (store.path, [str(root)])
    check_folder(out, *guard)
    return guard


def _original(
    originals: Mapping[str, Mapping[str, dict[str, Any]]], group: str, raw: str, root: Path
) -> dict[str, Any]:
    """The source's task ``raw`` of ``group``."""
    task = originals[group].get(raw)
    if task is None:
        raise InputError(
            f"query {raw} of {group} is not in the source file (was the benchmark loaded "
            "from another copy? pass --source)",
            path=str(root / "test_instruction" / f"{group}.json"),
        )
    return task


def swapped(task: dict[str, Any], docs: list[dict[str, Any]], task_id: int) -> dict[str, Any]:
    """``task`` with its relevant APIs swapped for ``docs`` (the combination's members, slot
    order): each replaced API's entry in ``api_list`` gives way to its equivalent's, unless the
    replaced API is itself a member (it serves another slot: an equivalent may be another slot's
    original), in which case it stays and the equivalent is added at the end."""
    # an API listed twice keeps its first slot, as the loader numbered them
    relevant = list(dict.fromkeys(tuple(pair) for pair in task["relevant APIs"]))
    keys = [key(d) for d in docs]
    members = set(keys)
    api_list = [dict(a) for a in task["api_list"]]
    for old, new, doc in zip(relevant, keys, docs, strict=False):
        if old == new:
            continue
        listed = any(key(a) == new for a in api_list)
        if old in members:  # it serves another slot of this combination: it stays
            at = None
        else:  # it leaves, every entry of it (a source may list an API twice)
            at = next((i for i, a in enumerate(api_list) if key(a) == old), None)
            api_list = [a for i, a in enumerate(api_list) if i == at or key(a) != old]
        if at is not None and listed:
            api_list.pop(at)
        elif at is not None:
            api_list[at] = doc
        elif not listed:
            api_list.append(doc)
    listed_now = {key(a) for a in api_list}
    for k, doc in zip(keys, docs, strict=True):  # a source that lists a relevant API nowhere
        if k not in listed_now:
            api_list.append(doc)
            listed_now.add(k)
    return {
        **{k: v for k, v in task.items() if k not in ("api_list", "relevant APIs", "query_id")},
        "query_id": task_id,
        "api_list": api_list,
        "relevant APIs": [list(k) for k in dict.fromkeys(keys)],
    }


def _write(
    folder: Path,
    tasks: dict[str, list[dict[str, Any]]],
    mapping: Iterable[dict[str, Any]],
    guard: tuple[str, list[str]],
) -> None:
    """The three outputs, each written whole to a temporary name and moved into place
    (toolex.exports.files, with ``guard``: the store and the source folder), so a failed
    export leaves no half-written file. Every path is checked before the first is written."""
    files = {folder / "tasks.csv": ""}
    for group, items in tasks.items():
        ids = {str(t["query_id"]): 0 for t in items}
        files[folder / "test_instruction" / f"{group}.json"] = json.dumps(items, indent=1)
        files[folder / "test_query_ids" / f"{group}.json"] = json.dumps(ids, indent=1)
    for path in files:
        check_output(path, *guard)
    for path, text in files.items():
        if path.name != "tasks.csv":
            _atomic(path, text, guard)
    rows = list(mapping)
    with (
        output_file(folder / "tasks.csv", *guard) as tmp,
        open(tmp, "w", newline="", encoding="utf-8") as fh,
    ):
        writer = csv.DictWriter(
            fh, fieldnames=["task_id", "group", "query_id", "combo_id", "original", "members"]
        )
        writer.writeheader()
        writer.writerows(rows)


def _atomic(path: Path, text: str, guard: tuple[str, list[str]]) -> None:
    with output_file(path, *guard) as tmp:
        tmp.write_text(text + "\n", encoding="utf-8")
