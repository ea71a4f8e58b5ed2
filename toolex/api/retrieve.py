"""Running a retriever over a benchmark's queries (or sub-queries) into a stored run, as
`toolex retrieve` does."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolex.retrieval.runs import RunWritten
    from toolex.store import Store


def retrieve(
    store: Store,
    benchmark: str,
    retriever: str,
    run: str,
    *,
    level: str = "query",
    scope: str = "benchmark",
    depth: int | None = None,
    instruction: bool = False,
    rendering: str = "default",
    expansion: str = "default",
    replace: bool = False,
) -> RunWritten:
    """Rank the benchmark's library for each query and store the ranking as run ``run``.

    Args:
        store: A store opened for writing.
        benchmark: The benchmark whose queries are run.
        retriever: A retriever spec: ``bm25``, ``wordllama``, ``fastembed:<model>``,
            ``hybrid:bm25+wordllama``, ``openai-embed:<model>``, ``compat-embed:<url>#<model>``.
        run: The run's name (unique unless ``replace``).
        level: ``query``, or ``subquery`` (each sub-query of ``expansion`` searched, the lists
            of a query fused with RRF; oracle-assisted, as the paper's † rows).
        scope: The library searched: ``benchmark`` (the pooled library, as the paper),
            ``task``, ``category`` or ``auto``.
        depth: Results kept per query (default 100) or per sub-query (default 20).
        instruction: Prepend the query's instruction (ToolRet's ``is_inst``).
        rendering: The documentation rendering searched.
        expansion: The expansion whose sub-queries are searched (sub-query level).
        replace: Overwrite a run of the same name.

    Returns:
        :class:`toolex.retrieval.runs.RunWritten`: the run written (``run_id``,
        ``retriever``, ``queries``, ``results``, ``seconds``, ...) and its ``notes``.

    Raises:
        ModelUnavailableError: The retriever's model or endpoint cannot be reached.
        NotFoundError: An unknown benchmark (or expansion, at sub-query level).
    """
    from toolex.retrieval.runs import retrieve_run

    return retrieve_run(
        store,
        benchmark,
        retriever,
        run,
        level=level,
        scope=scope,
        depth=depth,
        instruction=instruction,
        rendering=rendering,
        expansion=expansion,
        replace=replace,
    )
