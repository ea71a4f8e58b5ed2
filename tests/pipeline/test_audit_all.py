"""On the demo sample, `expand` with default settings audits every combination; the annotation
tables' counts add up; a capped run shows what it cut, and exports never count it as relevant."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pipeline.helpers import fated
from toolex.exports.qrels import expanded_qrels, flat_qrels
from toolex.judges.heuristic import HeuristicJudge
from toolex.loaders import load_stabletoolbench
from toolex.pipeline.runner import Settings, run_expansion
from toolex.pipeline.stats import annotation_rows, combination_counts
from toolex.resources import data_path
from toolex.store import Store


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    store = Store.open(tmp_path_factory.mktemp("sample") / "s.duckdb")
    load_stabletoolbench(store, data_path("sample"), name="sample")
    judge = HeuristicJudge(store, benchmark="sample")
    run_expansion(store, "sample", judge)  # the defaults, as `toolex expand` runs them
    run_expansion(store, "sample", judge, expansion="capped", settings=Settings(audit_cap=1))
    yield store
    store.close()


@pytest.mark.slow
def test_default_expand_audits_every_combination(sample: Store) -> None:
    statuses = combination_counts(sample, "sample")
    assert "cut" not in statuses and "pending" not in statuses
    row = annotation_rows(sample, "sample")[0]
    assert row.assembled == fated(row)
    # every combination past the dependency rule, other than the 300 originals and the repeats
    # of a tool set a query already held, was audited
    assert row.repeated > 0  # the sample holds repeats (issue 35.3)
    assert row.audited == row.assembled - row.rejected_platform - row.repeated - 300
    assert row.audited == row.valid_combos - 300 + row.rejected_audit > 0


def test_a_capped_run_counts_what_it_cut_and_still_adds_up(sample: Store) -> None:
    rows = annotation_rows(sample, "sample", "capped", by="category")
    assert rows[0].cut > 0 and rows[0].pending == 0
    for row in rows:
        assert row.assembled == fated(row)
    default = annotation_rows(sample, "sample")[0]
    # the same product, audited less: never passing for the uncapped run (what the capped run
    # cut holds the repeats it did not reach)
    assert rows[0].assembled == default.assembled
    assert rows[0].audited + rows[0].cut + rows[0].repeated == default.audited + default.repeated


@pytest.mark.parametrize("expansion", ["default", "capped"])
def test_the_reports_annotation_table_adds_up(sample: Store, expansion: str) -> None:
    rows = sample.rows(
        "reports/10_annotation.sql", {"benchmarks": ["sample"], "expansion": expansion}
    )
    for r in rows:
        fates = (
            "alternatives",
            "rejected_audit",
            "rejected_platform",
            "repeated",
            "cut",
            "pending",
        )
        assert r["assembled"] == sum(r[k] for k in fates)
        assert r["audited"] == r["alternatives"] + r["rejected_audit"]
    assert (rows[-1]["cut"] > 0) == (expansion == "capped")


def test_export_never_counts_an_unaudited_combination_unless_asked(sample: Store) -> None:
    # the cut are counted, never stored (issue 11): the capped run's export holds none
    assert not [r for r in expanded_qrels(sample, "sample", "capped").to_pylist() if r["unaudited"]]
    # the capped run assembled but not yet audited: its pending combinations are unaudited
    for table in ("subqueries", "candidates", "verdicts"):
        sample.con.execute(
            f"INSERT INTO {table} SELECT * REPLACE ('assembled' AS expansion) FROM {table} "
            "WHERE expansion = 'capped'"
        )
    judge = HeuristicJudge(sample, benchmark="sample")
    settings = Settings(audit_cap=1)
    run_expansion(
        sample, "sample", judge, expansion="assembled", stages=("assemble",), settings=settings
    )
    rows = expanded_qrels(sample, "sample", "assembled").to_pylist()
    pending = [r for r in rows if r["status"] == "pending"]
    assert pending and all(r["relevance"] == 0 and r["unaudited"] for r in pending)
    assert all(r["relevance"] == 0 for r in rows if r["status"].startswith("rejected"))
    assert all(r["relevance"] > 0 for r in rows if r["status"] == "valid")
    marked = expanded_qrels(sample, "sample", "assembled", include_unaudited=True).to_pylist()
    assert all(r["relevance"] == 1 for r in marked if r["status"] == "pending")
    # the flat form: items only an unaudited combination holds are left out, or marked when asked
    flat = {
        (r["query_id"], r["item_id"]) for r in flat_qrels(sample, "sample", "assembled").to_pylist()
    }
    wide = flat_qrels(sample, "sample", "assembled", include_unaudited=True).to_pylist()
    only_pending = {(r["query_id"], r["item_id"]) for r in wide if r["unaudited_only"]}
    assert only_pending and not (only_pending & flat)
    assert {(r["query_id"], r["item_id"]) for r in wide} == flat | only_pending


def test_the_audit_reads_its_tasks_group_by_group_with_the_same_verdicts(
    sample: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PendingAudits reads the pending combinations a few queries at a time (their tools'
    documentation once per group): groups of 7 queries give every combination the verdict and
    reason that groups of 200 gave the default expansion."""
    from toolex.pipeline import audit

    monkeypatch.setattr(audit, "QUERY_GROUP", 7)
    judge = HeuristicJudge(sample, benchmark="sample")
    run_expansion(sample, "sample", judge, expansion="grouped")

    def fates(expansion: str) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = sample.user_sql(
            "SELECT query_id, combo_id, status, reason FROM combinations WHERE expansion = ? "
            "ORDER BY ALL",
            [expansion],
        ).to_pylist()
        return rows

    grouped = fates("grouped")
    assert grouped == fates("default")
    # audited and valid on the sample: 81 with the score-and-veto verifier of issue 24, 115 with
    # issue 32's six-point verifier reading issue 32's sub-queries, once the repeats of a tool
    # set a query already held are no longer stored (issue 35.3); 114 with its rules
    # six-points-2 (the classes of round 3's false accepts)
    assert sum(r["status"] == "valid" and r["combo_id"] > 0 for r in grouped) == 114
    assert not [r for r in grouped if r["status"] == "pending"]
