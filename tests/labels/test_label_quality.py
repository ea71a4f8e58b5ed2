"""The figures of a judge against labels on a confusion matrix computed by hand."""

from __future__ import annotations

import pytest

from toolex.labels.quality import Confusion, figures, kappa
from toolex.statistics import cohen_kappa, kappa_of_table

# tp 2, fp 1, fn 1, tn 3 (n = 7): the committed tests/labels/data/small.jsonl under heuristic
C = Confusion(tp=2, fp=1, fn=1, tn=3)


def test_hand_computed_figures() -> None:
    f = figures(C)
    assert C.n == 7
    assert f.precision.value == pytest.approx(2 / 3)  # 2 / (2 + 1)
    assert f.recall.value == pytest.approx(2 / 3)  # 2 / (2 + 1)
    assert f.f1.value == pytest.approx(2 / 3)  # 4 / (4 + 1 + 1)
    assert f.accuracy.value == pytest.approx(5 / 7)
    assert f.baseline.value == pytest.approx(4 / 7)  # four labels say no
    assert f.discarded.value == pytest.approx(4 / 7)  # the judge said no four times
    # p_o = 5/7; judge yes 3/7, labels yes 3/7: p_e = (9 + 16) / 49 = 25/49;
    # kappa = (35/49 - 25/49) / (24/49) = 10/24
    assert f.kappa.value == pytest.approx(5 / 12)
    # Wilson 2/3: centre (2/3 + z²/6) / (1 + z²/3) = .57308, half .36543
    assert (f.precision.lo, f.precision.hi) == pytest.approx((0.20766, 0.93851), abs=1e-5)
    # Wilson 5/7: (0.35893, 0.91779)
    assert (f.accuracy.lo, f.accuracy.hi) == pytest.approx((0.35893, 0.91779), abs=1e-5)


def test_bootstrap_intervals_are_seeded_and_bracket_the_value() -> None:
    a, b = figures(C), figures(C)
    assert (a.kappa.lo, a.kappa.hi, a.f1.lo, a.f1.hi) == (b.kappa.lo, b.kappa.hi, b.f1.lo, b.f1.hi)
    for iv in (a.kappa, a.f1):
        assert iv.lo is not None and iv.hi is not None
        assert iv.value is not None and iv.lo <= iv.value <= iv.hi
    big = figures(Confusion(tp=200, fp=100, fn=100, tn=300))
    assert big.kappa.value == pytest.approx(5 / 12)  # same proportions, tighter interval
    assert big.kappa.hi is not None and big.kappa.lo is not None
    assert a.kappa.hi is not None and a.kappa.lo is not None
    assert big.kappa.hi - big.kappa.lo < a.kappa.hi - a.kappa.lo


def test_undefined_figures_are_none_not_zero() -> None:
    never_yes = figures(Confusion(tp=0, fp=0, fn=2, tn=5))
    assert never_yes.precision.value is None and never_yes.precision.show() == ""
    assert never_yes.recall.value == 0.0
    empty = figures(Confusion())
    assert empty.accuracy.value is None and empty.kappa.value is None and empty.f1.value is None
    assert kappa(Confusion(tp=3)) is None  # p_e = 1


def test_one_kappa_for_review_and_judges() -> None:
    pairs = [("yes", "yes")] * 2 + [("yes", "no")] + [("no", "yes")] + [("no", "no")] * 3
    assert cohen_kappa(pairs) == pytest.approx(kappa(C))
    assert kappa_of_table(C.table()) == pytest.approx(5 / 12)
    assert Confusion.of([(True, True), (True, False), (False, True), (False, False)]) == Confusion(
        1, 1, 1, 1
    )


def test_row_and_show() -> None:
    row = figures(C).row()
    assert list(row)[:5] == ["n", "tp", "fp", "fn", "tn"]
    assert row["precision_lo"] == pytest.approx(0.20766, abs=1e-5)
    assert figures(C).precision.show() == "0.667 [0.21, 0.94]"
