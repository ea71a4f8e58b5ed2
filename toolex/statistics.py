"""The two statistics every measured figure of toolex rests on: Wilson's interval of a binomial
proportion and Cohen's kappa between two raters. The one implementation of each: the review
protocol (toolex.review.stats), judges measured against labels (toolex.labels.quality) and the
trust report (toolex.reports.trust) all call these.

- Wilson score interval (Wilson, 1927; recommended by Brown, Cai & DasGupta, 2001) of k
  successes in n trials, p = k / n, z = 1.96 for 95%:
  centre = (p + z²/2n) / (1 + z²/n), half = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²),
  clipped to [0, 1]. Unlike the normal (Wald) interval it stays inside [0, 1] and keeps its
  coverage near p = 0 or 1 and for small n. With n = 0 nothing is known: [0, 1].
- Cohen's kappa (Cohen, 1960) of two raters' labels on the same items:
  kappa = (p_o - p_e) / (1 - p_e), p_o = the observed agreement,
  p_e = Σ_c p1(c) p2(c) (each rater's marginal rate of label c): agreement beyond chance.
  When p_e = 1 (both raters gave one same label to everything) kappa is undefined: None.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: two-sided 95%


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's interval of ``successes`` in ``n`` (see the module docstring); (0, 1) for n = 0."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Kappa of two raters' labels, one (rater1, rater2) pair per item."""
    return kappa_of_table(Counter(pairs))


def kappa_of_table(table: Mapping[tuple[str, str], int]) -> float | None:
    """Kappa from a contingency table: (rater1's label, rater2's label) -> number of items.

    Review agreement (reviewer1 vs reviewer2) and ``toolex judges eval`` (judge vs labels)."""
    n = sum(table.values())
    if n == 0:
        return None
    p_o = sum(count for (a, b), count in table.items() if a == b) / n
    c1: Counter[str] = Counter()
    c2: Counter[str] = Counter()
    for (a, b), count in table.items():
        c1[a] += count
        c2[b] += count
    p_e = sum(c1[c] * c2[c] for c in set(c1) | set(c2)) / (n * n)
    if p_e == 1:
        return None
    return (p_o - p_e) / (1 - p_e)
