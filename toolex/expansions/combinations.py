"""Import expanded combinations made elsewhere (before, or instead of, toolex's own pipeline).

Input (JSONL, JSON array or Parquet): one row per member, ``query_id, combo_id, item_id`` and an
optional ``slot`` (default: file order within the combination). A combination names one tool per
ground-truth tool: its slots are exactly the query's (0..k-1, as qrels holds them), so a slot
outside them, or a combination with a slot left empty, is refused at its line (an expanded tool
inherits the grade of the qrel in its slot: a missing or extra slot would score wrongly).
Every imported combination is
stored with status 'valid' and judge 'import'. combo_id 0 is reserved for the original ground
truth: rows with combo_id 0 must repeat it exactly, a combination of the original's tool set (or
of another imported one's: the same items at the same grades, whatever their slots;
``originals.tool_set``) under a different id is dropped rather than stored twice, and every
imported query gets its combo 0 row (``is_original``) copied from qrels if it has none. One item
may fill two slots of a combination (a tool that serves two steps, as the pipeline assembles).

A row may also carry the query's call chain, ``dependencies: [{"from": 0, "to": 1, "value":
"token"}]`` (from/to: a slot, or an item id of that row's combination or of the original; the
producer's response is passed into the consumer's parameters). Edges are facts about the query's
plan, stored for the benchmark in ``dependency_edges`` (source 'imported') by its one writer,
``toolex.loaders.edges``, where every later assembly's dependency check and audit checklist use
them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from toolex.errors import ToolexError
from toolex.expansions.originals import (
    ensure_expansion,
    original_combinations,
    qrel_grades,
    record_query,
    tool_set,
)
from toolex.expansions.queries import conflicting_combination
from toolex.loaders.docs import item_ids
from toolex.loaders.edges import DependencyEdge, add_dependency_edges
from toolex.loaders.fields import Where, get_int, get_str
from toolex.loaders.readers import iter_dicts, read_records
from toolex.store import Store

COMBO_SCHEMA = pa.schema([("query_id", pa.string()), ("combo_id", pa.int32())])
MEMBER_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("combo_id", pa.int32()),
        ("slot", pa.int32()),
        ("item_id", pa.string()),
    ]
)


@dataclass
class CombinationImport:
    benchmark: str
    expansion: str
    queries: int
    combinations: int
    notes: list[str] = field(default_factory=list)
    edges: int = 0  # explicit dependency edges imported

    def summary(self) -> str:
        edges = f"; {self.edges} dependency edge(s)" if self.edges else ""
        return (
            f"{self.benchmark}/{self.expansion}: imported {self.combinations} combination(s) "
            f"for {self.queries} queries (plus each query's original as combo 0){edges}"
        )


def import_combinations(
    store: Store,
    path: str | Path,
    *,
    benchmark: str,
    expansion: str = "default",
    replace: bool = False,
) -> CombinationImport:
    path = Path(path)
    return import_combination_records(
        store,
        iter_dicts(path, read_records(path)),
        path,
        benchmark=benchmark,
        expansion=expansion,
        replace=replace,
    )


# A combination's members by slot: (item id, where its row was read)
Members = dict[int, tuple[str, Where]]
Combos = dict[tuple[str, int], Members]  # (query_id, combo_id) -> members


@dataclass(frozen=True)
class GivenEdges:
    """A row's ``dependencies`` as read, resolved to slots later (:func:`_edges`)."""

    query_id: str
    combo_id: int
    dependencies: object
    where: Where


