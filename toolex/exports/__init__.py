"""Exports of the expanded annotation and of runs, for evaluation code outside toolex.

    export_qrels(store, path, benchmark=None, expansion="default", flat=False, valid_only=False)
    export_trec_qrels(store, path, benchmark=None, expansion="default", mode="original")
    export_trec_run(store, path, run_id)
    export_toolret_jsonl(store, path, benchmark=None, expansion="default")
    export_toolbench(store, folder, benchmark=None, expansion="default", source=None)
    check_toolbench(store, folder, benchmark=None, expansion="default", source=None)
    export_triples(store, path, benchmark=None, expansion="default", run_id=None, negatives=5,
                   level="query")

and readers for the round trip (``read_trec_qrels``, ``read_trec_run``, ``read_toolret_jsonl``).
Each returns the number of rows or records written (the last two: what they wrote, as a record).
"""

from toolex.exports.qrels import expanded_qrels, export_qrels, flat_qrels
from toolex.exports.toolbench import ToolBenchExport, export_toolbench
from toolex.exports.toolbench_tasks import ToolBenchProblem, check_toolbench
from toolex.exports.toolret_jsonl import export_toolret_jsonl, read_toolret_jsonl
from toolex.exports.trec import (
    QRELS_MODES,
    export_trec_qrels,
    export_trec_run,
    read_trec_qrels,
    read_trec_run,
)
from toolex.exports.triples import TriplesExport, export_triples, training_triples

__all__ = [
    "QRELS_MODES",
    "ToolBenchExport",
    "ToolBenchProblem",
    "TriplesExport",
    "check_toolbench",
    "expanded_qrels",
    "export_qrels",
    "export_toolbench",
    "export_toolret_jsonl",
    "export_trec_qrels",
    "export_trec_run",
    "export_triples",
    "flat_qrels",
    "read_toolret_jsonl",
    "read_trec_qrels",
    "read_trec_run",
    "training_triples",
]
