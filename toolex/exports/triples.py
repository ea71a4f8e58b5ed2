"""Contrastive training triples whose hard negatives exclude the query's verified equivalents.

What retriever authors ask benchmark projects for, and the paper's argument made concrete: with
one-to-one qrels, the hardest "negatives" a retriever is trained against are often tools that
do the job. Here the negatives of an anchor are the best-ranked items of a run (or of the
expansion's candidate pool) that are neither ground truth nor equivalents (sql/exports/60):
never an equivalent of the query in any expansion (an accepted verdict, a member of a valid
combination: SkillRet's substitutable qrels are those of the expansion ``substitutable``), nor
an item verified equivalent to one of its ground-truth items anywhere in the store (a verdict of
another query or expansion, a valid combination's member in its slot, a person's 'yes' label),
in either direction. Each row says how many of the one-to-one choice's negatives were
equivalents (``excluded_equivalents``).

Formats, by the file's suffix:

* ``.parquet``: query_id, slot, anchor, positive_id, positive, negative_id, negative,
  negative_rank, excluded_equivalents;
* ``.jsonl``: ``{"anchor", "positive", "negative"}`` and nothing else, one triple a line, ready
  for sentence-transformers (``datasets.load_dataset("json", data_files=...)`` and
  MultipleNegativesRankingLoss take the columns in that order; an extra column would be fed to
  the model as one more text).

Item texts are the default rendering (items.text), as retrievers search them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from toolex.errors import InputError, ToolexError
from toolex.exports.common import resolve
from toolex.exports.files import output_file
from toolex.exports.queries import training_triples_table
from toolex.store import Store

LEVELS = ("query", "subquery")
FORMATS = (".parquet", ".jsonl")


@dataclass(frozen=True)
class TriplesExport:
    rows: int
    anchors: int
    excluded_equivalents: int  # negatives one-to-one qrels would have taken that are equivalents

    def summary(self, path: str | Path) -> str:
        return (
            f"wrote {self.rows} triples for {self.anchors} anchors to {path}; "
            f"{self.excluded_equivalents} verified equivalent(s) kept out of the negatives "
            "(one-to-one qrels would have trained against them)"
        )


def training_triples(
    store: Store,
    benchmark: str | None = None,
    expansion: str = "default",
    *,
    run_id: str | None = None,
    negatives: int = 5,
    level: str = "query",
) -> pa.Table:
    """The triples as an Arrow table (columns of the Parquet form)."""
    if level not in LEVELS:
        raise InputError(f"--level must be one of {', '.join(LEVELS)}, not {level!r}")
    if negatives < 1:
        raise InputError(f"--negatives must be 1 or more, not {negatives}", field="--negatives")
    benchmark, expansion = resolve(store, benchmark, expansion)
    if run_id is not None:
        store.require_runs([run_id])
    params = {
        "benchmark": benchmark,
        "expansion": expansion,
        "run_id": run_id,
        "negatives": negatives,
        "level": level,
    }
    return training_triples_table(store, params)


def export_triples(
    store: Store,
    path: str | Path,
    benchmark: str | None = None,
    expansion: str = "default",
    *,
    run_id: str | None = None,
    negatives: int = 5,
    level: str = "query",
) -> TriplesExport:
    """Write the triples to ``path`` (.parquet or .jsonl); nothing is written when there are
    none (the error says why)."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"name the file .parquet or .jsonl, not {suffix or 'no suffix'!r}")
    table = training_triples(
        store, benchmark, expansion, run_id=run_id, negatives=negatives, level=level
    )
    if table.num_rows == 0:
        source = f"run {run_id!r}" if run_id else f"the candidate pool of {expansion!r}"
        raise ToolexError(
            f"no triples: {source} ranks no item outside the ground truth and its equivalents "
            f"at {level} level (an expansion without candidates? pass --run)"
        )
    with output_file(path, store.path) as tmp:  # never the store, never half a file
        if suffix == ".parquet":
            pq.write_table(table, tmp)
        else:
            with open(tmp, "w", encoding="utf-8") as fh:
                for row in table.select(["anchor", "positive", "negative"]).to_pylist():
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    keys = table.select(["query_id", "slot", "excluded_equivalents"]).to_pylist()
    per_anchor = {(k["query_id"], k["slot"]): k["excluded_equivalents"] for k in keys}
    return TriplesExport(table.num_rows, len(per_anchor), sum(per_anchor.values()))
