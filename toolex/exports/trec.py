"""TREC qrels and runs, the formats trec_eval, pytrec_eval, ir_measures and ranx all read.

qrels: ``qid 0 docid relevance``; run: ``qid Q0 docid rank score tag``. Ids with whitespace
(most StableToolBench item ids) are written percent-encoded: space ``%20``, ``%`` ``%25``
(toolex.runs.formats.trec_escape; ``toolex runs import`` and the readers here decode them).
Modes of the qrels:

* ``original``         the benchmark's own annotation (scores = toolex's "old" metrics);
* ``flat``             every item of any valid combination (a lenient union, NOT the new metrics);
* ``per-combination``  one pseudo-query ``<qid>#<combo_id>`` per valid combination: score the
  run against it (each ``<qid>#<c>`` ranked like ``<qid>``) and take the max per query per
  metric to get toolex's "new" metrics.
"""

from __future__ import annotations

from pathlib import Path

from toolex.errors import InputError, ToolexError
from toolex.exports.common import resolve
from toolex.exports.files import output_file
from toolex.exports.qrels import expanded_qrels, flat_qrels
from toolex.exports.queries import run_result_batches
from toolex.runs.formats import trec_escape, trec_unescape
from toolex.store import Store

QRELS_MODES = ("original", "flat", "per-combination")
COMBO_SEP = "#"


def _check_id(value: str, what: str) -> str:
    """``value`` as one TREC field: whitespace and ``%`` percent-encoded, the one mapping of
    toolex.runs.formats (space ``%20``, ``%`` ``%25``), which every TREC reader here undoes."""
    if not value:
        raise ToolexError(f"an empty {what} cannot be written to a TREC file")
    return trec_escape(value)


def export_trec_qrels(
    store: Store,
    path: str | Path,
    benchmark: str | None = None,
    expansion: str = "default",
    mode: str = "original",
) -> int:
    """Write TREC qrels in ``mode`` (see module docstring); returns the number of lines."""
    if mode not in QRELS_MODES:
        raise ToolexError(f"unknown qrels mode {mode!r}; choose one of {', '.join(QRELS_MODES)}")
    benchmark, expansion = resolve(store, benchmark, expansion)
    if mode == "flat":
        rows = flat_qrels(store, benchmark, expansion).to_pylist()
        lines = [(r["query_id"], r["item_id"], r["relevance"]) for r in rows]
    else:
        rows = expanded_qrels(store, benchmark, expansion, valid_only=True).to_pylist()
        if mode == "original":
            lines = [
                (r["query_id"], r["item_id"], r["relevance"]) for r in rows if r["is_original"]
            ]
        else:
            best: dict[tuple[str, str], int] = {}  # an item filling two slots counts once
            for r in rows:
                key = (f"{r['query_id']}{COMBO_SEP}{r['combo_id']}", r["item_id"])
                best[key] = max(best.get(key, 0), r["relevance"])
            lines = [(q, i, rel) for (q, i), rel in best.items()]
    with output_file(path, store.path) as temp, temp.open("w", encoding="utf-8") as out:
        for qid, item, rel in lines:
            out.write(f"{_check_id(qid, 'query id')} 0 {_check_id(item, 'item id')} {rel}\n")
    return len(lines)


def export_trec_run(store: Store, path: str | Path, run_id: str) -> int:
    """Write one run as a TREC run file (tag = run id); returns the number of lines.

    The rows stream from DuckDB in Arrow batches, each written before the next is read: a run
    of millions of results never sits whole in memory (a 149 MB file took 1 GB as Python rows).
    """
    store.require_runs([run_id])
    tag = _check_id(run_id, "run id")
    n = 0
    with output_file(path, store.path) as temp, temp.open("w", encoding="utf-8") as out:
        for batch in run_result_batches(store, run_id):
            columns = batch.to_pydict()
            out.writelines(
                f"{_check_id(qid, 'query id')} Q0 {_check_id(item, 'item id')} "
                f"{rank} {score!r} {tag}\n"
                for qid, item, rank, score in zip(
                    columns["query_id"],
                    columns["item_id"],
                    columns["rank"],
                    columns["score"],
                    strict=True,
                )
            )
            n += batch.num_rows
    return n


def read_trec_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """{qid: {docid: relevance}} from a TREC qrels file (the shape pytrec_eval and ranx take)."""
    out: dict[str, dict[str, int]] = {}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 4:
            raise InputError("expected 4 fields: qid 0 docid relevance", str(path), n)
        try:
            qid, docid = trec_unescape(parts[0]), trec_unescape(parts[2])
            out.setdefault(qid, {})[docid] = int(parts[3])
        except ValueError as exc:
            raise InputError(
                "relevance is not an integer", str(path), n, field="relevance"
            ) from exc
    return out


def read_trec_run(path: str | Path) -> dict[str, dict[str, float]]:
    """{qid: {docid: score}} from a TREC run file."""
    out: dict[str, dict[str, float]] = {}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 6:
            raise InputError("expected 6 fields: qid Q0 docid rank score tag", str(path), n)
        try:
            qid, docid = trec_unescape(parts[0]), trec_unescape(parts[2])
            out.setdefault(qid, {})[docid] = float(parts[4])
        except ValueError as exc:
            raise InputError("score is not a number", str(path), n, field="score") from exc
    return out
