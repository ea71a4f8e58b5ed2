"""ToolRet (Shi et al., 2025, "Retrieval Models Aren't Tool-Savvy", arXiv:2503.01763).

Two on-disk layouts, detected from the folder given:

* **task folders** (the JSON export in ../shared/data/toolret, LittleDinoC/MFTR
  ``dataset/from_toolret``): ``<root>/<task>/queries.json`` — an array of
  ``{id, query, instruction, labels: [{id, doc, relevance}], category}`` — and
  ``<root>/<task>/tools.json`` — an array of ``{id, documentation: {...}, type}``.
  ``.jsonl`` variants of both files are read too. ``<root>`` may also be one task folder.
* **Hugging Face layout** (snapshots of ``mangopy/ToolRet-Queries`` and
  ``mangopy/ToolRet-Tools``): ``<root>/ToolRet-Queries/<task>/queries-*.parquet`` (config per
  task, ``labels`` stored as a JSON string) and ``<root>/ToolRet-Tools/<category>/tools-*.parquet``
  (config per category, ``documentation`` a JSON string). The two snapshots may also live
  apart: pass the queries snapshot as the path and the tools snapshot as ``tools``. A task's
  tools are those whose id starts with ``<task with '-' as '_'>_tool_`` plus every tool its
  qrels name, which reproduces the per-task export. JSON/JSONL files in place of Parquet are
  accepted.

Category comes from ToolRet's own ``toolret/config.py`` (``_TASK_2_CATEGORY``, 35 tasks); for a
task it does not list, from the query's ``category`` / the tool's ``type`` field. A query's
``labels`` field (ToolRet's word for its relevance judgements; toolex calls them qrels, and keeps
"label" for a person's verdict) become qrels that keep their relevance and their order
(``slot``); a tool listed twice in one query's qrels is one qrel in its first slot with the
higher relevance (counted in a note), as in ``load plain``.

ToolRet has no platform field; the platform is derived from the documentation where it says one
(toolex.loaders.platforms: a ToolBench ``tool_name``, a single-provider task such as apibank, "the
X API" in a web tool's description), recorded in ``platform_source``, and reported per task by
the load. A derived platform is not rendered into the text, which stays what ToolRet indexes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolex.errors import InputError
from toolex.loaders.benchmark import Benchmark, item_row
from toolex.loaders.fields import Where, get_doc, get_id, get_int, get_str
from toolex.loaders.platforms import fold, toolret_platform
from toolex.loaders.readers import iter_dicts, iter_records, loads, read_records

# ToolRet's toolret/config.py, _TASK_2_CATEGORY (mangopy/tool-retrieval-benchmark).
TASK_CATEGORY: dict[str, str] = {
    **dict.fromkeys(
        [
            "craft-math-algebra",
            "craft-tabmwp",
            "craft-vqa",
            "gorilla-huggingface",
            "gorilla-pytorch",
            "gorilla-tensor",
            "toolink",
        ],
        "code",
    ),
    **dict.fromkeys(
        [
            "apibank",
            "apigen",
            "mnms",
            "reversechain",
            "rotbench",
            "t-eval-dialog",
            "t-eval-step",
            "taskbench-daily",
            "toolace",
            "toolbench",
            "toolemu",
            "tooleyes",
            "toollens",
            "ultratool",
            "autotools-food",
            "autotools-music",
            "autotools-weather",
            "restgpt-spotify",
            "restgpt-tmdb",
        ],
        "web",
    ),
    **dict.fromkeys(
        [
            "appbench",
            "gpt4tools",
            "gta",
            "taskbench-huggingface",
            "taskbench-multimedia",
            "metatool",
            "tool-be-honest",
            "toolalpaca",
            "toolbench-sam",
        ],
        "customized",
    ),
}
CATEGORIES = ("code", "customized", "web")
_SUFFIXES = (".json", ".jsonl", ".parquet")


def tool_prefix(task: str) -> str:
    """Id prefix of a task's tools: gorilla-huggingface -> gorilla_huggingface_tool_."""
    return task.replace("-", "_") + "_tool_"


