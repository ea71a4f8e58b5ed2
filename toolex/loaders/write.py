"""The one write of a benchmark into the store, atomic and idempotent.

A load is all-or-nothing: everything is read and validated in Python first (a
:class:`~toolex.loaders.benchmark.Benchmark`), then written in ONE transaction through registered
Arrow tables (``INSERT ... SELECT``), so a bad file or a crash mid-write leaves the store exactly
as it was. Loading the same content again (the same ``revision``) is a no-op; different content
under the same name needs ``replace``.
"""

from __future__ import annotations

from toolex.errors import ToolexError
from toolex.loaders.benchmark import Benchmark
from toolex.loaders.platforms import coverage
from toolex.loaders.queries import benchmark_refs, existing_benchmark
from toolex.loaders.result import LoadResult, histogram
from toolex.loaders.schemas import EDGE_SCHEMA, ITEM_SCHEMA, QREL_SCHEMA, QUERY_SCHEMA, arrow_rows
from toolex.store import Store

_DELETE_ORDER = (
    "load/15_delete_dependency_edges.sql",
    "load/10_delete_item_docs.sql",
    "load/11_delete_qrels.sql",
    "load/12_delete_queries.sql",
    "load/13_delete_items.sql",
    "load/14_delete_benchmark.sql",
)


def write_benchmark(store: Store, bench: Benchmark, *, replace: bool = False) -> LoadResult:
    """Write ``bench`` in one transaction; same content again is a no-op, else needs replace."""
    bench.validate()
    revision = bench.revision()
    per_query: dict[str, int] = {}
    for qrel in bench.qrels:
        per_query[qrel["query_id"]] = per_query.get(qrel["query_id"], 0) + 1
    result = LoadResult(
        bench.name,
        "loaded",
        len(bench.items),
        len(bench.queries),
        len(bench.qrels),
        revision,
        list(bench.notes),
        histogram(per_query.values()),
        coverage(bench.items),
        len(bench.edges),
        len({e["query_id"] for e in bench.edges}),
    )
    old = existing_benchmark(store, bench.name)
    if old is not None:
        if old.revision == revision and not replace:
            result.status = "unchanged"
            return result
        if not replace:
            raise ToolexError(
                f"benchmark {bench.name!r} is already loaded (from {old.source}, revision "
                f"{str(old.revision)[:12]}) with different content (revision {revision[:12]}); "
                "pass --replace to swap it, or load under another --name"
            )
        refs = benchmark_refs(store, bench.name)
        if refs.runs or refs.expansions:
            result.notes.append(
                f"replaced benchmark {bench.name!r} is referenced by {refs.runs} run(s) and "
                f"{refs.expansions} expansion(s); they were kept and may name ids that no "
                "longer exist (re-run or delete them)"
            )
        result.status = "replaced"
    tables = {
        "new_items": arrow_rows(bench.items, ITEM_SCHEMA),
        "new_queries": arrow_rows(bench.queries, QUERY_SCHEMA),
        "new_qrels": arrow_rows(bench.qrels, QREL_SCHEMA),
        "new_edges": arrow_rows(bench.edges, EDGE_SCHEMA),
    }
    params = {"benchmark": bench.name}
    with store.registered_tables(tables), store.transaction():
        if old is not None:
            for name in _DELETE_ORDER:
                store.execute(name, params)
        store.execute(
            "load/20_insert_benchmark.sql",
            {**params, "format": bench.format, "source": bench.source, "revision": revision},
        )
        store.execute("load/21_insert_items.sql", params)
        store.execute("load/22_insert_queries.sql", params)
        store.execute("load/23_insert_qrels.sql", params)
        store.execute("load/24_insert_dependency_edges.sql", params)
    return result
