"""Every read of toolex.labels.queries runs on an empty store: the columns of each SQL file are
the fields of its row type (Store.typed checks them even when no row comes back), so a renamed
column fails here, in CI, not in an import or an evaluation."""

from __future__ import annotations

from toolex.labels import queries
from toolex.labels.table import _arrow
from toolex.labels.tasks import EVAL_LABELS
from toolex.store import Store


def test_every_typed_read_matches_its_sql_file() -> None:
    with Store.memory() as store:
        assert queries.stored_label_rows(store, None, None) == []
        assert queries.label_summary(store) == []
        assert queries.references(store, "b", ["q"]) == []
        with store.registered("new_labels", _arrow([])):
            assert queries.source_counts(store) == []
            assert queries.label_problems(store) == []
        with store.registered("eval_labels", EVAL_LABELS.empty_table()):
            assert queries.label_task_rows(store, "default") == []
