"""``retrieve_run``: rank a benchmark's queries or sub-queries and store them as a run.

Query level: each query's text (optionally with its instruction, ToolRet's ``is_inst``, phrased as
the retriever's ``instruction_format`` says) retrieves its top ``depth`` (default 100). Sub-query
level: each sub-query of the chosen expansion (table ``subqueries``) retrieves its own top
``depth`` (default 20).

This module only ranks; :func:`toolex.runs.write_run` writes the run, and at sub-query level fuses
each query's lists with RRF, without a cut, exactly as for an imported run.

``runs.params`` records what reproduces the run: retriever spec and model, rendering and
RENDER_VERSION, instruction use and its format, depth, scope, ``rrf_k``, the benchmark's source and
revision, and the versions of the packages that computed it. A rendering that documents only part
of the library is searched with the other items in their default text: ``rendering_fallback``
counts them, in the params and in the summary's notes (never a silently smaller library).
"""

from __future__ import annotations

import functools
import time
from importlib.metadata import PackageNotFoundError, version
from typing import NamedTuple

from toolex.errors import InputError
from toolex.retrieval.base import Retriever
from toolex.retrieval.search import make_retriever, search
from toolex.retrieval.texts import (
    TextRow,
    fallback_note,
    load_library,
    query_text,
    resolve_scope,
)
from toolex.runs.rrf import RRF_K
from toolex.runs.write import check_free, check_level, write_run
from toolex.store import Store
from toolex.tooldoc.render import RENDER_VERSION

DEFAULT_DEPTH = {"query": 100, "subquery": 20}


class RunWritten(NamedTuple):
    """What :func:`retrieve_run` wrote: the row `toolex retrieve` prints (``notes`` aside, on
    stderr: what a user should know about the run, not data)."""

    run_id: str
    retriever: str
    level: str
    scope: str
    depth: int
    texts: int  # query or sub-query texts searched
    queries: int
    results: int  # result rows stored
    seconds: float
    notes: tuple[str, ...]

    def printed(self) -> dict[str, object]:
        """The row as printed (every field but ``notes``, in field order)."""
        return {k: v for k, v in self._asdict().items() if k != "notes"}


_PACKAGES = (
    "toolex",
    "duckdb",
    "lancedb",
    "bm25s",
    "fastembed",
    "wordllama",
    "onnxruntime",
    "openai",
)


def retrieve_run(
    store: Store,
    benchmark: str,
    retriever: str,
    run_id: str,
    *,
    level: str = "query",
    scope: str = "auto",
    depth: int | None = None,
    instruction: bool = False,
    rendering: str = "default",
    expansion: str = "default",
    replace: bool = False,
) -> RunWritten:
    """Produce run ``run_id`` and return what was written (queries, result rows, seconds) with
    ``notes`` that say what a user should know about the run (stderr, not data)."""
    check_level(level)
    scope = resolve_scope(store, benchmark, scope)
    depth = depth or DEFAULT_DEPTH[level]
    # Before any retrieval is paid for; write_run checks again when it writes (one row read).
    check_free(store, run_id, replace)
    r = make_retriever(retriever)  # an endpoint's key is checked here, before any call
    started = time.perf_counter()
    texts = _texts(store, benchmark, r, level, instruction, expansion)
    library = load_library(store, benchmark, rendering)
    ranked = search(store, benchmark, r, texts, depth=depth, scope=scope, rendering=rendering)
    seconds = time.perf_counter() - started
    params = _params(store, benchmark, r, level, scope, depth, instruction, rendering, expansion)
    params["rendering_fallback"] = library.fallback
    params["seconds"] = round(seconds, 3)
    counts = write_run(
        store,
        run_id,
        benchmark=benchmark,
        level=level,
        results=ranked,
        params=params,
        retriever=r.spec,  # credentials of an endpoint's URL redacted
        replace=replace,
    )
    note = fallback_note(library)
    return RunWritten(
        run_id=run_id,
        retriever=r.spec,
        level=level,
        scope=scope,
        depth=depth,
        texts=len(texts),
        queries=len({t[0] for t in texts}),
        results=counts.results,
        seconds=round(seconds, 2),
        notes=(note,) if note else (),
    )


def _texts(
    store: Store, benchmark: str, r: Retriever, level: str, instruction: bool, expansion: str
) -> list[TextRow]:
    """What the run searches with: one text per query, or one per sub-query of ``expansion``."""
    if level == "query":
        rows = store.rows("retrieval/071_query_texts.sql", {"benchmark": benchmark})
        fmt = r.instruction_format if instruction else None
        texts = [(q["query_id"], 0, query_text(q["text"], q["instruction"], fmt)) for q in rows]
    else:
        rows = store.rows(
            "retrieval/070_subquery_texts.sql", {"benchmark": benchmark, "expansion": expansion}
        )
        texts = [(q["query_id"], q["slot"], q["text"]) for q in rows]
    if not texts:
        what = "queries" if level == "query" else f"sub-queries in expansion {expansion!r}"
        hint = "load it first" if level == "query" else "run `toolex expand` or import them"
        raise InputError(f"benchmark {benchmark!r} has no {what}; {hint}", field="benchmark")
    return texts


def _params(
    store: Store,
    benchmark: str,
    r: Retriever,
    level: str,
    scope: str,
    depth: int,
    instruction: bool,
    rendering: str,
    expansion: str,
) -> dict[str, object]:
    bench = store.rows("retrieval/072_benchmark_revision.sql", {"benchmark": benchmark})
    return {
        "retriever": r.spec,
        **r.describe(),
        "level": level,
        "scope": scope,
        "depth": depth,
        "instruction": instruction,
        "instruction_format": r.instruction_format if instruction else None,
        "rendering": rendering,
        "render_version": RENDER_VERSION,
        "expansion": expansion if level == "subquery" else None,
        "rrf_k": RRF_K if level == "subquery" else None,
        "tie_rule": "score DESC, item_id DESC",
        "benchmark": bench[0] if bench else {"source": None, "revision": None},
        "versions": {p: _version(p) for p in _PACKAGES},
    }


@functools.cache
def _version(package: str) -> str | None:
    """Read once per process: each read parses the package's METADATA (8 packages a run, 0.1
    CPU-s of the demo's four runs); a package upgraded under a running process is not the code
    that process runs, so the first read is the right one."""
    try:
        return version(package)
    except PackageNotFoundError:
        return None
