"""Retrieval runs written to the store: query level and sub-query level.

Query level: each query's text (optionally with its instruction, ToolRet's ``is_inst``) retrieves
its top-K; the ranked list goes to ``run_results``.

Sub-query level: each sub-query of the chosen expansion (table ``subqueries``) retrieves its own
top-K (default 20) into ``subquery_results``; the lists of one query are fused with RRF (k = 60)
in SQL (sql/retrieval/050_subquery_rrf.sql) into ``run_results``, for any number of sub-queries,
ties by item_id descending.

``runs.params`` records what reproduces the run: retriever spec and model, rendering and
RENDER_VERSION, instruction use and its format, K, scope, RRF k, the benchmark's source and
revision, and the versions of the packages that computed it.
"""

from __future__ import annotations

import json
import time
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from toolex.errors import InputError
from toolex.render import RENDER_VERSION
from toolex.retrieval.hybrid import RRF_K
from toolex.retrieval.search import make_retriever, search
from toolex.retrieval.texts import query_text, registered, resolve_scope
from toolex.store import Store

LEVELS = ("query", "subquery")
DEFAULT_K = {"query": 100, "subquery": 20}
_PACKAGES = ("toolex", "duckdb", "lancedb", "bm25s", "fastembed", "wordllama", "onnxruntime")


def retrieve_run(
    store: Store,
    benchmark: str,
    retriever: str,
    run_id: str,
    *,
    level: str = "query",
    scope: str = "auto",
    k: int | None = None,
    instruction: bool = False,
    rendering: str = "default",
    expansion: str = "default",
    replace: bool = False,
) -> dict[str, Any]:
    """Produce run ``run_id`` and return a summary row (queries, result rows, seconds)."""
    if level not in LEVELS:
        raise InputError(f"unknown level {level!r}; use query or subquery", field="level")
    scope = resolve_scope(store, benchmark, scope)
    k = k or DEFAULT_K[level]
    _check_free(store, run_id, replace)
    r = make_retriever(retriever)
    started = time.perf_counter()
    if level == "query":
        rows = store.query("retrieval/071_query_texts.sql", {"benchmark": benchmark})
        kind = "bm25" if r.kind == "bm25" else "dense"
        texts = [(q["query_id"], 0, query_text(q["text"], q["instruction"], instruction, kind))
                 for q in rows]  # fmt: skip
    else:
        rows = store.query(
            "retrieval/070_subquery_texts.sql", {"benchmark": benchmark, "expansion": expansion}
        )
        texts = [(q["query_id"], q["slot"], q["text"]) for q in rows]
    if not texts:
        what = "queries" if level == "query" else f"sub-queries in expansion {expansion!r}"
        hint = "load it first" if level == "query" else "run `toolex expand` or import them"
        raise InputError(f"benchmark {benchmark!r} has no {what}; {hint}", field="benchmark")

    ranked = search(store, benchmark, r, texts, k=k, scope=scope, rendering=rendering)
    seconds = time.perf_counter() - started
    params = _params(store, benchmark, r, level, scope, k, instruction, rendering, expansion)
    params["seconds"] = round(seconds, 3)
    with store.transaction():
        if replace:
            for name in ("063_delete_run", "064_delete_subquery_results", "065_delete_run_row"):
                store.execute(f"retrieval/{name}.sql", {"run_id": run_id})
        store.execute(
            "retrieval/062_insert_run.sql",
            {"run_id": run_id, "benchmark": benchmark, "level": level, "retriever": retriever,
             "params": json.dumps(params, sort_keys=True)},
        )  # fmt: skip
        with registered(store, "retrieval_ranked", ranked):
            if level == "query":
                store.execute("retrieval/060_insert_run_results.sql", {"run_id": run_id})
            else:
                store.execute("retrieval/061_insert_subquery_results.sql", {"run_id": run_id})
        if level == "subquery":
            fused_k = k * max(t[1] + 1 for t in texts)  # keep every item any sub-query found
            store.execute(
                "retrieval/050_subquery_rrf.sql", {"run_id": run_id, "rrf_k": RRF_K, "k": fused_k}
            )
    n_results = store.con.execute(
        "SELECT count(*) FROM run_results WHERE run_id = ?", [run_id]
    ).fetchone()[0]
    return {
        "run_id": run_id,
        "retriever": retriever,
        "level": level,
        "scope": scope,
        "k": k,
        "texts": len(texts),
        "queries": len({t[0] for t in texts}),
        "results": int(n_results),
        "seconds": round(seconds, 2),
    }


def _check_free(store: Store, run_id: str, replace: bool) -> None:
    exists = store.con.execute("SELECT 1 FROM runs WHERE run_id = ?", [run_id]).fetchone()
    if exists and not replace:
        raise InputError(
            f"a run named {run_id!r} already exists in {store.path}; pick another --run name or "
            "pass --replace",
            field="run",
        )


def _params(
    store: Store, benchmark: str, r: Any, level: str, scope: str, k: int, instruction: bool,
    rendering: str, expansion: str,
) -> dict[str, Any]:  # fmt: skip
    bench = store.query("retrieval/072_benchmark_revision.sql", {"benchmark": benchmark})
    return {
        "retriever": r.spec,
        **r.describe(),
        "level": level,
        "scope": scope,
        "k": k,
        "instruction": instruction,
        "instruction_format": (
            None
            if not instruction
            else "{instruction} {query}"
            if r.kind == "bm25"
            else "Instruct: {instruction}\\nQuery: {query}"
        ),  # fmt: skip
        "rendering": rendering,
        "render_version": RENDER_VERSION,
        "expansion": expansion if level == "subquery" else None,
        "rrf_k": RRF_K if level == "subquery" else None,
        "tie_rule": "score DESC, item_id DESC",
        "benchmark": bench[0] if bench else {"source": None, "revision": None},
        "versions": {p: _version(p) for p in _PACKAGES},
    }


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None
