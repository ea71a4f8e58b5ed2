"""Import retrieval runs made elsewhere: TREC run files, CSV/Parquet tables and ToolRet's JSON.

Formats (``fmt="auto"`` picks by suffix: .parquet, .csv/.tsv, .json, anything else TREC):

* ``trec``         ``qid Q0 docid rank score tag`` per line, whitespace separated (trec_eval's)
* ``csv``          header with ``query_id,item_id,score`` (aliases qid/docid accepted),
                   optional ``slot``
* ``parquet``      the same columns
* ``toolret-json`` ``{query_id: {item_id: score}}`` (ToolRet's saved retrieval output)

The file's own rank column is ignored: rank is recomputed in SQL with trec_eval's rule (score
descending, ties by item_id descending), so an imported run ranks exactly as a toolex run would.
With ``level="subquery"`` and a ``slot`` column, the per-sub-query lists go to
``subquery_results`` and the query-level list is their RRF fusion (k = 60). Rows reach DuckDB as
one Arrow table (``INSERT ... SELECT``), never row by row.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from toolex.errors import InputError, ToolexError
from toolex.loaders.common import existing_benchmark, registered
from toolex.loaders.readers import read_json_value, read_text
from toolex.store import Store

RUN_FORMATS = ("auto", "trec", "csv", "parquet", "toolret-json")
LEVELS = ("query", "subquery")
RRF_K = 60
RESULT_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("item_id", pa.string()),
        ("score", pa.float64()),
        ("slot", pa.int32()),
        ("line", pa.int64()),
    ]
)
_ALIASES = {
    "query_id": ("query_id", "qid", "query-id", "query"),
    "item_id": ("item_id", "docid", "doc_id", "corpus-id", "item", "tool_id"),
    "score": ("score",),
    "slot": ("slot",),
}


@dataclass
class RunImport:
    run_id: str
    benchmark: str
    level: str
    format: str
    queries: int
    results: int
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"run {self.run_id!r} ({self.format}, {self.level} level): {self.results} results "
            f"for {self.queries} queries of {self.benchmark!r}"
        )


def detect_format(path: Path) -> str:
    suffix = path.suffix.lower()
    return {".parquet": "parquet", ".csv": "csv", ".tsv": "csv", ".json": "toolret-json"}.get(
        suffix, "trec"
    )


def read_run(path: str | Path, fmt: str = "auto") -> pa.Table:
    """The run file as an Arrow table (query_id, item_id, score, slot, line)."""
    path = Path(path)
    if fmt not in RUN_FORMATS:
        raise ToolexError(f"unknown run format {fmt!r}; choose one of {RUN_FORMATS}")
    fmt = detect_format(path) if fmt == "auto" else fmt
    table = {
        "trec": _read_trec,
        "csv": _read_table,
        "parquet": _read_table,
        "toolret-json": _read_toolret_json,
    }[fmt](path, fmt)
    if table.num_rows == 0:
        raise InputError("the run file holds no results", path=str(path))
    return table


def _read_trec(path: Path, fmt: str) -> pa.Table:
    qids, dids, scores, lines = [], [], [], []
    for lineno, line in enumerate(read_text(path).split("\n"), start=1):
        cols = line.split()
        if not cols:
            continue
        if len(cols) != 6:
            raise InputError(
                f"expected 6 columns 'qid Q0 docid rank score tag', found {len(cols)}",
                path=str(path),
                line=lineno,
            )
        try:
            score = float(cols[4])
        except ValueError:
            raise InputError(
                f"score {cols[4]!r} is not a number", path=str(path), line=lineno, field="score"
            ) from None
        if math.isnan(score):
            raise InputError("score is NaN", path=str(path), line=lineno, field="score")
        qids.append(cols[0])
        dids.append(cols[2])
        scores.append(score)
        lines.append(lineno)
    return _unslotted(qids, dids, scores, lines)


def _read_table(path: Path, fmt: str) -> pa.Table:
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    first_line = 1
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            raw = pq.read_table(path)
        else:
            import pyarrow.csv as pacsv

            read_text(path)  # a non-UTF-8 file is reported with its byte offset, not a CSV error
            delim = "\t" if path.suffix.lower() == ".tsv" else ","
            raw = pacsv.read_csv(
                path,
                parse_options=pacsv.ParseOptions(delimiter=delim),
                convert_options=pacsv.ConvertOptions(
                    column_types={
                        a: pa.string() for k in ("query_id", "item_id") for a in _ALIASES[k]
                    }
                ),
            )
            first_line = 2  # the header is line 1
    except pa.ArrowInvalid as exc:
        raise InputError(f"cannot read {fmt}: {exc}", path=str(path)) from None
    cols = {}
    for key, names in _ALIASES.items():
        found = next((n for n in names if n in raw.column_names), None)
        if found is None and key != "slot":
            raise InputError(
                f"missing column {key!r} (found {raw.column_names})", path=str(path), field=key
            )
        cols[key] = found
    lines = pa.array(range(first_line, first_line + raw.num_rows), pa.int64())
    out = {}
    for key, typ in (
        ("query_id", pa.string()),
        ("item_id", pa.string()),
        ("score", pa.float64()),
        ("slot", pa.int32()),
    ):
        if cols[key] is None:
            out[key] = pa.nulls(raw.num_rows, typ)
            continue
        col = raw.column(cols[key])
        try:
            out[key] = col.cast(typ)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise InputError(f"column values are not {typ}", path=str(path), field=key) from None
        _check_no_nulls(out[key], lines, path, key, allow=key == "slot")
    out["line"] = lines
    return pa.table(out, schema=RESULT_SCHEMA)


def _check_no_nulls(
    col: pa.ChunkedArray, lines: pa.Array, path: Path, key: str, *, allow: bool
) -> None:
    import pyarrow.compute as pc

    bad = pc.is_null(col, nan_is_null=True)
    if allow or not pc.any(bad).as_py():
        return
    first = pc.index(bad, True).as_py()
    raise InputError("empty or NaN value", path=str(path), line=lines[first].as_py(), field=key)


def _read_toolret_json(path: Path, fmt: str) -> pa.Table:
    value = read_json_value(path)
    if not isinstance(value, dict):
        raise InputError("expected an object {query_id: {item_id: score}}", path=str(path))
    qids, dids, scores, records = [], [], [], []
    for n, (qid, ranked) in enumerate(value.items(), start=1):
        if not isinstance(ranked, dict):
            raise InputError("expected {item_id: score}", path=str(path), record=qid)
        for did, score in ranked.items():
            if isinstance(score, bool) or not isinstance(score, int | float) or math.isnan(score):
                raise InputError(
                    f"score {score!r} is not a number", path=str(path), record=qid, field=did
                )
            qids.append(qid)
            dids.append(did)
            scores.append(float(score))
            records.append(n)
    # 'line' holds the query's position in the object: a JSON object has no useful line per entry
    return _unslotted(qids, dids, scores, records)


def _unslotted(qids: list[str], dids: list[str], scores: list[float], lines: list[int]) -> pa.Table:
    """A query-level run (no slot column in the file) as a RESULT_SCHEMA table."""
    return pa.table(
        {
            "query_id": qids,
            "item_id": dids,
            "score": scores,
            "slot": [None] * len(qids),
            "line": lines,
        },
        schema=RESULT_SCHEMA,
    )


def import_run(
    store: Store,
    path: str | Path,
    *,
    run: str,
    benchmark: str,
    fmt: str = "auto",
    level: str = "query",
    skip_unknown: bool = False,
    replace: bool = False,
) -> RunImport:
    """Read, validate and store one run in one transaction."""
    path = Path(path)
    if level not in LEVELS:
        raise ToolexError(f"unknown level {level!r}; choose one of {LEVELS}")
    if existing_benchmark(store, benchmark) is None:
        raise ToolexError(f"no benchmark {benchmark!r} in the store; load it first")
    if store.query("runs/01_find_run.sql", {"run_id": run}) and not replace:
        raise ToolexError(f"a run named {run!r} exists; pass --replace or choose another --run")
    real_fmt = detect_format(path) if fmt == "auto" else fmt
    table = read_run(path, fmt)
    has_slots = table.column("slot").null_count < table.num_rows
    if has_slots and level != "subquery":
        raise InputError(
            "the file has a slot column; import it with --level subquery",
            path=str(path),
            field="slot",
        )
    result = RunImport(run, benchmark, level, real_fmt, 0, 0)
    params = {"run_id": run, "benchmark": benchmark}
    where = "record" if real_fmt == "toolret-json" else "line"
    with registered(store, {"new_results": table}):
        unknown = store.query("runs/20_unknown_queries.sql", {"benchmark": benchmark})
        if unknown and not skip_unknown:
            first = unknown[0]
            raise InputError(
                f"query id {first['query_id']!r} is not in benchmark {benchmark!r} "
                f"({len(unknown)} unknown query id(s); --skip-unknown drops them)",
                path=str(path),
                **_located(first, where),
                field="query_id",
            )
        if unknown:
            rows = sum(u["n_rows"] for u in unknown)
            result.notes.append(f"skipped {rows} result(s) of {len(unknown)} unknown query id(s)")
        dup = store.query("runs/21_duplicate_results.sql")
        if dup:
            d = dup[0]
            raise InputError(
                f"item {d['item_id']!r} is listed twice for query {d['query_id']!r} "
                f"(first at {where} {d['first_line']})",
                path=str(path),
                **_located(d, where),
                field="item_id",
            )
        n_items = store.query("runs/22_unknown_items.sql", {"benchmark": benchmark})[0]["n_items"]
        if n_items:
            result.notes.append(
                f"{n_items} item id(s) are not in the library (kept, never relevant)"
            )
        with store.transaction():
            if replace:
                _delete_rows(store, run)
            store.execute(
                "runs/30_insert_run.sql",
                {
                    **params,
                    "level": level,
                    "retriever": None,
                    "source": str(path),
                    "params": json.dumps(_params(real_fmt, has_slots)),
                },
            )
            if has_slots:
                store.execute("runs/32_insert_subquery_results.sql", params)
                store.execute("runs/33_fuse_subquery_results.sql", {"run_id": run, "k": RRF_K})
            else:
                store.execute("runs/31_insert_run_results.sql", params)
            counts = store.query("runs/41_run_counts.sql", {"run_id": run})[0]
    result.queries, result.results = int(counts["queries"]), int(counts["results"])
    return result


def _located(row: dict[str, Any], where: str) -> dict[str, Any]:
    """An offending row's place for InputError: its line, or (ToolRet JSON) its query's record."""
    return {"record": row["query_id"]} if where == "record" else {"line": row["line"]}


def _params(fmt: str, has_slots: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"imported": True, "format": fmt}
    if has_slots:
        out["fusion"] = {"method": "rrf", "k": RRF_K}
    return out


def delete_run(store: Store, run: str) -> int:
    """Remove a run and all its results; returns how many results were removed."""
    if not store.query("runs/01_find_run.sql", {"run_id": run}):
        raise ToolexError(f"no run named {run!r}; see `toolex runs list`")
    n = store.query("runs/41_run_counts.sql", {"run_id": run})[0]["results"]
    with store.transaction():
        _delete_rows(store, run)
    return int(n)


def _delete_rows(store: Store, run: str) -> None:
    """The run's results, sub-query results and runs row, inside the caller's transaction."""
    for name in (
        "runs/10_delete_subquery_results.sql",
        "runs/11_delete_run_results.sql",
        "runs/12_delete_run.sql",
    ):
        store.execute(name, {"run_id": run})


def list_runs(store: Store, benchmark: str | None = None) -> list[dict[str, Any]]:
    return store.query("runs/40_list_runs.sql", {"benchmark": benchmark})
