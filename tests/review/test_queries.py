"""Every typed read of toolex.review.queries runs on an empty store: the columns of each SQL file
are the fields of its row type (Store.typed checks them even when no row comes back), so a
renamed column fails here, in CI, not in front of a reviewer."""

from __future__ import annotations

from toolex.review import queries
from toolex.review.levels import COMBINATION, VERDICT
from toolex.store import Store


def test_every_typed_read_matches_its_sql_file() -> None:
    key = {"benchmark": "b", "expansion": "default", "query_id": "q"}
    with Store.memory() as store:
        assert queries.sample_use(store, "s") == queries.SampleUse(0, 0, 0)
        assert queries.samples(store) == []
        assert queries.population_strata(store, "b", "default") == []
        assert queries.shows_rationale(store, "s") is False
        assert queries.verdict_rationale(store, key, 0, "i") is None
        assert queries.combination_rationale(store, key, 1) == []
        for level in (COMBINATION, VERDICT):
            assert queries.role_reviewers(store, level.tables.labels, "s") == []
        assert queries.item_members(store, {**key, "combo_id": 1}) == []
        assert queries.verdict_strata(store, "s") == []
        assert queries.item_docs(store, "b", ["i"]) == []
        assert queries.audit_sample(store, "s") == []
        assert queries.audit_members(store, "s") == []
        settings = queries.verdict_settings(store, "b", "default")
        assert settings == queries.VerdictSettings(None, None, None, None, None, 0)
        assert queries.retrieved_subqueries(store, "b", "default") == []
