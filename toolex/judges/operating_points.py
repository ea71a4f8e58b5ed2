"""The offline verifier's two operating points, fitted on the shipped verdict labels.

A verdict's score is a logistic model of the evidence (toolex/judges/evidence.py):
``score = sigmoid(BIAS + sum(WEIGHTS[f] * (x[f] - MEANS[f]) / SCALES[f]))``. The numbers below
are printed by ``benchmarks/fit_offline_judge.py`` from ``toolex/data/labels/verdicts.jsonl``
(910 verdicts, 120 equivalents; StableToolBench and the four ToolRet tasks); refit them there,
never by hand.

Measured out of sample (nested grouped 5-fold cross-validation: a reference's verdicts stay in
one fold and each threshold is chosen inside the training folds; 95% Wilson intervals):

- ``strict`` (the ``heuristic`` judge's verify): accept when no veto fires and
  ``score >= STRICT_THRESHOLD``. Precision 0.957 [0.79, 0.99], recall 0.183 (22 of 23 accepted
  verdicts right, 120 equivalents). Leaving each benchmark part out in turn (the model never saw
  its vocabulary): precision 0.944 [0.74, 0.99], recall 0.142.
- ``prescreen`` (never accepts; says which candidates an LLM verifier must see): keep when
  ``score >= PRESCREEN_THRESHOLD``. Recall 0.975 [0.93, 0.99] of labelled equivalents while
  discarding 28.7% of candidates (leave-part-out: 0.975, 32.1%).

"New" scores from the strict judge are therefore a lower bound of the gain: few of its
accepted equivalents are wrong, and it misses most of the true ones.
"""

from __future__ import annotations

import math

MEANS = {
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
}
SCALES = {
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
}
WEIGHTS = {
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
}
BIAS = -3.274942
STRICT_THRESHOLD = 0.786126
PRESCREEN_THRESHOLD = 0.004356
LABELS_FITTED_ON = "toolex-dev-v1"
# Out-of-sample confusion counts on LABELS_FITTED_ON (nested grouped 5-fold cross-validation,
# pooled over the outer folds): what the docstring's figures are computed from, and what
# `toolex stats`/`eval`/`report` show for the offline judge when nothing else measured it.
CROSS_VALIDATED: dict[str, dict[str, int]] = {
    "heuristic": {"n": 910, "tp": 22, "fp": 1, "fn": 98, "tn": 789},
    "heuristic:prescreen": {"n": 910, "tp": 117, "fp": 532, "fn": 3, "tn": 258},
}


def score(features: dict[str, float]) -> float:
    """The fitted probability that the candidate is an equivalent."""
    z = BIAS + sum(w * (features[f] - MEANS[f]) / SCALES[f] for f, w in WEIGHTS.items())
    return 1.0 / (1.0 + math.exp(-z))