def import_combination_records(
    store: Store,
    records: Iterable[tuple[Mapping[str, object], int | None]],
    path: str | Path,
    *,
    benchmark: str,
    expansion: str = "default",
    replace: bool = False,
) -> CombinationImport:
    """Import member rows made elsewhere than a file (a loader's own equivalents: SkillRet's
    substitutable qrels), each with the line of ``path`` it came from; as a file's rows."""
    path = Path(path)
    originals = original_combinations(store, benchmark)
    reader = _MemberReader(path, originals, item_ids(store, benchmark), benchmark)
    for rec, line in records:
        reader.read(rec, line)
    combos = reader.combos
    if not combos:
        raise ToolexError(f"{path}: no combinations in the file")
    _check_complete(combos, originals)
    keep, notes = _dedupe(combos, originals, qrel_grades(store, benchmark))
    edges = _edges(reader.given, combos, originals, str(path))
    result = CombinationImport(
        benchmark, expansion, len({q for q, _ in combos}), len(keep), notes, len(edges)
    )
    params = {"benchmark": benchmark, "expansion": expansion}
    with store.registered_tables(_tables(combos, keep)):
        _refuse_clash(store, params, replace)
        with store.transaction():
            ensure_expansion(store, benchmark, expansion, path)
            _write(store, params, replace)
            add_dependency_edges(store, benchmark, edges)
    return result


@dataclass
class _MemberReader:
    """Member rows read one by one into combinations, each checked where it was read."""

    path: Path
    originals: dict[str, dict[int, str]]
    known_items: set[str]
    benchmark: str
    combos: Combos = field(default_factory=dict)
    given: list[GivenEdges] = field(default_factory=list)

    def read(self, rec: Mapping[str, object], line: int | None) -> None:
        query_id, where = record_query(rec, self.path, line, self.originals, self.benchmark)
        combo_id = get_int(rec, "combo_id", where, None)
        if combo_id is None or combo_id < 0:
            raise where.error("missing or negative combo_id", "combo_id")
        item_id = get_str(rec, "item_id", where)
        if item_id not in self.known_items:
            raise where.error(
                f"item id {item_id!r} is not in benchmark {self.benchmark!r}", "item_id"
            )
        members = self.combos.setdefault((query_id, combo_id), {})
        slot = get_int(rec, "slot", where, len(members))
        slots = self.originals[query_id]
        if slot not in slots:
            raise where.error(
                f"slot {slot} is no slot of query {query_id!r}: its {len(slots)} ground-truth "
                f"tool(s) fill slots {_span(slots)}, one tool each",
                "slot",
            )
        if slot in members:
            raise where.error(f"slot {slot} is used twice in combination {combo_id}", "slot")
        members[slot] = (item_id, where)
        if rec.get("dependencies") is not None:
            self.given.append(GivenEdges(query_id, combo_id, rec["dependencies"], where))


def _check_complete(combos: Combos, originals: dict[str, dict[int, str]]) -> None:
    """Every combination fills each of its query's slots."""
    for (query_id, combo_id), members in combos.items():
        missing = sorted(set(originals[query_id]) - set(members))
        if missing:
            where = next(iter(members.values()))[1]
            raise where.error(
                f"combination {combo_id} of query {query_id!r} leaves slot(s) {missing} empty: "
                f"it has {len(members)} tool(s) for the query's {len(originals[query_id])} "
                "ground-truth tool(s), one per slot",
                "slot",
            )


def _tables(combos: Combos, keep: list[tuple[str, int]]) -> dict[str, pa.Table]:
    """The inputs the insert SQL reads."""
    return {
        # every imported query appears (with combo 0) so its original row is ensured
        "new_combinations": pa.Table.from_pylist(
            [{"query_id": q, "combo_id": 0} for q in sorted({q for q, _ in combos})]
            + [{"query_id": q, "combo_id": c} for q, c in keep],
            schema=COMBO_SCHEMA,
        ),
        "new_combination_items": pa.Table.from_pylist(
            [
                {"query_id": q, "combo_id": c, "slot": s, "item_id": item}
                for (q, c) in keep
                for s, (item, _) in combos[(q, c)].items()
            ],
            schema=MEMBER_SCHEMA,
        ),
    }


def _refuse_clash(store: Store, params: dict[str, str], replace: bool) -> None:
    clash = conflicting_combination(store, params)
    if clash and not replace:
        raise ToolexError(
            f"expansion {params['expansion']!r} already holds combination "
            f"{clash.combo_id} of query {clash.query_id!r}; pass --replace to swap "
            "the imported queries' combinations"
        )


