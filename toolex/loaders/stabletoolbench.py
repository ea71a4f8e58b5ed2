"""ToolBench / StableToolBench test queries (Qin et al., 2024; Guo et al., 2024).

Layout: ``<root>/test_instruction/<group>.json`` — an array of
``{query_id, query, api_list: [RapidAPI endpoint...], "relevant APIs": [[tool_name, api_name]...]}``
— and optionally ``<root>/test_query_ids/<group>.json`` (``{query_id: 0, ...}``): when present,
only those (solvable) queries are kept.

* The library is the union of every loaded group's ``api_list`` entries. Item id
  ``"{tool_name}::{api_name}"``, platform = ``tool_name`` (the provider issuing ids and tokens),
  category = ``category_name``, doc = the entry dict as found. The same id listed with a different
  doc in another query keeps the first doc; those conflicts are counted in the load notes. Two
  different (tool_name, api_name) pairs that join into one id (tool ``a::b`` + API ``c`` and
  tool ``a`` + API ``b::c``) are refused: they are two APIs, and one id cannot name both.
* Query id ``"{group}:{query_id}"``, task = group (``G1_instruction``), category = ``G1|G2|G3``.
* qrels: ``relevant APIs`` in order (slot = position). An API listed twice in one query's
  ``relevant APIs`` keeps its first slot (a few G2 queries repeat one); repeats are counted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from toolex.errors import InputError
from toolex.loaders.benchmark import Benchmark, item_row
from toolex.loaders.fields import Where, get_id, get_str
from toolex.loaders.readers import iter_dicts, iter_json_array, read_json_value

# item id -> (tool_name, api_name, where first listed, digest of its first doc); the doc itself
# is not kept (memory)
_Library = dict[str, tuple[str, str, Where, str]]


def item_id_of(tool_name: str, api_name: str) -> str:
    return f"{tool_name}::{api_name}"


def read_stabletoolbench(
    path: str | Path, *, groups: list[str] | None = None, name: str = "stabletoolbench"
) -> Benchmark:
    root = Path(path)
    bench = Benchmark(name, "stabletoolbench", str(root), qrel_field="relevant APIs")
    reading = _Reading(bench)
    for group, path_g in _group_files(root, groups).items():
        keep = _solvable_ids(root / "test_query_ids" / f"{group}.json")
        reading.read_group(group, path_g, keep)
    _add_qrels(bench, reading.docs, reading.pending)
    if reading.conflicts:
        n = reading.conflicts
        bench.notes.append(
            f"{n} api_list entr{'y' if n == 1 else 'ies'} repeat an API id with a "
            "different doc; the first doc was kept"
        )
    if reading.repeats:
        n = reading.repeats
        bench.notes.append(f"{n} repeated 'relevant APIs' entr{'y' if n == 1 else 'ies'} dropped")
    return bench


def _group_files(root: Path, groups: list[str] | None) -> dict[str, Path]:
    """The chosen groups' query files (every group's by default), in the order chosen."""
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
    return {g: found[g] for g in chosen}


@dataclass
class _Reading:
    """The groups' queries read into ``bench``; their qrels wait in ``pending`` until the whole
    library is read (a qrel is checked against it)."""

    bench: Benchmark
    docs: _Library = field(default_factory=dict)
    pending: list[tuple[str, tuple[str, str], Where]] = field(default_factory=list)
    conflicts: int = 0  # api_list entries repeating an API id with another doc
    repeats: int = 0  # 'relevant APIs' entries given twice in one query

    def read_group(self, group: str, path_g: Path, keep: set[str] | None) -> None:
        for rec, line in iter_dicts(path_g, iter_json_array(path_g, lines_json=False)):
            where = Where(str(path_g), line)
            raw_id = get_str(rec, "query_id", where)
            if keep is not None and raw_id not in keep:
                continue
            query_id = f"{group}:{raw_id}"
            where = Where(str(path_g), line, query_id)
            self.conflicts += _add_apis(self.bench, self.docs, rec, where)
            self.bench.add_query(
                {
                    "query_id": query_id,
                    "task": group,
                    "category": group.split("_")[0],
                    "text": get_str(rec, "query", where),
                    "instruction": None,
                },
                where,
            )
            seen: set[tuple[str, str]] = set()
            for pair in _relevant(rec, where):
                if pair in seen:
                    self.repeats += 1
                    continue
                seen.add(pair)
                self.pending.append((query_id, pair, where))


def _add_qrels(
    bench: Benchmark, docs: _Library, pending: list[tuple[str, tuple[str, str], Where]]
) -> None:
    slots: dict[str, int] = {}
    for query_id, pair, where in pending:
        item_id = item_id_of(*pair)
        _same_api(docs, item_id, pair, where, "relevant APIs")
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


def _add_apis(bench: Benchmark, docs: _Library, rec: Mapping[str, object], where: Where) -> int:
    apis = rec.get("api_list")
    if not isinstance(apis, list):
        raise where.error("missing or not a list", "api_list")
    conflicts = 0
    for i, api in enumerate(apis):
        if not isinstance(api, dict):
            raise where.error(f"api_list[{i}] is not an object", "api_list")
        here = Where(where.path, where.line, f"{where.record} api_list[{i}]")
        tool = get_id(api, "tool_name", here)
        api_name = get_id(api, "api_name", here)  # a number is kept as its text
        item_id = item_id_of(tool, api_name)
        seen = _digest(api)
        if item_id in docs:
            _same_api(docs, item_id, (tool, api_name), here, "api_name")
            conflicts += docs[item_id][3] != seen
            continue
        docs[item_id] = (tool, api_name, here, seen)
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


def _same_api(
    docs: _Library,
    item_id: str,
    pair: tuple[str, str],
    where: Where,
    field: str,
) -> None:
    """Refuse a (tool_name, api_name) pair whose joined id is another pair's."""
    first = docs.get(item_id)
    if first is not None and (first[0], first[1]) != pair:
        at = first[2]
        raise where.error(
            f"tool {pair[0]!r} + API {pair[1]!r} and tool {first[0]!r} + API {first[1]!r} (at "
            f"line {at.line}, {at.record}) both make the item id {item_id!r} "
            "(tool_name::api_name): two APIs cannot share one id; rename one",
            field,
        )


def _digest(api: Mapping[str, object]) -> str:
    """An api_list entry's content, order of keys aside, as a short digest."""
    text = json.dumps(api, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _relevant(rec: Mapping[str, object], where: Where) -> list[tuple[str, str]]:
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
