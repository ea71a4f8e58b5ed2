"""The offline verifier's figures on weighted labels: where to cut, and what a cut does held out.

Used by ``fit_offline_judge.py``. Each label weighs by its stratum's population over the labels
drawn from it (docs/labels/README.md), so figures estimate the candidates an expansion judges:

- precision = sum(w: accepted, yes) / sum(w: accepted), with a 95% Wilson interval at the
  accepted labels' effective number (Kish: (sum w)^2 / sum w^2);
- recall = sum(w: accepted, yes) / sum(w: yes) over the candidates the verifier judges (ranks up
  to the candidate depth).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import numpy as np


class StrictFigures(TypedDict):
    """The strict judge's figures on some labels, as held_out.json keeps them."""

    labels: int
    yes: int
    accepted_labels: int
    precision: float | None
    precision_ci: tuple[float, float] | None
    effective_n: float
    recall: float | None
    recall_ci: tuple[float, float] | None


class ScreenFigures(TypedDict):
    """The pre-screen's figures on the same labels."""

    labels: int
    yes: int
    accepted_labels: int
    recall: float | None
    recall_ci: tuple[float, float] | None
    discarded: float | None


# A group's or a pool's figures; the key names are those of the judges (one has a colon).
Figures = TypedDict(
    "Figures",
    {
        "heuristic": StrictFigures,
        "heuristic:prescreen": ScreenFigures,
        "thresholds": NotRequired[dict[str, float]],  # a held-out group's cuts
        "libraries": NotRequired[list[str]],  # a benchmark's pool: the libraries it spans
    },
)


class HeldOut(TypedDict):
    """Figures of every held-out group, and of every pool of rows."""

    groups: dict[str, Figures]
    pools: dict[str, Figures]


@dataclass
class Row:
    label: dict[str, Any]  # the label's JSON line, with its two tool documents (fit_offline_judge)
    library: str  # the library it is held out with (a ToolRet task, or stabletoolbench)
    part: str  # the benchmark part (G1, G2, G3 of StableToolBench; a ToolRet task)
    weight: float
    judged: bool  # a candidate the verifier sees (ranks up to the depth), not a rank past it
    score: float
    failed: tuple[str, ...]  # the points of toolex.judges.checks the candidate fails
    yes: bool
    measured: tuple[float, ...] = field(default=())  # every measurement (--frontier)

    @property
    def veto(self) -> bool:
        return bool(self.failed)


def weight_of(stratum: dict[str, Any]) -> float:
    """How many candidates of the pipeline's population a label stands for."""
    if stratum.get("population") and stratum.get("drawn"):
        return float(stratum["population"]) / float(stratum["drawn"])
    return 1.0


def wilson(p: float, n: float, z: float = 1.96) -> tuple[float, float]:
    if n <= 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def _arrays(rows: Sequence[Row]) -> tuple[np.ndarray, ...]:
    return (
        np.array([r.score for r in rows], float),
        np.array([r.yes for r in rows], bool),
        np.array([r.weight for r in rows], float),
        np.array([r.veto for r in rows], bool),
    )


def _share(decide: np.ndarray, w: np.ndarray, hit: np.ndarray) -> tuple[float | None, float]:
    """Weighted share of ``hit`` within ``decide``, and the effective number of labels."""
    ww = w[decide]
    if not len(ww) or ww.sum() == 0:
        return None, 0.0
    return float((ww * hit[decide]).sum() / ww.sum()), float(ww.sum() ** 2 / (ww**2).sum())


@dataclass(frozen=True)
class CutRule:
    """How the strict cut is chosen on some labels: the loosest score down to which, once
    ``min_accepted`` labels are accepted, the weighted precision stays at ``target`` or above
    and its Wilson lower bound at ``floor`` or above. Lowering the cut stops at the first set
    that fails: a looser cut that climbs back by chance (a few heavy labels) is not taken."""

    target: float
    floor: float
    min_accepted: int

    def choose(self, rows: Sequence[Row]) -> float:
        s, y, w, veto = _arrays([r for r in rows if r.judged])
        best = math.inf
        for t in np.unique(s[~veto])[::-1]:
            acc = (~veto) & (s >= t)
            if acc.sum() < self.min_accepted:
                continue
            p, n = _share(acc, w, y)
            if p is None or p < self.target or wilson(p, n)[0] < self.floor:
                break
            best = float(t)
        return best


