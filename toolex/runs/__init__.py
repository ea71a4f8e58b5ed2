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

The names load on first use (PEP 562): ``toolex eval --run-file --qrels-file`` on plain TREC
files (:mod:`toolex.runs.plain`) imports this package without Arrow or numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

_HOME = {
    **dict.fromkeys(("RUN_FORMATS", "read_run"), "formats"),
    **dict.fromkeys(("RunImport", "import_results", "import_run"), "imports"),
    **dict.fromkeys(("RRF_K", "fuse"), "rrf"),
    **dict.fromkeys(
        ("LEVELS", "RunCounts", "RunListing", "delete_run", "list_runs", "write_run"), "write"
    ),
}


def __getattr__(name: str) -> object:
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
