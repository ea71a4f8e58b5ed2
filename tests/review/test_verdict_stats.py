"""Verdict-level statistics on a fixed set of labels (values by hand in the comments), and the final
labels published to the `labels` table for `toolex judges eval`."""

from __future__ import annotations

from typing import Any

import pytest

from toolex.review import Label, save_label, verdict_stats
from toolex.review.stats import recall_estimate
from toolex.statistics import wilson_interval
from toolex.store import Store

POPULATION = {"accepted": 40, "rejected": 100, "unjudged": 200}
Y = "yes"
OP, EN = ("no", "different_operation"), ("no", "different_entity")
Mark = str | tuple[str, str]  # a label: "yes", or ("no", its bucket)
# per part, 10 items: (reviewer1, reviewer2, adjudicator)
LABELS: dict[str, list[tuple[Mark, Mark, Mark | None]]] = {
    "accepted": [(Y, EN, Y)] + [(Y, Y, None)] * 7 + [(OP, OP, None)] * 2,
    "rejected": [(Y, Y, None)] * 2 + [(OP, OP, None)] * 8,
    "unjudged": [(OP, Y, Y)] + [(EN, EN, None)] * 9,
}


def _lab(x: Mark, note: str | None = None) -> Label:
    return Label(x, None, note) if isinstance(x, str) else Label(*x, note)


def _key(part: str, i: int) -> dict[str, object]:
    return {
        "benchmark": "b",
        "expansion": "default",
        "query_id": f"{part}{i}",
        "slot": 0,
        "item_id": f"c{i}",
    }


@pytest.fixture
def labelled(store: Store) -> Store:
    con = store.con
    pos = 0
    for part, items in LABELS.items():
        con.execute(
            "INSERT INTO review_verdict_strata VALUES ('s', ?, ?, 'A', '1-3', ?, 10)",
            [f"{part}/A/1-3", part, POPULATION[part]],
        )
        for i in range(len(items)):
            pos += 1
            con.execute(
                "INSERT INTO review_verdict_samples VALUES ('s', 'b', 'default', ?, 0, ?, 'r', "
                "'find the weather', ?, 'A', 2, '1-3', ?, ?, 7)",
                [f"{part}{i}", f"c{i}", part, f"{part}/A/1-3", pos],
            )
    for part, items in LABELS.items():
        for i, (r1, r2, adj) in enumerate(items):
            item = _key(part, i)
            save_label(store, "s", item, role="reviewer1", reviewer="ann", label=_lab(r1))
            save_label(store, "s", item, role="reviewer2", reviewer="bob", label=_lab(r2))
            if adj:
                save_label(
                    store,
                    "s",
                    item,
                    role="adjudicator",
                    reviewer="cat",
                    label=_lab(adj, "same operation"),
                )
    return store


def test_precision_recall_kappa_by_hand(labelled: Store) -> None:
    st = verdict_stats(labelled, "s")
    assert (st.n_items, st.n_double, st.n_disagree, st.n_adjudicated, st.n_final) == (
        30,
        30,
        2,
        2,
        30,
    )
    # final yes: accepted 8/10, rejected 2/10, unjudged 1/10
    assert [(p.labelled, p.yes) for p in st.parts.values()] == [(10, 8), (10, 2), (10, 1)]
    assert st.precision.value == pytest.approx(0.8)
    # Wilson 8/10, z = 1.96: centre 0.71675, half 0.22658
    assert (st.precision.low, st.precision.high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    # judge recall = 40*.8 / (40*.8 + 100*.2) = 32/52; recall adds 200*.1: 32/72
    assert st.judge_recall.value == pytest.approx(32 / 52)
    assert st.recall.value == pytest.approx(32 / 72)
    # kappa: 28 of 30 pairs agree; each reviewer says yes 10 times:
    # p_o = 14/15, p_e = (1/3)^2 + (2/3)^2 = 5/9 -> (14/15 - 5/9) / (4/9) = 0.85
    assert st.kappa == pytest.approx(0.85)
    assert st.agreement == pytest.approx(28 / 30)
    assert st.buckets["different_operation"] == 10 and st.buckets["different_entity"] == 9
    rows = {r["statistic"]: r["value"] for r in st.rows()}
    assert rows["unjudged:population"] == 200 and rows["rejected:yes_rate"] == pytest.approx(0.2)


def test_recall_bounds_combine_bonferroni_wilson_intervals() -> None:
    parts = {"accepted": (40, 10, 8), "rejected": (100, 10, 2), "unjudged": (0, 0, 0)}
    est = recall_estimate(parts, ("rejected", "unjudged"))  # unjudged has no population
    z = 2.241402727604947  # two parts: each at 1 - 0.05/2, two-sided
    a_lo, a_hi = wilson_interval(8, 10, z)
    r_lo, r_hi = wilson_interval(2, 10, z)
    assert est.value == pytest.approx(32 / 52)
    assert est.low == pytest.approx(40 * a_lo / (40 * a_lo + 100 * r_hi))
    assert est.high == pytest.approx(40 * a_hi / (40 * a_hi + 100 * r_lo))
    assert est.low is not None and est.high is not None
    assert est.low < 32 / 52 < est.high
    # a part with a population but no label yet: no point estimate, [0, 1] in the bounds
    # (three parts now: each at 1 - 0.05/3)
    pending = recall_estimate({**parts, "unjudged": (50, 0, 0)}, ("rejected", "unjudged"))
    z3 = 2.3939797998185104
    a_hi, r_lo = wilson_interval(8, 10, z3)[1], wilson_interval(2, 10, z3)[0]
    assert pending.value is None
    assert pending.high == pytest.approx(40 * a_hi / (40 * a_hi + 100 * r_lo + 50 * 0.0))
    assert pending.low == pytest.approx(
        40
        * wilson_interval(8, 10, z3)[0]
        / (40 * wilson_interval(8, 10, z3)[0] + 100 * wilson_interval(2, 10, z3)[1] + 50 * 1.0)
    )


def test_final_labels_go_to_the_labels_table(labelled: Store) -> None:
    con = labelled.con

    def published() -> list[tuple[Any, ...]]:
        return con.execute(
            "SELECT query_id, label, labeller, note, stratum->>'part' FROM labels "
            "WHERE source = 's' ORDER BY query_id"
        ).fetchall()

    rows = published()
    assert len(rows) == 30
    assert sum(r[2] == "agreed" for r in rows) == 28
    assert ("accepted0", "yes", "cat", "same operation", "accepted") in rows
    assert ("rejected5", "no", "agreed", "different_operation", "rejected") in rows
    # bob changes his mind on accepted1: a disagreement awaiting adjudication has no final
    # label, so it leaves the labels table until the adjudicator decides
    item = _key("accepted", 1)
    save_label(
        labelled, "s", item, role="reviewer2", reviewer="bob", label=Label("no", "named_source")
    )
    assert "accepted1" not in {r[0] for r in published()}
    save_label(
        labelled, "s", item, role="adjudicator", reviewer="cat", label=Label("no", "named_source")
    )
    assert ("accepted1", "no", "cat", "named_source", "accepted") in published()


def test_verdict_labels_are_yes_or_no_with_a_verdict_bucket(labelled: Store) -> None:
    from toolex.errors import ToolexError

    item = _key("accepted", 0)
    with pytest.raises(ToolexError, match="must be one of yes, no"):
        save_label(labelled, "s", item, role="reviewer1", reviewer="ann", label=Label("valid"))
    with pytest.raises(ToolexError, match="needs one failure bucket: different_operation"):
        save_label(
            labelled, "s", item, role="reviewer1", reviewer="ann", label=Label("no", "near_synonym")
        )