def read_toolret(
    path: str | Path,
    *,
    tasks: list[str] | None = None,
    name: str = "toolret",
    tools: str | Path | None = None,
) -> Benchmark:
    """Read (and validate) ToolRet tasks from ``path`` in either layout; ``tools`` names a
    separate ToolRet-Tools snapshot, making ``path`` the ToolRet-Queries snapshot."""
    root = Path(path)
    if not root.is_dir():
        raise InputError("not a folder (expected ToolRet task folders)", path=str(root))
    if tools is not None:
        bench = Benchmark(name, "toolret", f"{root} + {tools}")
        _read_hub_layout(bench, root, Path(tools), tasks)
    elif (root / "ToolRet-Queries").is_dir():
        bench = Benchmark(name, "toolret", str(root))
        _read_hub_layout(bench, root / "ToolRet-Queries", root / "ToolRet-Tools", tasks)
    else:
        bench = Benchmark(name, "toolret", str(root))
        for task, folder in _task_folders(root, tasks):
            tools_file = _one_file(folder, "tools")
            for rec, line in iter_dicts(tools_file, iter_records(tools_file)):
                _add_tool(bench, rec, Where(str(tools_file), line), task)
            queries = _one_file(folder, "queries")
            for rec, line in iter_dicts(queries, iter_records(queries)):
                _add_query(bench, rec, Where(str(queries), line), task)
    if bench.repeated_qrels:
        bench.notes.append(
            f"{bench.repeated_qrels} qrel(s) repeat a tool within a query (one tool in two "
            "steps); merged into its first slot, keeping the highest relevance, the later qrels "
            "moving up a slot so slots stay 0..k-1"
        )
    fold(bench.items)
    return bench


def _task_folders(root: Path, tasks: list[str] | None) -> list[tuple[str, Path]]:
    if _find(root, "queries"):
        found = {root.name: root}
    else:
        found = {d.name: d for d in sorted(root.iterdir()) if d.is_dir() and _find(d, "queries")}
    if not found:
        raise InputError(
            "no ToolRet task folder (<task>/queries.json + tools.json) here", path=str(root)
        )
    if not tasks:
        return list(found.items())
    missing = [t for t in tasks if t not in found]
    if missing:
        raise InputError(f"no task folder for {missing}; found: {sorted(found)}", path=str(root))
    return [(t, found[t]) for t in tasks]


def _find(folder: Path, stem: str) -> list[Path]:
    """Files ``<stem>.json|jsonl|parquet`` or Hub shards ``<stem>-00000-of-00001.parquet``."""
    return sorted(
        p
        for p in folder.iterdir()
        if p.is_file()
        and p.suffix in _SUFFIXES
        and (p.stem == stem or p.stem.startswith(stem + "-"))
    )


def _one_file(folder: Path, stem: str) -> Path:
    files = _find(folder, stem)
    if not files:
        raise InputError(f"missing {stem}.json (or .jsonl/.parquet)", path=str(folder))
    if len(files) > 1:
        raise InputError(f"several {stem} files: {[f.name for f in files]}", path=str(folder))
    return files[0]


def _add_tool(bench: Benchmark, rec: Mapping[str, object], where: Where, task: str) -> None:
    item_id = get_id(rec, "id", where)
    where = Where(where.path, where.line, item_id)
    doc = get_doc(rec, "documentation", where)
    category = TASK_CATEGORY.get(task) or get_str(rec, "type", where, required=False)
    given = doc.get("name")
    name = given if isinstance(given, str) else None
    row = item_row(item_id, doc, where, name=name, task=task, category=category)
    # set after rendering: the text stays the one ToolRet's retrievers index
    row["platform"], row["platform_source"] = toolret_platform(
        item_id, task, category, doc, tool_prefix(task)
    )
    bench.add_item(row, where)


