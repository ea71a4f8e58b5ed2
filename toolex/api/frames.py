"""Runs held in memory, as the run readers return files: one Arrow table of ``RESULT_SCHEMA``
(query_id, item_id, score, slot, line), so a DataFrame, a dict or a ranx ``Run`` goes through
the same checks and the same writer as a file (toolex.runs.import_results).

Accepted (detected without importing pandas, polars or ranx: a caller that has one has loaded it):

* a pandas or polars DataFrame, or an Arrow table, with columns ``query_id, item_id, score``
  (the file readers' aliases too: qid/docid, query-id/corpus-id, ...) and an optional ``slot``;
  its row number (from 1) stands for a file's line in errors;
* a dict ``{query_id: {item_id: score}}`` (ToolRet's saved output, ranx's and
  pytrec_eval's run shape);
* a ranx ``Run`` (its ``to_dict()``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from toolex.errors import InputError

if TYPE_CHECKING:
    import pyarrow as pa

# Column names taken for each field, as the CSV/Parquet reader takes them.
ALIASES = {
    "query_id": ("query_id", "qid", "query-id", "query"),
    "item_id": ("item_id", "docid", "doc_id", "corpus-id", "item", "tool_id"),
    "score": ("score",),
    "slot": ("slot",),
}


def results_table(run: object, source: str) -> tuple[pa.Table, str]:
    """(the run as a ``RESULT_SCHEMA`` table, the name of its kind) for ``run`` held in memory.

    Raises:
        InputError: An unknown kind of object, a missing column, an empty run, a score that
            is not a finite number; named at ``source`` and its row or query.
    """
    import pyarrow as pa

    kind = type(run).__module__.split(".")[0]
    if kind == "ranx" and hasattr(run, "to_dict"):
        return _from_dict(run.to_dict(), source), "ranx"
    if isinstance(run, Mapping):
        return _from_dict(run, source), "dict"
    if kind == "pandas" and hasattr(run, "columns"):
        return _from_columns(pa.Table.from_pandas(run, preserve_index=False), source), "dataframe"
    if kind == "polars" and hasattr(run, "to_arrow"):
        return _from_columns(run.to_arrow(), source), "dataframe"
    if isinstance(run, pa.Table):
        return _from_columns(run, source), "arrow"
    raise InputError(
        f"cannot read a run from a {type(run).__name__}: give a file path, a pandas or polars "
        "DataFrame, an Arrow table, a dict {query_id: {item_id: score}} or a ranx Run",
        path=source,
    )


def _from_dict(run: Mapping[object, object], source: str) -> pa.Table:
    qids: list[str] = []
    dids: list[str] = []
    scores: list[float] = []
    for qid, ranking in run.items():
        if not isinstance(ranking, Mapping):
            raise InputError(
                f"query {qid!r} maps to a {type(ranking).__name__}, not {{item_id: score}}",
                path=source,
            )
        for did, score in ranking.items():
            if isinstance(score, bool) or not isinstance(score, int | float):
                raise InputError(
                    f"the score of item {did!r} of query {qid!r} is {score!r}, not a number",
                    path=source,
                )
            if not math.isfinite(score):
                raise InputError(
                    f"the score of item {did!r} of query {qid!r} is {score!r}, not finite",
                    path=source,
                )
            qids.append(str(qid))
            dids.append(str(did))
            scores.append(float(score))
    return _table(qids, dids, scores, None, source)


def _from_columns(table: pa.Table, source: str) -> pa.Table:
    import pyarrow.compute as pc

    found: dict[str, str] = {}
    names = {name.lower(): name for name in table.column_names}
    for field, aliases in ALIASES.items():
        hit = next((names[a] for a in aliases if a in names), None)
        if hit is not None:
            found[field] = hit
        elif field != "slot":
            raise InputError(
                f"no {field} column (columns: {', '.join(table.column_names)}); a run needs "
                "query_id, item_id and score",
                path=source,
            )
    qids = pc.cast(table.column(found["query_id"]), "string")
    dids = pc.cast(table.column(found["item_id"]), "string")
    for field, column in (("query_id", qids), ("item_id", dids)):
        if column.null_count:
            row = pc.index(pc.is_null(column), True).as_py() + 1
            raise InputError(f"empty {field}", path=source, line=row, field=field)
    try:
        scores = pc.cast(table.column(found["score"]), "double")
    except Exception as exc:  # noqa: BLE001 - Arrow's own error names the values
        raise InputError(f"scores are not numbers: {exc}", path=source, field="score") from None
    finite = pc.is_finite(scores)
    if scores.null_count or not pc.all(finite).as_py():
        row = pc.index(pc.invert(pc.fill_null(finite, False)), True).as_py() + 1
        raise InputError(
            "a score that is not a finite number", path=source, line=row, field="score"
        )
    slots = pc.cast(table.column(found["slot"]), "int32") if "slot" in found else None
    return _table(qids, dids, scores, slots, source)


def _table(
    qids: list[str] | pa.ChunkedArray,
    dids: list[str] | pa.ChunkedArray,
    scores: list[float] | pa.ChunkedArray,
    slots: pa.ChunkedArray | None,
    source: str,
) -> pa.Table:
    import pyarrow as pa

    from toolex.runs.codes import RESULT_SCHEMA, encoded

    n = len(scores)
    if n == 0:
        raise InputError("the run holds no results", path=source)
    return pa.table(
        {
            "query_id": encoded(pa.array(qids, pa.string())),
            "item_id": encoded(pa.array(dids, pa.string())),
            "score": pa.array(scores, pa.float64()),
            "slot": slots if slots is not None else pa.nulls(n, pa.int32()),
            "line": pa.array(range(1, n + 1), pa.int64()),
        },
        schema=RESULT_SCHEMA,
    )
