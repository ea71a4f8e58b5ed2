"""Every read of toolex.llm.queries runs on an empty store: the columns of each SQL file are the
fields of its row type (Store.typed checks them even when no row comes back), so a renamed
column fails here, in CI, not when a stage asks the ledger for its answers."""

from __future__ import annotations

from toolex.llm import queries
from toolex.store import Store


def test_every_typed_read_matches_its_sql_file() -> None:
    with Store.memory() as store:
        assert queries.ledger_hits(store, ["h"]) == []
        assert queries.ledger_pending(store, ["h"]) == []
        assert queries.ledger_summary(store) == []
        grouped = {"by_stage": True, "by_judge": False, "by_model": True}
        assert queries.ledger_usage(store, grouped) == []
        assert queries.uncalled(store) == []
