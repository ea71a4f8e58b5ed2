"""The trust lines' consequence in a report: the precision band that thins "new" towards
"old" by a verifier's measured precision, and the report's trust section - never thinned at a
precision nobody measured on that library (issue 32). Split from test_trust.py."""

from __future__ import annotations

import math
from typing import Any

import pytest

from reports.fixtures import BENCHMARK
from reports.trust_fixtures import LLM, figures, fitted, llm_expansion
from toolex.reports.inputs import ReportContext
from toolex.reports.thinning import thinning_rows, thinning_table
from toolex.reports.trust import UNVALIDATED, expansion_trust
from toolex.reports.trust_table import report_trust, trust_table
from toolex.store import Store

L3 = math.log2(3)
# bm25 at K=3 (fixtures.py): old and new nDCG per query, q1..q6
OLD_NDCG = [0.5, (1 / L3) / (1 + 1 / L3), 1.0, 0.0, (1 / L3 + 0.5) / (1 + 1 / L3), 0.5]
NEW_NDCG = [1.0, 1.0, 1.0, 0.5, OLD_NDCG[4], 0.5]


def band(
    store: Store,
    precision: float | dict[str, float | None],
    *,
    run: str = "bm25",
    seed: int = 0,
    expansion: str = "default",
) -> dict[Any, dict[str, Any]]:
    """{metric: row} of bm25 at K=3 with every equivalent's judge at ``precision``."""
    judges = (
        {"heuristic": precision, "": precision} if not isinstance(precision, dict) else precision
    )
    rows = thinning_rows(store, [run], expansion, 3, seed=seed, precisions={BENCHMARK: judges})
    return {r["metric"]: r for r in rows}


def test_precision_one_keeps_new_and_zero_gives_old(fixture_store: Store) -> None:
    full, none = band(fixture_store, 1.0), band(fixture_store, 0.0)
    assert full["ndcg"]["old"] == pytest.approx(sum(OLD_NDCG) / 6)
    assert full["ndcg"]["new"] == pytest.approx(sum(NEW_NDCG) / 6)
    for metric in ("ndcg", "recall", "comp"):
        row = full[metric]
        for end in ("lo", "median", "hi"):
            assert row[f"thinned_{end}"] == pytest.approx(row["new"], abs=1e-12)
            assert none[metric][f"thinned_{end}"] == pytest.approx(row["old"], abs=1e-12)
        assert row["n_equivalents"] == 3 and row["n_queries"] == 6


def test_each_equivalent_goes_with_its_own_judge(fixture_store: Store) -> None:
    """c2 (q4) judged by 'other' at p = 0, the rest at p = 1: only q4's gain goes (0.5 nDCG,
    1 recall, 1 comp over 6 queries); the two-slot combination of q2 keeps its reference w4."""
    fixture_store.con.execute("UPDATE verdicts SET judge = 'other' WHERE item_id = 'c2'")
    rows = band(fixture_store, {"heuristic": 1.0, "other": 0.0, "": None})
    assert rows["ndcg"]["thinned_hi"] == pytest.approx(rows["ndcg"]["new"] - 0.5 / 6)
    assert rows["recall"]["thinned_lo"] == pytest.approx(rows["recall"]["new"] - 1 / 6)
    assert rows["comp"]["thinned_median"] == pytest.approx(rows["comp"]["new"] - 1 / 6)
    rows = band(fixture_store, {"heuristic": 0.0, "other": 1.0, "": None})
    assert rows["ndcg"]["thinned_lo"] == pytest.approx(rows["ndcg"]["old"] + 0.5 / 6)
    assert rows["recall"]["thinned_hi"] == pytest.approx(rows["recall"]["old"] + 1 / 6)


def test_the_band_rises_with_precision_and_stays_between_old_and_new(fixture_store: Store) -> None:
    last = None
    for p in (0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0):
        rows = band(fixture_store, p)
        now = [rows[m][f"thinned_{e}"] for m in ("ndcg", "recall", "comp") for e in ("lo", "hi")]
        for m in ("ndcg", "recall", "comp"):
            assert rows[m]["old"] - 1e-12 <= rows[m]["thinned_lo"] <= rows[m]["thinned_median"]
            assert rows[m]["thinned_median"] <= rows[m]["thinned_hi"] <= rows[m]["new"] + 1e-12
        if last is not None:
            assert all(b >= a - 1e-12 for a, b in zip(last, now, strict=True)), p
        last = now
    half = band(fixture_store, 0.5)["ndcg"]
    assert half["thinned_lo"] < half["thinned_hi"]  # three coin flips do spread
    assert band(fixture_store, 0.5) == band(fixture_store, 0.5)  # seeded


def test_an_unmeasured_verifier_has_no_band(fixture_store: Store) -> None:
    llm_expansion(fixture_store)
    rows = thinning_rows(fixture_store, ["bm25"], "llm", 3)  # measured precisions: none
    assert {r["metric"] for r in rows} == {"ndcg", "recall", "comp"}
    assert all(r["thinned_lo"] is None and r["thinned_hi"] is None for r in rows)
    assert rows[0]["new"] == pytest.approx(sum(NEW_NDCG) / 6)


# -- the report section ----------------------------------------------------------------------