def screen_threshold(rows: Sequence[Row], target: float) -> float:
    """The loosest score keeping at least ``target`` of the judged equivalents (weighted)."""
    s, y, w, _ = _arrays([r for r in rows if r.judged])
    order = np.argsort(s[y])
    lost = np.cumsum(w[y][order]) / w[y].sum()  # share lost when cutting above each equivalent
    k = int(np.searchsorted(lost, 1 - target, side="right"))
    return float(s[y][order][min(k, len(order) - 1)])


def figures(rows: Sequence[Row], accept: np.ndarray, keep: np.ndarray) -> Figures:
    """The strict judge's and the screen's figures on ``rows`` (judged candidates only)."""
    judged = np.array([r.judged for r in rows], bool)
    _, y, w, _ = _arrays(rows)
    y, w, accept, keep = y[judged], w[judged], accept[judged], keep[judged]
    p, n_p = _share(accept, w, y)
    r, n_r = _share(y, w, accept)
    kept, n_k = _share(y, w, keep)
    strict: StrictFigures = {
        "labels": int(len(y)),
        "yes": int(y.sum()),
        "accepted_labels": int(accept.sum()),
        "precision": p,
        "precision_ci": wilson(p, n_p) if p is not None else None,
        "effective_n": round(n_p, 1),
        "recall": r,
        "recall_ci": wilson(r, n_r) if r is not None else None,
    }
    screen: ScreenFigures = {
        "labels": int(len(y)),
        "yes": int(y.sum()),
        "accepted_labels": int(keep.sum()),
        "recall": kept,
        "recall_ci": wilson(kept, n_k) if kept is not None else None,
        "discarded": float(1 - (w * keep).sum() / w.sum()) if w.sum() else None,
    }
    return {"heuristic": strict, "heuristic:prescreen": screen}


def held_out(
    rows: Sequence[Row],
    group: Callable[[Row], str],
    rule: CutRule,
    screen_target: float,
    pools: dict[str, Callable[[Row], bool]],
) -> HeldOut:
    """Every group (a library, or a benchmark part) judged by cuts chosen on the other groups'
    labels only; its figures, and those of ``pools`` (name -> which rows), each row judged by
    the cut of its own group."""
    groups = sorted({group(r) for r in rows})
    accept = np.zeros(len(rows), bool)
    keep = np.zeros(len(rows), bool)
    cuts: dict[str, tuple[float, float]] = {}
    for g in groups:
        train = [r for r in rows if group(r) != g]
        cuts[g] = (rule.choose(train), screen_threshold(train, screen_target))
        for i, r in enumerate(rows):
            if group(r) == g:
                accept[i] = (not r.veto) and r.score >= cuts[g][0]
                keep[i] = r.score >= cuts[g][1]

    def pooled(where: Callable[[Row], bool]) -> Figures:
        mask = np.array([where(r) for r in rows], bool)
        return figures([r for r, m in zip(rows, mask, strict=True) if m], accept[mask], keep[mask])

    out: HeldOut = {"groups": {}, "pools": {}}
    for g in groups:

        def in_group(r: Row, g: str = g) -> bool:
            return group(r) == g

        out["groups"][g] = pooled(in_group)
        out["groups"][g]["thresholds"] = {
            "heuristic": cuts[g][0],
            "heuristic:prescreen": cuts[g][1],
        }
    for name, where in pools.items():
        out["pools"][name] = pooled(where)
    return out


def calibration(rows: Sequence[Row]) -> tuple[tuple[float, float], float]:
    """(a, b) of P(yes | score) = sigmoid(a score + b), weighted, over judged labels that fail no
    point; and the weighted yes rate of the judged labels that fail one."""
    keep = [r for r in rows if r.judged and not r.veto]
    s, y, w, _ = _arrays(keep)
    a, b = 1.0, 0.0
    for _ in range(20000):
        p = 1 / (1 + np.exp(-(a * s + b)))
        g = w * (p - y)
        a -= 0.5 * (g * s).sum() / w.sum()
        b -= 0.5 * g.sum() / w.sum()
    vetoed = [r for r in rows if r.judged and r.veto]
    _, vy, vw, _ = _arrays(vetoed)
    return (round(float(a), 4), round(float(b), 4)), round(float((vw * vy).sum() / vw.sum()), 4)


def best_recall(score: np.ndarray, y: np.ndarray, w: np.ndarray, target: float) -> float:
    """The highest weighted recall of any cut of ``score`` whose weighted precision is at least
    ``target`` (at least 10 labels accepted)."""
    order = np.argsort(-score)
    tp, fp = np.cumsum((w * y)[order]), np.cumsum((w * ~y)[order])
    ok = (tp / (tp + fp) >= target) & (np.arange(1, len(y) + 1) >= 10)
    return float((tp[ok] / (w * y).sum()).max()) if ok.any() else 0.0
