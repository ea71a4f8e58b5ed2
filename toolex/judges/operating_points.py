"""The offline verifier's two operating points, fitted on the shipped verdict labels.

A verdict's score is a logistic model of the evidence (toolex/judges/evidence.py):
``score = sigmoid(bias + sum(weights[f] * (x[f] - means[f]) / scales[f]))``. Each operating point
has its own model, fitted for what it is for: ``STRICT`` on ``evidence.FEATURES`` (precision),
``SCREEN`` on ``evidence.SCREEN_FEATURES`` (recall: the whole documentation, names spelled
loosely). The numbers below are printed by ``benchmarks/fit_offline_judge.py`` from
``toolex/data/labels/verdicts.jsonl`` (910 verdicts, 120 equivalents; StableToolBench and the four
ToolRet tasks); refit them there, never by hand.

Measured out of sample (nested cross-validation: each threshold is chosen inside the training
folds; 95% Wilson intervals):

- ``strict`` (the ``heuristic`` judge's verify; grouped 5-fold, a reference's verdicts in one
  fold): accept when no veto fires and ``score >= STRICT_THRESHOLD``. Precision 0.957 [0.79,
  0.99], recall 0.183 (22 of 23 accepted verdicts right, 120 equivalents). Leaving each
  benchmark part out in turn (the model never saw its vocabulary): precision 0.944 [0.74,
  0.99], recall 0.142.
- ``prescreen`` (never accepts; says which candidates an LLM verifier must see; grouped by
  query): keep when ``screen score >= PRESCREEN_THRESHOLD``, the loosest threshold at which the
  screen's repeated cross-validated recall is 0.99 (``SCREEN_CV_RECALL``: the 3% loss budget
  less a margin for the interval of 120 equivalents). Recall 0.992 [0.95, 1.00] of labelled
  equivalents while discarding 45.1% of the labelled candidates (two other outer splits: 1.000
  and 0.975; leave-part-out: recall 1.000, discarding 42.9%). In sample it loses none of the
  120. On the candidates a real expansion verifies (BM25, depth 20), which are mostly easier
  than the labelled near-misses, it discards more than half (benchmarks/bench_cost.py).

"New" scores from the strict judge are therefore a lower bound of the gain: few of its
accepted equivalents are wrong, and it misses most of the true ones.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Model:
    """A logistic model over standardised evidence features."""

    means: Mapping[str, float]
    scales: Mapping[str, float]
    weights: Mapping[str, float]
    bias: float

    def score(self, features: Mapping[str, float]) -> float:
        """The fitted probability that the candidate is an equivalent."""
        z = self.bias + sum(
            w * (features[f] - self.means[f]) / self.scales[f] for f, w in self.weights.items()
        )
        return 1.0 / (1.0 + math.exp(-z))


STRICT = Model(
    means={
        "about_sim": 0.446689,
        "doc_sim": 0.625678,
        "sub_sim": 0.297521,
        "cover": 0.459723,
        "overlap": 0.210138,
        "same_operation": 0.786813,
        "name_sim": 0.326878,
        "inputs_ok": 0.787912,
        "sibling": 0.203297,
        "returns_overlap": 0.463646,
        "inputs_overlap": 0.117003,
    },
    scales={
        "about_sim": 0.262744,
        "doc_sim": 0.222042,
        "sub_sim": 0.191739,
        "cover": 0.323457,
        "overlap": 0.214504,
        "same_operation": 0.409559,
        "name_sim": 0.297795,
        "inputs_ok": 0.408787,
        "sibling": 0.402451,
        "returns_overlap": 0.217087,
        "inputs_overlap": 0.299331,
    },
    weights={
        "about_sim": 0.621505,
        "doc_sim": 0.418123,
        "sub_sim": 0.100064,
        "cover": 0.922972,
        "overlap": 0.215097,
        "same_operation": 0.202698,
        "name_sim": 0.409311,
        "inputs_ok": 0.026262,
        "sibling": -0.434472,
        "returns_overlap": -0.19686,
        "inputs_overlap": 0.241056,
    },
    bias=-3.274942,
)
STRICT_THRESHOLD = 0.786126

SCREEN = Model(
    means={
        "about_sim": 0.446689,
        "doc_sim": 0.625678,
        "sub_sim": 0.297521,
        "cover_doc": 0.476497,
        "overlap": 0.210138,
        "same_operation": 0.786813,
        "name_sim": 0.326878,
        "inputs_ok_loose": 0.789011,
        "sibling_loose": 0.194505,
        "returns_overlap": 0.463646,
        "inputs_overlap": 0.117003,
    },
    scales={
        "about_sim": 0.262744,
        "doc_sim": 0.222042,
        "sub_sim": 0.191739,
        "cover_doc": 0.319858,
        "overlap": 0.214504,
        "same_operation": 0.409559,
        "name_sim": 0.297795,
        "inputs_ok_loose": 0.408011,
        "sibling_loose": 0.39582,
        "returns_overlap": 0.217087,
        "inputs_overlap": 0.299331,
    },
    weights={
        "about_sim": 0.641408,
        "doc_sim": 0.299786,
        "sub_sim": 0.171384,
        "cover_doc": 0.972835,
        "overlap": 0.184509,
        "same_operation": 0.207498,
        "name_sim": 0.454136,
        "inputs_ok_loose": 0.080476,
        "sibling_loose": -0.576333,
        "returns_overlap": -0.139075,
        "inputs_overlap": 0.263957,
    },
    bias=-3.348013,
)
PRESCREEN_THRESHOLD = 0.02037
# The screen's target: repeated grouped cross-validated recall of labelled equivalents.
SCREEN_CV_RECALL = 0.99

LABELS_FITTED_ON = "toolex-dev-v1"
# Out-of-sample confusion counts on LABELS_FITTED_ON (nested cross-validation, pooled over the
# outer folds): what the docstring's figures are computed from, and what
# `toolex stats`/`eval`/`report` show for the offline judge when nothing else measured it.
CROSS_VALIDATED: dict[str, dict[str, int]] = {
    "heuristic": {"n": 910, "tp": 22, "fp": 1, "fn": 98, "tn": 789},
    "heuristic:prescreen": {"n": 910, "tp": 119, "fp": 381, "fn": 1, "tn": 409},
}


def score(features: Mapping[str, float]) -> float:
    """The strict model's probability that the candidate is an equivalent."""
    return STRICT.score(features)


def screen_score(features: Mapping[str, float]) -> float:
    """The pre-screen model's probability that the candidate is an equivalent."""
    return SCREEN.score(features)
