"""What a retriever reads: the library of a benchmark, the scope of each query, query texts.

Scope names the library a query is searched against (recorded with every run):
``benchmark`` = every item of the benchmark; ``task`` / ``category`` = the items sharing the
query's task / category (ToolRet evaluates each task against its own tools).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from toolex.errors import InputError
from toolex.store import Store

SCOPES = ("benchmark", "task", "category")

TextRow = tuple[str, int, str]  # (query_id, slot, text)
# scope value -> (rows of the texts searching that library, rows of its items in the Library)
ScopeGroups = dict[str | None, tuple[np.ndarray, np.ndarray]]

# How ToolRet phrases a query with its instruction (``is_inst``): ``eval_bm25`` joins them with a
# space, ``add_instruction`` (dense models) uses the E5-style prompt. A retriever names its own
# format (``Retriever.instruction_format``); query_text applies it.
BM25_INSTRUCTION = "{instruction} {query}"
DENSE_INSTRUCTION = "Instruct: {instruction}\nQuery: {query}"


@dataclass
class Library:
    """The items one index is built from, ordered by item_id."""

    benchmark: str
    rendering: str
    item_ids: list[str]
    tasks: list[str | None]
    categories: list[str | None]
    texts: list[str]
    fingerprint: str = ""  # changes whenever the library's content does (013_library_fingerprint)
    # Items the rendering does not document, searched in their default text (0 for 'default').
    fallback: int = 0

    def __len__(self) -> int:
        return len(self.item_ids)

    def scope_values(self, scope: str) -> list[str | None]:
        if scope == "task":
            return self.tasks
        if scope == "category":
            return self.categories
        return [None] * len(self.item_ids)


_LIBRARIES: dict[tuple[str, str, str], Library] = {}


def load_library(store: Store, benchmark: str, rendering: str = "default") -> Library:
    """The library, read once per content: the candidate stage searches it batch after batch, and
    re-reading 200,000 texts per batch cost more than searching them. A cheap fingerprint query
    (a hash sum in DuckDB) says whether the copy in memory is still the store's."""
    params = {"benchmark": benchmark, "rendering": rendering}
    fp = store.rows("retrieval/013_library_fingerprint.sql", params)[0]
    fingerprint = f"{benchmark}|{rendering}|{fp['n']}|{fp['h']}"
    key = (str(store.path), benchmark, rendering)
    cached = _LIBRARIES.get(key)
    if cached is not None and cached.fingerprint == fingerprint:
        return cached
    library = _read_library(store, benchmark, rendering)
    library.fingerprint = fingerprint
    if len(_LIBRARIES) >= 4:  # a few libraries at most: each can be large
        _LIBRARIES.pop(next(iter(_LIBRARIES)))
    _LIBRARIES[key] = library
    return library


def _read_library(store: Store, benchmark: str, rendering: str) -> Library:
    table = store.arrow(
        "retrieval/010_library.sql", {"benchmark": benchmark, "rendering": rendering}
    )
    cols = table.to_pydict()
    fallback = sum(cols["fallback"])
    if table.num_rows == 0 or fallback == table.num_rows:
        # a rendering no item has is a typo or a missing load, never "search the defaults"
        what = "items" if table.num_rows == 0 else f"item_docs with rendering {rendering!r}"
        raise InputError(
            f"benchmark {benchmark!r} has no {what} in the store; load it first "
            "(`toolex load ...`)",
            field="benchmark" if table.num_rows == 0 else "rendering",
        )
    return Library(
        benchmark,
        rendering,
        cols["item_id"],
        cols["task"],
        cols["category"],
        cols["text"],
        fallback=fallback,
    )


def fallback_note(library: Library) -> str | None:
    """What to tell a user whose rendering documents only part of the library, or None."""
    if not library.fallback:
        return None
    return (
        f"rendering {library.rendering!r} documents {len(library) - library.fallback:,} of the "
        f"{len(library):,} items of {library.benchmark!r}; the other {library.fallback:,} are "
        "searched in their default text"
    )


def check_scope(scope: str) -> None:
    if scope not in SCOPES:
        raise InputError(f"unknown scope {scope!r}; use one of {', '.join(SCOPES)}", field="scope")


def resolve_scope(store: Store, benchmark: str, scope: str) -> str:
    """``auto`` = the query's task when the items carry tasks (ToolRet's per-task libraries),
    else the whole library (a pooled library such as StableToolBench's)."""
    if scope != "auto":
        check_scope(scope)
        return scope
    has_tasks = store.rows("retrieval/012_library_has_tasks.sql", {"benchmark": benchmark})
    return "task" if has_tasks and has_tasks[0]["has_tasks"] else "benchmark"


def texts_table(texts: Sequence[TextRow]) -> pa.Table:
    qids, slots, strs = zip(*texts, strict=True) if texts else ((), (), ())
    return pa.table(
        {
            "query_id": pa.array(qids, pa.string()),
            "slot": pa.array(slots, pa.int32()),
            "text": pa.array(strs, pa.string()),
        }
    )


def scope_groups(
    store: Store, benchmark: str, texts: Sequence[TextRow], library: Library, scope: str
) -> ScopeGroups:
    """Group the texts by the library they search: scope value -> (text rows, item rows).

    A query missing from the store, or whose task/category has no items, is an InputError
    rather than an empty result: a silently empty run would score as a retriever failure.
    """
    check_scope(scope)
    all_items = np.arange(len(library))
    if scope == "benchmark":
        return {None: (np.arange(len(texts)), all_items)}
    with store.registered("retrieval_texts", texts_table(texts)):
        rows = store.execute("retrieval/011_query_scopes.sql", {"benchmark": benchmark}).fetchall()
    of_query = {qid: (task if scope == "task" else cat) for qid, task, cat in rows}
    item_scope = np.array(library.scope_values(scope), dtype=object)
    groups: dict[str | None, list[int]] = {}
    for i, (qid, _slot, _text) in enumerate(texts):
        value = of_query.get(qid)
        if value is None:
            raise InputError(
                f"query {qid!r} of benchmark {benchmark!r} has no {scope} in the store, so "
                f"--scope {scope} has no library for it; use --scope benchmark",
                record=qid,
                field=scope,
            )
        groups.setdefault(value, []).append(i)
    out: ScopeGroups = {}
    for value, rows_ in groups.items():
        items = np.flatnonzero(item_scope == value)
        if items.size == 0:
            raise InputError(
                f"no item of benchmark {benchmark!r} has {scope} {value!r} (asked by query "
                f"{texts[rows_[0]][0]!r}); its library is pooled, use --scope benchmark",
                field=scope,
            )
        out[value] = (np.asarray(rows_), items)
    return out


def query_text(query: str, instruction: str | None, instruction_format: str | None) -> str:
    """The text a query-level run searches with: the query alone, or (``instruction_format``
    given and the query has an instruction) phrased as the retriever's format says."""
    if instruction_format is None or not instruction:
        return query
    return instruction_format.format(instruction=instruction, query=query)