def _write(store: Store, params: dict[str, str], replace: bool) -> None:
    """Inside the caller's transaction: the imported queries' combinations (and originals)."""
    if replace:
        store.execute("expansions/11_delete_combination_items.sql", params)
        store.execute("expansions/12_delete_combinations.sql", params)
        store.execute("expansions/18_delete_combination_products.sql", params)
    for name in (
        "expansions/13_insert_original_combinations.sql",
        "expansions/14_insert_original_combination_items.sql",
        "expansions/15_insert_combinations.sql",
        "expansions/16_insert_combination_items.sql",
    ):
        store.execute(name, params)


def _span(slots: dict[int, str]) -> str:
    """'0..2', or the slots themselves when a store loaded before dense slots has a gap."""
    ordered = sorted(slots)
    if ordered == list(range(len(ordered))):
        return f"0..{len(ordered) - 1}"
    return ", ".join(map(str, ordered))


def _edges(
    given: list[GivenEdges],
    combos: Combos,
    originals: dict[str, dict[int, str]],
    origin: str,
) -> list[DependencyEdge]:
    """The edges of the rows' ``dependencies``, ends resolved to the slots of the query's
    original combination (a slot number, or an item id of the row's combination, else of the
    original)."""
    out: dict[tuple[str, int, int, str], DependencyEdge] = {}
    for g in given:
        query_id, combo_id, deps, where = g.query_id, g.combo_id, g.dependencies, g.where
        if not isinstance(deps, list):
            raise where.error('expected a list of {"from", "to", "value"}', "dependencies")
        slots = originals[query_id]
        names = {item: s for s, item in slots.items()}
        names |= {item: s for s, (item, _) in combos[(query_id, combo_id)].items()}
        for dep in deps:
            if not isinstance(dep, dict) or "from" not in dep or "to" not in dep:
                raise where.error(
                    f'expected {{"from", "to", "value"}}, found {dep!r}', "dependencies"
                )
            ends = []
            for end in (dep["from"], dep["to"]):
                if isinstance(end, int) and not isinstance(end, bool) and end in slots:
                    ends.append(end)
                elif isinstance(end, str) and end in names:
                    ends.append(names[end])
                else:
                    raise where.error(
                        f"edge end {end!r} is neither a slot nor an item of the query's "
                        "combinations",
                        "dependencies",
                    )
            value = dep.get("value")
            if value is not None and not isinstance(value, str):
                raise where.error(f"value must be a string, found {value!r}", "dependencies")
            if ends[0] == ends[1]:
                raise where.error("an edge must join two different slots", "dependencies")
            key = (query_id, ends[0], ends[1], (value or "").strip())
            out[key] = DependencyEdge(query_id, ends[0], ends[1], key[3], "imported", origin)
    return list(out.values())


def _dedupe(
    combos: Combos,
    originals: dict[str, dict[int, str]],
    grades: dict[str, dict[int, int]],
) -> tuple[list[tuple[str, int]], list[str]]:
    """Imported combinations to store: combo 0 checked against the original, repeats of a tool
    set (the original's or an earlier one's, by combo id) dropped."""
    keep: list[tuple[str, int]] = []
    seen: dict[str, set[frozenset[tuple[str, int]]]] = {}
    dropped = 0
    for (query_id, combo_id), members in sorted(combos.items()):
        items = frozenset(item for item, _ in members.values())
        original = frozenset(originals[query_id].values())
        if combo_id == 0:
            if items != original:
                where = next(iter(members.values()))[1]
                raise where.error(
                    "combo_id 0 is reserved for the original combination and must equal the "
                    f"ground truth {sorted(original)}",
                    "combo_id",
                )
            continue
        query_grades = grades.get(query_id, {})
        tools = tool_set({s: item for s, (item, _) in members.items()}, query_grades)
        known = seen.setdefault(query_id, {tool_set(originals[query_id], query_grades)})
        if tools in known:
            dropped += 1
            continue
        known.add(tools)
        keep.append((query_id, combo_id))
    notes: list[str] = []
    if dropped:
        notes.append(
            f"dropped {dropped} combination(s) repeating the tool set of the original or of "
            "another one"
        )
    return keep, notes
