"""Import candidate lists made elsewhere: stage 2a of the pipeline done by another retriever (a
dense model on a GPU, a run of the paper's own code), one ranked list per sub-query.

Input, read by toolex.runs' one reader of run files (``fmt`` auto: by suffix):

* TREC, ``qid Q0 docid rank score tag``, whose ``qid`` names the sub-query as
  ``<query_id>#<slot>`` (a query with a single sub-query may be named by its query id alone);
* Parquet or CSV with columns ``query_id, slot, item_id, score`` (``slot`` may be left out when
  ``query_id`` is written ``<query_id>#<slot>``).

Ranks come from the scores (descending, ties by item id descending: trec_eval's rule, as every
run); ``depth`` keeps the top K of each list (default: every row given, K = the longest list).
A sub-query's reference that its list misses is added at rank K+1 with no score, as the pipeline
does for a retriever's miss, so the verifier and the RRF of assembly treat both alike.

Every sub-query named must exist in the expansion (decompose first, or import sub-queries), each
query named must get a list for every one of its sub-queries, every item must be in the
benchmark's library, and no item may appear twice in one list: the first violation is an
InputError naming file, line and field, and nothing is written. Lists already stored for these
sub-queries are swapped only with ``replace``, and never once they have verdicts (those judged
the old lists: recompute with `toolex expand --replace`, or import into a new expansion). Rows are
stored with retriever ``import:<name>`` (default: the file's stem), and the expansion's config
records where they came from under ``imported_candidates``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from toolex.errors import InputError, ToolexError
from toolex.expansions.queries import StoredCandidates, stored_candidates, subquery_references
from toolex.expansions.records import CandidateRow
from toolex.expansions.stage_outputs import insert_candidates
from toolex.loaders.docs import item_ids
from toolex.loaders.fields import Where
from toolex.runs.formats import read_run, resolve_format
from toolex.store import Store

SLOT_SEP = "#"  # <query_id>#<slot> in a TREC qid
CANDIDATE_FORMATS = ("auto", "trec", "parquet", "csv")

Key = tuple[str, int]  # (query_id, slot)


@dataclass
class CandidateImport:
    benchmark: str
    expansion: str
    retriever: str  # import:<name>
    queries: int
    subqueries: int
    candidates: int  # rows stored, references added included
    references_added: int  # references the lists missed, stored at rank K+1
    depth: int  # K

    def summary(self) -> str:
        return (
            f"{self.benchmark}/{self.expansion}: imported {self.candidates:,} candidates "
            f"({self.retriever}, depth {self.depth}) for {self.subqueries:,} sub-queries of "
            f"{self.queries:,} queries; {self.references_added:,} references the lists missed "
            f"were added at rank {self.depth + 1}"
        )


def import_candidates(
    store: Store,
    path: str | Path,
    *,
    benchmark: str,
    expansion: str = "default",
    name: str | None = None,
    depth: int | None = None,
    fmt: str = "auto",
    replace: bool = False,
) -> CandidateImport:
    path = Path(path)
    store.require_benchmark(benchmark)
    _check_request(path, fmt, depth)
    params = {"benchmark": benchmark, "expansion": expansion}
    refs = _subquery_refs(store, params)
    lists = _read_lists(read_run(path, fmt), path, params, refs, item_ids(store, benchmark))
    _check_coverage(lists, refs, path)
    k = depth or max(len(hits) for hits, _ in lists.values())
    retriever = f"import:{name or path.stem}"
    rows, added = _rows(lists, refs, k, retriever)
    keys = pa.Table.from_pylist(
        [{"query_id": q, "slot": s} for q, s in lists],
        schema=pa.schema([("query_id", pa.string()), ("slot", pa.int32())]),
    )
    with store.registered("new_candidate_keys", keys):
        stored = stored_candidates(store, params)
        _refuse_stored(stored, expansion, replace)
        patch = {"imported_candidates": {"source": str(path), "retriever": retriever, "depth": k}}
        with store.transaction():
            store.execute("expansions/27_delete_candidates.sql", params)
            insert_candidates(store, benchmark, expansion, rows)
            store.execute(
                "expansions/28_note_candidate_import.sql", {**params, "patch": json.dumps(patch)}
            )
    return CandidateImport(
        benchmark,
        expansion,
        retriever,
        len({q for q, _ in lists}),
        len(lists),
        len(rows),
        added,
        k,
    )


def _check_request(path: Path, fmt: str, depth: int | None) -> None:
    if fmt not in CANDIDATE_FORMATS or resolve_format(path, fmt) == "toolret-json":
        raise InputError(
            f"candidate lists are read as {', '.join(CANDIDATE_FORMATS[1:])} (a ToolRet JSON run "
            "has no sub-queries)",
            path=str(path),
            field="format",
        )
    if depth is not None and depth < 1:
        raise InputError(f"depth must be at least 1, got {depth}", field="depth")


def _subquery_refs(store: Store, params: dict[str, str]) -> dict[Key, str]:
    """The reference item of each (query, slot) sub-query of the expansion."""
    refs = {(r.query_id, int(r.slot)): r.reference for r in subquery_references(store, params)}
    if not refs:
        raise ToolexError(
            f"expansion {params['expansion']!r} of {params['benchmark']!r} has no sub-queries to "
            "import candidates for: decompose first (`toolex expand --stage decompose`) or "
            "import sub-queries (`toolex load subqueries`)"
        )
    return refs


def _refuse_stored(stored: StoredCandidates, expansion: str, replace: bool) -> None:
    """Stored lists of these sub-queries are swapped only on --replace, never once judged."""
    verdicts, lists = _count(stored.verdicts), _count(stored.lists)
    if verdicts:
        raise ToolexError(
            f"expansion {expansion!r} already has {verdicts:,} verdicts on "
            "candidates of these sub-queries; they judged the stored lists, so those are "
            "not swapped. Import into a new --expansion, or recompute this one with "
            "`toolex expand --replace`"
        )
    if lists and not replace:
        raise ToolexError(
            f"expansion {expansion!r} already has candidates for {lists:,} of "
            f"these sub-queries (e.g. of query {stored.first_query!r}); pass --replace "
            "to swap them"
        )


def _count(value: object) -> int:
    return int(value) if isinstance(value, int) else 0


# (hits as (item_id, score) in file order, the line of the list's first row)
Lists = dict[Key, tuple[list[tuple[str, float]], int]]


def _read_lists(
    table: pa.Table, path: Path, params: dict[str, str], refs: dict[Key, str], library: set[str]
) -> Lists:
    benchmark, expansion = params["benchmark"], params["expansion"]
    qids = table.column("query_id").to_pylist()
    items = table.column("item_id").to_pylist()
    scores = table.column("score").to_pylist()
    slots = table.column("slot").to_pylist()
    lines = table.column("line").to_pylist()
    slots_of: dict[str, int] = {}
    for q, _ in refs:
        slots_of[q] = slots_of.get(q, 0) + 1
    lists: Lists = {}
    seen: set[tuple[str, int, str]] = set()
    for qid, item, score, slot, line in zip(qids, items, scores, slots, lines, strict=True):
        where = Where(str(path), line, qid, "sub-query")
        key = _key(qid, slot, slots_of, where)
        if key not in refs:
            raise where.error(
                f"query {key[0]!r} has no sub-query {key[1]} in expansion {expansion!r} of "
                f"{benchmark!r}" + _hint(key[0], slots_of),
                "query_id" if slot is None else "slot",
            )
        if item not in library:
            raise where.error(f"item {item!r} is not in the library of {benchmark!r}", "item_id")
        if (key[0], key[1], item) in seen:
            raise where.error(f"item {item!r} is listed twice for this sub-query", "item_id")
        seen.add((key[0], key[1], item))
        hits, _ = lists.setdefault(key, ([], line))
        hits.append((item, float(score)))
    return lists


def _key(qid: str, slot: int | None, slots_of: dict[str, int], where: Where) -> Key:
    """The (query id, slot) a row's list belongs to."""
    if slot is not None:
        return qid, int(slot)
    if slots_of.get(qid) == 1:
        return qid, 0  # a query of one sub-query may be named alone
    query, sep, number = qid.rpartition(SLOT_SEP)
    if sep and number.isdigit():
        return query, int(number)
    raise where.error(
        f"cannot tell the sub-query: name it <query_id>{SLOT_SEP}<slot> (e.g. "
        f"{qid}{SLOT_SEP}0), or give a slot column" + _hint(qid, slots_of),
        "query_id",
    )


