"""Precision, Wilson interval, Cohen's kappa and the taxonomy on a fixed set of labels whose
values are computed by hand in the comments."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from toolex.errors import ToolexError
from toolex.review import Label, review_stats, save_label
from toolex.statistics import cohen_kappa, wilson_interval
from toolex.store import Store

# 10 items: (reviewer1, reviewer2, adjudicator); a label is "valid" or ("invalid", bucket)
V = "valid"
NS, PM, IC = (
    ("invalid", "near_synonym"),
    ("invalid", "platform_mismatch"),
    ("invalid", "incomplete_coverage"),
)
LABELS = [
    (V, V, None),
    (V, V, None),
    (V, V, None),
    (V, V, None),
    (V, V, None),  # agree valid: 5
    (V, NS, V),  # disagree -> adjudicated valid
    (IC, V, IC),  # disagree -> adjudicated invalid (coverage)
    (NS, NS, None),
    (PM, PM, None),  # agree invalid, same bucket: 2
    (NS, PM, PM),  # agree invalid, buckets differ -> adjudicated
]


def _lab(x: Sequence[str] | tuple[str, str] | str) -> Label:
    return Label(x) if x == V else Label(*x)


@pytest.fixture
def labelled(store: Store) -> Store:
    for i in range(len(LABELS)):
        store.con.execute(
            "INSERT INTO review_samples VALUES ('s', 'b', 'default', ?, 1, 'G1 x 2', ?, 7)",
            [f"q{i}", i + 1],
        )
    for i, (r1, r2, adj) in enumerate(LABELS):
        item = {"benchmark": "b", "expansion": "default", "query_id": f"q{i}", "combo_id": 1}
        save_label(store, "s", item, role="reviewer1", reviewer="ann", label=_lab(r1))
        save_label(store, "s", item, role="reviewer2", reviewer="bob", label=_lab(r2))
        if adj:
            save_label(store, "s", item, role="adjudicator", reviewer="cat", label=_lab(adj))
    return store


def test_hand_computed_stats(labelled: Store) -> None:
    st = review_stats(labelled, "s")
    # kappa on valid/invalid: p_o = 8/10 (items 5 and 6 differ); reviewer1 says valid on
    # 6/10, reviewer2 on 6/10 -> p_e = .6*.6 + .4*.4 = .52; kappa = (.8-.52)/(1-.52) = 0.58333
    assert st.kappa == pytest.approx(0.28 / 0.48)
    assert st.agreement == pytest.approx(0.8)
    # final valid: 5 agreed + item 5 adjudicated = 6 of 10
    assert (st.n_final, st.n_valid, st.precision) == (10, 6, 0.6)
    # Wilson 95% for 6/10: (0.3127, 0.8318), the textbook value
    assert (st.ci_low, st.ci_high) == pytest.approx((0.31267, 0.83182), abs=1e-5)
    assert (st.n_double, st.n_disagree, st.n_adjudicated) == (10, 3, 3)
    assert st.buckets == {
        "decomposition_ambiguity": 0,
        "near_synonym": 1,
        "incomplete_coverage": 1,
        "platform_mismatch": 2,
    }


def test_pending_adjudication_is_left_out_of_precision(labelled: Store) -> None:
    labelled.con.execute("DELETE FROM review_labels WHERE role = 'adjudicator' AND query_id = 'q6'")
    st = review_stats(labelled, "s")
    assert (st.n_final, st.n_valid, st.n_adjudicated) == (9, 6, 2)


def test_kappa_edge_cases() -> None:
    assert cohen_kappa([]) is None
    assert cohen_kappa([("valid", "valid")] * 4) is None  # p_e = 1: undefined
    assert cohen_kappa([("valid", "invalid"), ("invalid", "valid")]) == pytest.approx(-1.0)
    # 2x2 table a=20 b=5 c=10 d=15 (Wikipedia's worked example): kappa = 0.4
    pairs = [("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15
    assert cohen_kappa(pairs) == pytest.approx(0.4)


def test_wilson_bounds() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(1, 3)  # by hand: centre .42687, half .36538
    assert (lo, hi) == pytest.approx((0.06149, 0.79234), abs=1e-5)
    assert wilson_interval(10, 10) == pytest.approx((0.72246, 1.0), abs=1e-5)


def test_label_rules(store: Store) -> None:
    store.con.execute(
        "INSERT INTO review_samples VALUES ('s', 'b', 'default', 'q', 1, 'G1 x 2', 1, 7)"
    )
    item = {"benchmark": "b", "expansion": "default", "query_id": "q", "combo_id": 1}
    with pytest.raises(ToolexError, match="needs one failure bucket"):
        save_label(store, "s", item, role="reviewer1", reviewer="ann", label=Label("invalid"))
    with pytest.raises(ToolexError, match="takes no failure bucket"):
        save_label(
            store, "s", item, role="reviewer1", reviewer="ann", label=Label("valid", "near_synonym")
        )
    save_label(store, "s", item, role="reviewer1", reviewer="ann", label=Label("valid"))
    with pytest.raises(ToolexError, match="one person"):
        save_label(store, "s", item, role="reviewer2", reviewer="ann", label=Label("valid"))
    with pytest.raises(ToolexError, match="the reviewer1 of sample"):
        save_label(store, "s", item, role="reviewer1", reviewer="zed", label=Label("valid"))
