"""The report: the tables and figures a researcher publishes, every number from SQL in sql/reports
(or toolex.metrics' SQL). :func:`build_report` writes the folder; each section module computes
its tables from a :class:`ReportContext` and can be used on its own."""

from toolex.reports.builder import build_report
from toolex.reports.inputs import ReportContext, Table

__all__ = ["ReportContext", "Table", "build_report"]