def _hint(query: str, slots_of: dict[str, int]) -> str:
    n = slots_of.get(query)
    return f" (it has sub-queries 0..{n - 1})" if n else ""


def _check_coverage(lists: Lists, refs: dict[Key, str], path: Path) -> None:
    """Each query named gets a list for every one of its sub-queries: a query half imported
    would have its other sub-queries retrieved by another retriever, under one expansion."""
    given: dict[str, set[int]] = {}
    first: dict[str, int] = {}
    for (q, s), (_, line) in lists.items():
        given.setdefault(q, set()).add(s)
        first[q] = min(first.get(q, line), line)
    for q, slots in given.items():
        wanted = {s for rq, s in refs if rq == q}
        if slots != wanted:
            missing = sorted(wanted - slots)
            raise Where(str(path), first[q], q, "query").error(
                f"lists for sub-queries {sorted(slots)} but not {missing}; give one list for "
                f"every sub-query of the query (slots {sorted(wanted)})",
                "slot",
            )


def _rows(
    lists: Lists, refs: dict[Key, str], k: int, retriever: str
) -> tuple[list[CandidateRow], int]:
    rows: list[CandidateRow] = []
    added = 0
    for key in sorted(lists):
        hits = sorted(lists[key][0], key=lambda h: (h[1], h[0]), reverse=True)[:k]
        for rank, (item, score) in enumerate(hits, start=1):
            rows.append(CandidateRow(key[0], key[1], item, rank, score, retriever))
        if refs[key] not in {item for item, _ in hits}:
            rows.append(CandidateRow(key[0], key[1], refs[key], k + 1, None, retriever))
            added += 1
    return rows, added
