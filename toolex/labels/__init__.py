"""Verdict labels as data, and judges measured against them (issue 16).

- :mod:`toolex.labels.records`: label files (JSONL, CSV) read with located errors and written;
- :mod:`toolex.labels.table`: the one writer of the ``labels`` table (atomic import, the final
  labels a verdict-level review publishes), and its readers (export);
- :mod:`toolex.labels.tasks`: labelled verdicts as judge tasks (sub-query resolution, strata);
- :mod:`toolex.labels.quality`: confusion matrix, precision/recall/F1/accuracy/kappa, intervals;
- :mod:`toolex.labels.evaluate`: `toolex judges eval` of the verify stage (the audit stage,
  measured against review labels, is toolex.review.audit_eval, above this package);
- :mod:`toolex.labels.report`: its results as data, and the one writer of ``judge_evaluations``.
"""

from toolex.labels.queries import LabelSet
from toolex.labels.records import (
    SHIPPED,
    SHIPPED_SETS,
    Label,
    LabelErrors,
    LabelKey,
    read_labels,
    write_labels,
)
from toolex.labels.table import (
    LabelImport,
    export_labels,
    import_labels,
    label_summary,
    remove_label,
    replace_label,
    stored_labels,
)

__all__ = [
    "SHIPPED",
    "SHIPPED_SETS",
    "Label",
    "LabelErrors",
    "LabelImport",
    "LabelKey",
    "LabelSet",
    "export_labels",
    "import_labels",
    "label_summary",
    "read_labels",
    "remove_label",
    "replace_label",
    "stored_labels",
    "write_labels",
]
