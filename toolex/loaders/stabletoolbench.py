"""ToolBench / StableToolBench test queries (Qin et al., 2024; Guo et al., 2024).

Layout: ``<root>/test_instruction/<group>.json`` — an array of
``{query_id, query, api_list: [RapidAPI endpoint...], "relevant APIs": [[tool_name, api_name]...]}``
— and optionally ``<root>/test_query_ids/<group>.json`` (``{query_id: 0, ...}``): when present,
only those (solvable) queries are kept.

* The library is the union of every loaded group's ``api_list`` entries. Item id
  ``"{tool_name}::{api_name}"``, platform = ``tool_name`` (the provider issuing ids and tokens),
  category = ``category_name``, doc = the entry dict as found. The same id listed with a different
  doc in another query keeps the first doc; those conflicts are counted in the load notes.
* Query id ``"{group}:{query_id}"``, task = group (``G1_instruction``), category = ``G1|G2|G3``.
* qrels: ``relevant APIs`` in order (slot = position). An API listed twice in one query's
  ``relevant APIs`` keeps its first slot (a few G2 queries repeat one); repeats are counted.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from toolex.errors import InputError
from toolex.loaders.benchmark import Benchmark, item_row
from toolex.loaders.fields import Where, get_str
from toolex.loaders.readers import iter_dicts, iter_json_array, read_json_value


def item_id_of(tool_name: str, api_name: str) -> str:
    return f"{tool_name}::{api_name}"


def read_stabletoolbench(
    path: str | Path, *, groups: list[str] | None = None, name: str = "stabletoolbench"
) -> Benchmark:
    root = Path(path)
    folder = root / "test_instruction"
    if not folder.is_dir():
        raise InputError(
            "missing test_instruction/ (StableToolBench solvable_queries layout)", path=str(root)
        )
    found = {p.stem: p for p in sorted(folder.glob("*.json"))}
    if not found:
        raise InputError("no <group>.json files", path=str(folder))
    chosen = groups or list(found)
    missing = [g for g in chosen if g not in found]
    if missing:
        raise InputError(f"no group file for {missing}; found: {sorted(found)}", path=str(folder))
    bench = Benchmark(name, "stabletoolbench", str(root), label_field="relevant APIs")
    docs: dict[str, str] = {}  # item id -> digest of its first doc (not the doc: memory)
    conflicts = repeats = 0
    pending: list[tuple[str, str, Where]] = []  # qrels, checked once the whole library is read
    for group in chosen:
        keep = _solvable_ids(root / "test_query_ids" / f"{group}.json")
        path_g = found[group]
        for rec, line in iter_dicts(path_g, iter_json_array(path_g, lines_json=False)):
            where = Where(str(path_g), line)
            raw_id = get_str(rec, "query_id", where)
            if keep is not None and raw_id not in keep:
                continue
            query_id = f"{group}:{raw_id}"
            where = Where(str(path_g), line, query_id)
            conflicts += _add_apis(bench, docs, rec, where)
            bench.add_query(
                {
                    "query_id": query_id,
                    "task": group,
                    "category": group.split("_")[0],
                    "text": get_str(rec, "query", where),
                    "instruction": None,
                },
                where,
            )
            seen: set[str] = set()
            for pair in _relevant(rec, where):
                item_id = item_id_of(*pair)
                if item_id in seen:
                    repeats += 1
                    continue
                seen.add(item_id)
                pending.append((query_id, item_id, where))
    _add_qrels(bench, pending)
    if conflicts:
        bench.notes.append(
            f"{conflicts} api_list entr{'y' if conflicts == 1 else 'ies'} repeat an API id with a "
            "different doc; the first doc was kept"
        )
    if repeats:
        bench.notes.append(
            f"{repeats} repeated 'relevant APIs' entr{'y' if repeats == 1 else 'ies'} dropped"
        )
    return bench


def _add_qrels(bench: Benchmark, pending: list[tuple[str, str, Where]]) -> None:
    slots: dict[str, int] = {}
    for query_id, item_id, where in pending:
        slot = slots.get(query_id, 0)
        slots[query_id] = slot + 1
        bench.add_qrel(query_id, item_id, 1, slot, where)


def _solvable_ids(path: Path) -> set[str] | None:
    """The solvable query ids of a group; None only when the group has no such file. A path
    that exists but is no readable file (a folder, a symlink loop) is an error, not "keep
    every query": unsolvable queries would load silently."""
    if not path.exists() and not path.is_symlink():
        return None
    value = read_json_value(path)
    if isinstance(value, dict):
        return {str(k) for k in value}
    if isinstance(value, list):
        return {str(v) for v in value}
    raise InputError("expected an object or a list of query ids", path=str(path))


def _add_apis(bench: Benchmark, docs: dict[str, str], rec: dict[str, Any], where: Where) -> int:
    apis = rec.get("api_list")
    if not isinstance(apis, list):
        raise where.error("missing or not a list", "api_list")
    conflicts = 0
    for i, api in enumerate(apis):
        if not isinstance(api, dict):
            raise where.error(f"api_list[{i}] is not an object", "api_list")
        here = Where(where.path, where.line, f"{where.record} api_list[{i}]")
        tool = get_str(api, "tool_name", here)
        api_name = get_str(api, "api_name", here)  # a number is kept as its text
        item_id = item_id_of(tool, api_name)
        seen = _digest(api)
        if item_id in docs:
            conflicts += docs[item_id] != seen
            continue
        docs[item_id] = seen
        category = get_str(api, "category_name", here, required=False)
        row = item_row(
            item_id,
            api,
            here,
            name=api_name,
            platform=tool,
            category=category,
            platform_source="doc.tool_name",
        )
        bench.add_item(row, here)
    return conflicts


def _digest(api: dict[str, Any]) -> str:
    """An api_list entry's content, order of keys aside, as a short digest."""
    text = json.dumps(api, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _relevant(rec: dict[str, Any], where: Where) -> list[tuple[str, str]]:
    rel = rec.get("relevant APIs")
    if rel is None:
        raise where.error("missing required field", "relevant APIs")
    if not isinstance(rel, list) or not rel:
        raise where.error("expected a non-empty list of [tool_name, api_name]", "relevant APIs")
    out = []
    for pair in rel:
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
        ):
            raise where.error(f"expected [tool_name, api_name], found {pair!r}", "relevant APIs")
        out.append((pair[0], pair[1]))
    return out
