"""The offline verifier's score, its cut, and what they were measured to do.

The verifier (toolex/judges/heuristic.py) says yes only when every point of
toolex/judges/checks.py holds (rules read off the method, with no number to fit) and a score of
how far the two tools say they do one thing reaches the cut (toolex/judges/evidence.py):

    score = about_sim + doc_sim + object_match + 0.5 * cover

(what they say they do, their whole documentation, the object their names act on, the step's
words the candidate also documents). The weights are set, not fitted: each term is one kind of
evidence on one scale, and a logistic regression of every measurement, fitted on the labels and
scored on them, reaches no higher recall at the strict precision even in sample
(``benchmarks/fit_offline_judge.py --frontier`` prints both). What is fitted is where to cut,
and how sure a score is:

- ``heuristic`` (strict) accepts when no point fails and ``score >= STRICT_THRESHOLD``;
- ``heuristic:prescreen`` never accepts; it keeps a candidate for an LLM verifier when
  ``score >= SCREEN_THRESHOLD`` (the points are the verifier's to weigh: they never discard);
- a verdict's confidence is P(yes | score) = 1 / (1 + exp(-(a * score + b))), ``CALIBRATION``
  = (a, b), over the labels that fail no point; a verdict that fails a point has
  ``VETOED_YES_RATE``, the share of equivalents among the labelled candidates failing one.

The score's similarities are cosines of an embedding model's vectors (WordLlama by default,
toolex.judges.embedding), so the cuts and the calibration are fitted per embedding model
(``FITTED``; the names above are WordLlama's): a model nobody fitted is cut at WordLlama's points
and its figures are said to be unmeasured, never WordLlama's shown as its own.

Every number below is printed by ``python benchmarks/fit_offline_judge.py --db STORE
[--embedding SPEC]`` from the shipped labels (toolex/data/labels/); refit them there, never by
hand. ``held_out`` reads the figures measured the way the pipeline runs the judge (its own
decomposition, its own candidate lists, each label weighted by its stratum:
docs/labels/README.md), every labelled library judged by the cut chosen on the other libraries
only (leave one library out), per embedding model.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from toolex.judges.embedding import DEFAULT_EMBEDDING, chosen, model_of
from toolex.resources import data_path

if TYPE_CHECKING:  # the type only: the trust lines of `toolex eval` never load the rules
    from toolex.judges.evidence import Evidence
    from toolex.judges.evidence_bulk import Scored

SCORE_WEIGHTS: Mapping[str, float] = {
    "about_sim": 1.0,
    "doc_sim": 1.0,
    "object_match": 1.0,
    "cover": 0.5,
}


@dataclass(frozen=True)
class OperatingPoint:
    """Where the offline judge cuts, and how sure a score is, for scores of one embedding."""

    strict: float  # heuristic accepts at score >= strict
    screen: float  # heuristic:prescreen keeps at score >= screen
    calibration: tuple[float, float]  # (a, b) of P(yes) = 1 / (1 + exp(-(a * score + b)))
    vetoed_yes_rate: float  # P(yes) of a vetoed verdict


# Fitted per embedding model (toolex.judges.embedding.model_of: the model, never its folder),
# each by ``fit_offline_judge.py --db STORE --embedding SPEC``. An embedding not here is cut at
# WordLlama's points, and its figures are unmeasured (``held_out`` finds none for it).
FITTED: Mapping[str, OperatingPoint] = {
    DEFAULT_EMBEDDING: OperatingPoint(2.743, 0.4483, (2.8024, -5.7817), 0.0269),
    "sentence-transformers/all-MiniLM-L6-v2": OperatingPoint(
        2.9735, 0.7172, (3.0492, -6.3629), 0.0269
    ),
}
# WordLlama's, the default's, under the names the rest of the code has always read.
STRICT_THRESHOLD = FITTED[DEFAULT_EMBEDDING].strict
SCREEN_THRESHOLD = FITTED[DEFAULT_EMBEDDING].screen
CALIBRATION = FITTED[DEFAULT_EMBEDDING].calibration
VETOED_YES_RATE = FITTED[DEFAULT_EMBEDDING].vetoed_yes_rate
LABELS_FITTED_ON = ("toolex-pipeline-v2",)  # the label sets the thresholds were chosen on
# The rules the figures were measured on (toolex.judges.checks): a figure measured on other
# rules (the fresh rounds of the score-and-veto verifier before them) is not this judge's.
RULES_VERSION = "six-points-4"
MEASURED_ON = "toolex-pipeline-v2"  # the label set held-out figures are computed on


def point_of(model: str) -> OperatingPoint:
    """The operating point fitted with ``model``'s scores; WordLlama's for a model never fitted
    (``is_fitted`` says which)."""
    return FITTED.get(model, FITTED[DEFAULT_EMBEDDING])


def is_fitted(model: str) -> bool:
    return model in FITTED


@dataclass(frozen=True)
class HeldOut:
    """A judge's figures where cuts chosen without a library judged that library's labels.

    ``precision`` and ``recall`` estimate the candidate population of the pipeline (labels
    weighted by their stratum), with 95% Wilson intervals at the effective number of labels
    (Kish); ``recall`` is over the candidates the verifier judges (ranks up to the candidate
    depth). For the screen, ``recall`` is the share of equivalents kept and ``discarded`` the
    share of candidates dropped. ``where`` names the libraries pooled; ``measured`` says when, at
    which commit and under what load (the fit script's run)."""

    judge: str
    where: str
    labels: int
    yes: int
    accepted_labels: int
    precision: float | None
    precision_ci: tuple[float, float] | None
    recall: float | None
    recall_ci: tuple[float, float] | None
    discarded: float | None = None
    libraries: tuple[str, ...] = ()
    measured: str = ""


# toolex/data/, written by the fit script's --write: embedding model -> its held-out figures
HELD_OUT_FILE = "labels/held_out.json"


def held_out(judge: str, benchmark: str | None, embedding: str | None = None) -> HeldOut | None:
    """``judge``'s figures held out by library (each library judged by the cut chosen on the
    other labelled libraries) on ``benchmark``'s own labelled libraries, or, for None, pooled over
    every labelled library: what a library nobody tuned the cut on can expect. Read with the
    embedding model ``embedding`` (None: the one this process's offline judges read with,
    toolex.judges.embedding.chosen); None when the judge is not the offline verifier, the
    benchmark has no labels of its own, or nothing measured the judge with that embedding and
    these rules (``RULES_VERSION``)."""
    model = embedding if embedding is not None else model_of(chosen())
    figures = _held_out_figures().get(model) or {}
    if figures.get("rules") != RULES_VERSION:
        return None
    if benchmark is None:
        found = figures.get("all")
        libraries = tuple(sorted(figures.get("libraries", {})))
        where = f"{len(libraries)} labelled libraries ({', '.join(libraries)})"
    else:
        found = figures.get("benchmarks", {}).get(benchmark)
        libraries = tuple(found.get("libraries", ())) if found else ()
        where = f"{benchmark} ({', '.join(libraries)})" if found else ""
    if not found or judge not in found:
        return None
    f = found[judge]
    run = figures.get("measured") or {}
    return HeldOut(
        judge,
        where,
        f["labels"],
        f["yes"],
        f["accepted_labels"],
        f.get("precision"),
        tuple(f["precision_ci"]) if f.get("precision_ci") else None,
        f.get("recall"),
        tuple(f["recall_ci"]) if f.get("recall_ci") else None,
        f.get("discarded"),
        libraries,
        ", ".join(f"{k} {run[k]}" for k in ("date", "commit", "load") if run.get(k)),
    )


@cache
def _held_out_figures() -> dict[str, Any]:
    value = json.loads(data_path(HELD_OUT_FILE).read_text(encoding="utf-8"))
    return value if isinstance(value, dict) else {}


FRESH_FILE = "labels/fresh_checks.json"  # toolex/data/, written by benchmarks/fresh_sample.py


@dataclass(frozen=True)
class FreshCheck:
    """The strict verifier's precision on a fresh sample of its own accepted verdicts, labelled
    blind after the thresholds were fixed (docs/labels/fresh): nothing was fitted on it."""

    round: str  # the folder under docs/labels/fresh
    accepted: int  # accepted verdicts labelled
    precision: float
    precision_ci: tuple[float, float]

    def text(self) -> str:
        lo, hi = self.precision_ci
        return (
            f"on a fresh blind sample of its accepted verdicts (docs/labels/fresh/{self.round}) "
            f"precision {self.precision:.3f} [{lo:.2f}, {hi:.2f}], {self.accepted} labelled"
        )


def fresh_check(judge: str, benchmark: str, embedding: str | None = None) -> FreshCheck | None:
    """The latest fresh check of ``judge`` on ``benchmark`` with the chosen embedding and these
    rules, or None (only the strict verifier's accepted verdicts were labelled, only
    WordLlama's)."""
    if judge != "heuristic":
        return None
    model = embedding or model_of(chosen())
    found = _fresh_figures().get(model, {}).get(benchmark)
    if not found or found.get("rules") != RULES_VERSION:
        return None  # a round drawn from another verifier's verdicts says nothing of this one
    lo, hi = found["precision_ci"]
    return FreshCheck(found["round"], found["accepted"], found["precision"], (lo, hi))


def fresh_checks(judge: str, embedding: str | None = None) -> dict[str, FreshCheck]:
    """Every benchmark's latest fresh check of ``judge`` under these rules (see fresh_check)."""
    model = embedding or model_of(chosen())
    found = {b: fresh_check(judge, b, embedding) for b in _fresh_figures().get(model, {})}
    return {b: f for b, f in found.items() if f is not None}


@cache
def _fresh_figures() -> dict[str, Any]:
    path = data_path(FRESH_FILE)
    value = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    return value if isinstance(value, dict) else {}


def score(evidence: Evidence | Scored) -> float:
    """The strict and screen score of one piece of evidence."""
    return sum(w * float(getattr(evidence, name)) for name, w in SCORE_WEIGHTS.items())


def confidence(value: float, vetoed: bool, point: OperatingPoint | None = None) -> float:
    """P(yes) for a verdict with this score, as the labels measured it (``point``: the operating
    point of the embedding the score was read with; WordLlama's by default)."""
    point = point or FITTED[DEFAULT_EMBEDDING]
    if vetoed:
        return point.vetoed_yes_rate
    a, b = point.calibration
    return 1.0 / (1.0 + math.exp(-(a * value + b)))


# The benchmark parts a benchmark's queries belong to, as the held-out figures name them.
def part_of(benchmark: str, query_id: str) -> str:
    """StableToolBench's group (G1, G2, G3) or a ToolRet task (apibank, apigen, ...)."""
    if benchmark == "stabletoolbench":
        return query_id.split("_", 1)[0]
    return query_id.rsplit("_query", 1)[0].replace("_", "-")
