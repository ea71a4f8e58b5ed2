"""How well a judge agrees with labels: the confusion matrix and its figures, with 95% intervals.

The positive class is "yes" (an equivalent; for the audit, a valid combination). With
tp, fp, fn, tn the cells of (judge, label) and n their sum:

- precision = tp / (tp + fp); recall = tp / (tp + fn); accuracy = (tp + tn) / n;
  baseline = (fp + tn) / n, the accuracy of always answering "no"; discarded = (fn + tn) / n,
  the share a screen drops. Each is a binomial proportion: 95% Wilson score interval
  (``toolex.statistics.wilson_interval``; Wilson 1927, Brown, Cai & DasGupta 2001).
- F1 = 2 tp / (2 tp + fp + fn), and Cohen's kappa of the judge against the labels
  (``toolex.statistics.kappa_of_table``, Cohen 1960) are not proportions: their 95% intervals
  are percentile bootstrap intervals, :data:`BOOTSTRAP_RESAMPLES` resamples of the n verdicts
  (multinomial over the four cells), seeded with :data:`BOOTSTRAP_SEED` so a report repeats
  exactly; resamples where the figure is undefined (no yes at all) are left out.

A figure whose denominator is zero is None (shown blank), never 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from toolex.statistics import kappa_of_table, wilson_interval

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 16
INTERVALS = (
    "Wilson 95% for precision, recall, accuracy, baseline and discarded; percentile bootstrap "
    f"95% ({BOOTSTRAP_RESAMPLES} resamples, seed {BOOTSTRAP_SEED}) for F1 and kappa"
)


@dataclass(frozen=True)
class Confusion:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @classmethod
    def of(cls, pairs: Iterable[tuple[bool, bool]]) -> Confusion:
        """From (judge said yes, label is yes) pairs."""
        cells = [0, 0, 0, 0]
        for judged, label in pairs:
            cells[(0 if label else 1) if judged else (2 if label else 3)] += 1
        return cls(*cells)

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    def table(self) -> dict[tuple[str, str], int]:
        """As a (judge, label) contingency table for kappa."""
        return {
            ("yes", "yes"): self.tp,
            ("yes", "no"): self.fp,
            ("no", "yes"): self.fn,
            ("no", "no"): self.tn,
        }


@dataclass(frozen=True)
class Interval:
    value: float | None
    lo: float | None
    hi: float | None

    def show(self, digits: int = 3) -> str:
        """'0.667 [0.21, 0.94]' (the value to ``digits``), or '' when undefined."""
        if self.value is None:
            return ""
        if self.lo is None or self.hi is None:
            return f"{self.value:.{digits}f}"
        return f"{self.value:.{digits}f} [{self.lo:.2f}, {self.hi:.2f}]"


@dataclass(frozen=True)
class Figures:
    confusion: Confusion
    precision: Interval
    recall: Interval
    f1: Interval
    accuracy: Interval
    baseline: Interval
    kappa: Interval
    discarded: Interval

    NAMES = ("precision", "recall", "f1", "accuracy", "baseline", "kappa", "discarded")

    def row(self) -> dict[str, int | float | None]:
        """Flat: n, the four cells, then each figure with its _lo and _hi."""
        c = self.confusion
        out: dict[str, int | float | None] = {
            "n": c.n,
            "tp": c.tp,
            "fp": c.fp,
            "fn": c.fn,
            "tn": c.tn,
        }
        for name in self.NAMES:
            iv: Interval = getattr(self, name)
            out |= {name: iv.value, f"{name}_lo": iv.lo, f"{name}_hi": iv.hi}
        return out


def f1(c: Confusion) -> float | None:
    denom = 2 * c.tp + c.fp + c.fn
    return 2 * c.tp / denom if denom else None


def kappa(c: Confusion) -> float | None:
    return kappa_of_table(c.table())


def figures(c: Confusion) -> Figures:
    """Every figure of ``c`` with its interval (see the module docstring)."""
    f1_iv, kappa_iv = _bootstrap(c)
    return Figures(
        confusion=c,
        precision=_wilson(c.tp, c.tp + c.fp),
        recall=_wilson(c.tp, c.tp + c.fn),
        f1=f1_iv,
        accuracy=_wilson(c.tp + c.tn, c.n),
        baseline=_wilson(c.fp + c.tn, c.n),
        kappa=kappa_iv,
        discarded=_wilson(c.fn + c.tn, c.n),
    )


def _wilson(k: int, n: int) -> Interval:
    if n == 0:
        return Interval(None, None, None)
    lo, hi = wilson_interval(k, n)
    return Interval(k / n, lo, hi)


def _bootstrap(c: Confusion) -> tuple[Interval, Interval]:
    point_f1, point_kappa = f1(c), kappa(c)
    if c.n == 0:
        return Interval(None, None, None), Interval(None, None, None)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    cells = np.array([c.tp, c.fp, c.fn, c.tn], dtype=float)
    draws = rng.multinomial(c.n, cells / c.n, size=BOOTSTRAP_RESAMPLES)
    f1s, kappas = [], []
    for tp, fp, fn, tn in draws.tolist():
        sample = Confusion(tp, fp, fn, tn)
        if (x := f1(sample)) is not None:
            f1s.append(x)
        if (k := kappa(sample)) is not None:
            kappas.append(k)
    return _percentile(point_f1, f1s), _percentile(point_kappa, kappas)


def _percentile(point: float | None, values: list[float]) -> Interval:
    if point is None:
        return Interval(None, None, None)
    if not values:
        return Interval(point, None, None)
    lo, hi = np.percentile(values, [2.5, 97.5])
    return Interval(point, float(lo), float(hi))
