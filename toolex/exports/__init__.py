"""Exports of the expanded annotation and of runs, for evaluation code outside toolex.

    export_qrels(store, path, benchmark=None, expansion="default", flat=False, valid_only=False)
    export_trec_qrels(store, path, benchmark=None, expansion="default", mode="original")
    export_trec_run(store, path, run_id)
    export_toolret_jsonl(store, path, benchmark=None, expansion="default")

and readers for the round trip (``read_trec_qrels``, ``read_trec_run``, ``read_toolret_jsonl``).
Each returns the number of rows or records written.
"""

from toolex.exports.qrels import expanded_qrels, export_qrels, flat_qrels
from toolex.exports.toolret_jsonl import export_toolret_jsonl, read_toolret_jsonl
from toolex.exports.trec import (
    QRELS_MODES,
    export_trec_qrels,
    export_trec_run,
    read_trec_qrels,
    read_trec_run,
)

__all__ = [
    "QRELS_MODES",
    "expanded_qrels",
    "export_qrels",
    "export_toolret_jsonl",
    "export_trec_qrels",
    "export_trec_run",
    "flat_qrels",
    "read_toolret_jsonl",
    "read_trec_qrels",
    "read_trec_run",
]