def test_the_report_section_on_the_fixture(fixture_store: Store, ctx: ReportContext) -> None:
    fitted(fixture_store)
    llm_expansion(fixture_store)
    trusts = report_trust(ctx)
    table = trust_table(trusts)
    assert table.title == "How far to trust this"
    rows = {(r["stage"], r["judge"]): r for r in table.rows}
    verify = rows[("verify", "heuristic")]
    f = figures(BENCHMARK)["heuristic"]
    assert verify["measured_on"] == "held out toolex-pipeline-v2 (toolret), leave one library out"
    assert verify["precision"] == f["precision"]
    assert (verify["precision_lo"], verify["precision_hi"]) == tuple(f["precision_ci"])
    assert rows[("combinations", "human review")]["measured_on"] == "no review yet"
    assert (
        rows[("audit", "heuristic")]["measured_on"]
        == "not measured: nothing has measured this judge"
    )

    thinned = thinning_table(ctx, trusts, replicates=50)
    main = {(r.run_id, r.metric): r for r in ctx.summary if r.group == "all"}
    assert {r["run_id"] for r in thinned.rows} == {"bm25", "bm25-ft", "sub-bm25"}
    for row in thinned.rows:
        assert row["new"] == pytest.approx(main[(row["run_id"], row["metric"])].new)
        assert row["old"] - 1e-12 <= row["thinned_lo"] <= row["thinned_hi"] <= row["new"] + 1e-12
        assert row["thinned_to"] == f"heuristic {f['precision']:.3f}"
    assert "5th to 95th percentile" in thinned.note


def test_the_report_section_of_an_unvalidated_expansion(fixture_store: Store) -> None:
    from toolex.reports.inputs import ReportContext

    llm_expansion(fixture_store)
    ctx = ReportContext.create(fixture_store, expansion="llm", k=3)
    trusts = report_trust(ctx)
    assert [r["measured_on"] for r in trust_table(trusts).rows if r["stage"] == "verify"] == [
        f"{UNVALIDATED}: nothing has measured this judge"
    ]
    thinned = thinning_table(ctx, trusts, replicates=20)
    assert {r["thinned_to"] for r in thinned.rows} == {f"{LLM} {UNVALIDATED}"}
    assert all(r["thinned_lo"] is None for r in thinned.rows)


def test_the_report_of_a_library_without_labels_does_not_thin(
    fixture_store: Store, ctx: ReportContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: `report` thins only at a precision measured on that library; on one without
    labels of its own (here the fixture's, its labelled libraries hidden) the band is empty and
    says why, while the trust section shows the expectation, named as such."""
    from toolex.judges.operating_points import held_out as shipped

    monkeypatch.setattr(
        "toolex.reports.trust_measure.held_out",
        lambda judge, benchmark, embedding=None: (
            None if benchmark else shipped(judge, benchmark, embedding)
        ),
    )
    fitted(fixture_store)
    trusts = report_trust(ctx)
    rows = {(r["stage"], r["judge"]): r for r in trust_table(trusts).rows}
    assert rows[("verify", "heuristic")]["measured_on"].startswith(
        "expected on a library nobody tuned on: toolex-pipeline-v2 labels of other libraries"
    )
    thinned = thinning_table(ctx, trusts, replicates=20)
    assert thinned.rows and all(r["thinned_lo"] is None for r in thinned.rows)
    f = figures("all")["heuristic"]
    assert {r["thinned_to"] for r in thinned.rows} == {
        f"heuristic not thinned: no precision measured on toolret (the {f['precision']:.3f} a "
        "library nobody tuned on can expect is no measurement here); to measure it here to "
        "+-0.1: `toolex review sample <id> --level verdict --benchmark toolret --size 150 "
        "--seed 1`, then label it (TUI or sheets)"
    }


def test_a_library_where_nothing_is_accepted_says_so_with_the_likely_cause(
    fixture_store: Store,
) -> None:
    fitted(fixture_store)
    fixture_store.con.execute(
        "UPDATE verdicts SET accepted = false, reason = CASE WHEN item_id = 'c2' THEN "
        "'no: operation: the two documents do not show one act on one object: score 1.20' "
        "ELSE 'no: platform: the reference reads X''s own records' END "
        "WHERE judge = 'heuristic'"
    )
    trust = expansion_trust(fixture_store, BENCHMARK, "default")
    assert trust is not None  # the fixture's expansion holds verdicts
    assert trust.nothing_accepted == (
        "heuristic accepted none of 9 candidates (it says yes only where the documents give "
        "evidence for all six points; the points that failed most: platform 8, unlike documents "
        "1); likely cause: its tools answer from their own platforms (a plugin library whose "
        "tools overlap by design is the usual case): no candidate is shown to serve the "
        "reference's platform, which is the right answer there, not a defect"
    )
    assert f"trust toolret/default verify: {trust.nothing_accepted}" in trust.lines()
    assert trust.as_dict()["nothing_accepted"] == trust.nothing_accepted
    fitted(fixture_store)
    fixture_store.con.execute("UPDATE verdicts SET accepted = true WHERE item_id = 'c2'")
    again = expansion_trust(fixture_store, BENCHMARK, "default")
    assert again is not None and again.nothing_accepted is None
