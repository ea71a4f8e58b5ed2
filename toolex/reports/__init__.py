"""The report: the tables and figures a researcher publishes, every number from SQL in sql/reports
(or toolex.metrics' SQL). :func:`build_report` writes the folder; each section module computes
its tables from a :class:`ReportContext` and can be used on its own.

The names below load on first use (PEP 562): `toolex eval` imports one section module, and
importing this package must not pull in every section (pyarrow, the judges, the review)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolex.reports.builder import build_report
    from toolex.reports.inputs import ReportContext, Table

__all__ = ["ReportContext", "Table", "build_report"]

_HOME = {"build_report": "builder", "ReportContext": "inputs", "Table": "inputs"}


def __getattr__(name: str) -> object:
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