def _add_query(
    bench: Benchmark,
    rec: Mapping[str, object],
    where: Where,
    task: str,
    default: str | None = None,
) -> None:
    query_id = get_id(rec, "id", where)
    where = Where(where.path, where.line, query_id)
    text = get_str(rec, "query", where)
    category = TASK_CATEGORY.get(task) or get_str(rec, "category", where, required=False) or default
    instruction = get_str(rec, "instruction", where, required=False)
    bench.add_query(
        {
            "query_id": query_id,
            "task": task,
            "category": category,
            "text": text,
            "instruction": instruction,
        },
        where,
    )
    # A tool listed twice (one tool in two steps) is one qrel, as in the plain loader: its
    # first slot and highest relevance, the later qrels moving up so slots stay 0..k-1.
    kept: dict[str, list[int]] = {}
    for n, qrel in enumerate(_qrels(rec, where)):
        if not isinstance(qrel, dict):
            raise where.error(f"qrel {n} is not an object", "labels")
        item_id = get_id(qrel, "id", where)
        relevance = get_int(qrel, "relevance", where, 1)
        if item_id in kept:
            kept[item_id][0] = max(kept[item_id][0], relevance)
            bench.repeated_qrels += 1
        else:
            kept[item_id] = [relevance, len(kept)]
    for item_id, (relevance, slot) in kept.items():
        bench.add_qrel(query_id, item_id, relevance, slot, where)


def _qrels(rec: Mapping[str, object], where: Where) -> list[object]:
    """The query's qrels, read from ToolRet's field ``labels`` (the source's word, kept as the
    field name errors cite); the Hub Parquet stores the list as a JSON string."""
    import json

    qrels = rec.get("labels")
    if isinstance(qrels, str):
        try:
            qrels = loads(qrels)  # bounded: no NaN, no 100-level nesting
        except json.JSONDecodeError as exc:
            raise where.error(f"labels string is not JSON: {exc.msg}", "labels") from None
    if qrels is None:
        raise where.error("missing required field", "labels")
    if not isinstance(qrels, list) or not qrels:
        raise where.error("expected a non-empty list of qrels", "labels")
    return qrels


def _read_hub_layout(bench: Benchmark, qroot: Path, troot: Path, tasks: list[str] | None) -> None:
    found = {d.name: d for d in sorted(qroot.iterdir()) if d.is_dir() and _find(d, "queries")}
    if not found:
        raise InputError("no <task>/queries-*.parquet under the queries snapshot", path=str(qroot))
    chosen = tasks or list(found)
    missing = [t for t in chosen if t not in found]
    if missing:
        raise InputError(f"no task config for {missing}; found: {sorted(found)}", path=str(qroot))
    pools: dict[str, list[tuple[dict[str, Any], Where]]] = {}
    for task in chosen:
        qfile = _one_file(found[task], "queries")
        query_recs = [
            (r, Where(str(qfile), line)) for r, line in iter_dicts(qfile, read_records(qfile))
        ]
        wanted = {
            str(qrel.get("id"))
            for rec, where in query_recs
            for qrel in _qrels(rec, where)
            if isinstance(qrel, dict)
        }
        category = TASK_CATEGORY.get(task)
        cats = [category] if category else [c for c in CATEGORIES if (troot / c).is_dir()]
        found_in = set()
        for cat in cats:
            if cat not in pools:
                pools[cat] = _read_pool(troot, cat)
            for rec, where in pools[cat]:
                tool_id = str(rec.get("id"))
                if (
                    tool_id.startswith(tool_prefix(task)) or tool_id in wanted
                ) and not bench.has_item(tool_id):
                    _add_tool(bench, {"type": cat, **rec}, where, task)
                    found_in.add(cat)
        # a task outside ToolRet's map takes the category of the config its tools came from
        default = category or (found_in.pop() if len(found_in) == 1 else None)
        for rec, where in query_recs:
            _add_query(bench, rec, where, task, default)


def _read_pool(troot: Path, category: str) -> list[tuple[dict[str, object], Where]]:
    folder = troot / category
    if not folder.is_dir():
        raise InputError(f"missing the {category!r} tools config folder", path=str(folder))
    tfile = _one_file(folder, "tools")
    return [(r, Where(str(tfile), line)) for r, line in iter_dicts(tfile, read_records(tfile))]
