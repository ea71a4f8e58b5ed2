"""Retrieval runs: the one owner of the tables ``runs``, ``run_results`` and ``subquery_results``.

* :mod:`toolex.runs.formats` reads run files (CSV/Parquet, ToolRet JSON; TREC through
  :mod:`toolex.runs.trec`), every one as ``RESULT_SCHEMA`` with its ids as codes
  (:mod:`toolex.runs.codes`);
* :mod:`toolex.runs.imports` checks an imported run against its benchmark;
* :mod:`toolex.runs.write` is the only module that writes or deletes run rows (SQL in
  ``sql/runs/``), for retrieved and imported runs alike;
* :mod:`toolex.runs.rrf` is the only definition of Reciprocal Rank Fusion (``RRF_K``).

Runs are produced by :func:`toolex.retrieval.runs.retrieve_run`, which ranks with
:mod:`toolex.retrieval` and hands the ranking to :func:`write_run`; this package never imports
the retrievers.
"""

from toolex.runs.formats import RUN_FORMATS, read_run
from toolex.runs.imports import RunImport, import_results, import_run
from toolex.runs.rrf import RRF_K, fuse
from toolex.runs.write import LEVELS, RunCounts, RunListing, delete_run, list_runs, write_run

__all__ = [
    "LEVELS",
    "RRF_K",
    "RUN_FORMATS",
    "RunCounts",
    "RunImport",
    "RunListing",
    "delete_run",
    "fuse",
    "import_results",
    "import_run",
    "list_runs",
    "read_run",
    "write_run",
]
