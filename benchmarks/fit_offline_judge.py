"""Choose the offline verifier's thresholds and measure them held out, as the pipeline runs them.

    python benchmarks/fit_offline_judge.py --db STORE [--subqueries decomposer|labels] [--write]
        [--frontier] [--embedding SPEC]

STORE holds the benchmarks the labels come from (``toolex load toolret ../shared/data/toolret``,
``toolex load stabletoolbench ../shared/data/stabletoolbench``). Labels: the shipped sets
(toolex/data/labels/*.jsonl). For every labelled (query, reference, candidate) it reads the
evidence (toolex/judges/evidence.py) with the sub-query the offline decomposer writes for that
step, as an expansion does (``--subqueries labels``: the label's own sub-query, a diagnostic),
and the score of toolex/judges/operating_points.py.

Figures are computed on the labels drawn from the pipeline's own candidate lists
(``toolex-pipeline-v2``: the parts accepted / rejected / unjudged of a verdict review sample, by
rank band; docs/labels/README.md), each label weighted by its stratum's population over the
labels drawn from it, so they estimate the pipeline's candidate population:

- precision = sum(w: accepted, yes) / sum(w: accepted), a 95% Wilson interval at the accepted
  labels' effective number (Kish: (sum w)^2 / sum w^2);
- recall = sum(w: accepted, yes) / sum(w: yes) over the candidates the verifier judges (the
  parts accepted and rejected: ranks up to the candidate depth); the screen's recall is the
  share of those equivalents it keeps, ``discarded`` the share of those candidates it drops.

Every benchmark part (ToolRet's four tasks, StableToolBench's three groups) is **held out**: its
thresholds are chosen on the other parts' labels only, the strict one as the loosest score whose
weighted precision there is at least ``--strict-target``, the screen's as the loosest keeping at
least ``--screen-target`` of their equivalents. "all" pools the parts, each judged so. The
thresholds printed last are chosen the same way on every part, with the confidence calibration
(a weighted logistic of the label on the score) and the yes rate under a veto: paste them into
operating_points.py (``--write`` writes the held-out figures as JSON beside the labels too).

``--embedding SPEC`` reads the evidence with that embedding model (toolex.judges.embedding:
``wordllama``, the default, or ``fastembed:<model>@<folder>``), so its thresholds, calibration
and held-out figures are that model's: they go into ``operating_points.FITTED`` and
held_out.json under the model's name (never the folder's), beside the other models'.
``--frontier`` adds, in sample, the best recall any cut reaches at the strict precision target:
for the shipped score, and for a logistic regression of every measurement fitted on the labels.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from toolex.judges import operating_points as op
from toolex.judges.base import DecomposeTask, ToolDoc
from toolex.judges.embedding import DEFAULT_EMBEDDING, checked, model_of
from toolex.judges.evidence import MEASUREMENTS
from toolex.judges.heuristic import HeuristicJudge
from toolex.store import Store

LABELS = Path(__file__).resolve().parents[1] / "toolex" / "data" / "labels"
QRELS_SQL = "expansions/02_qrels_of_benchmark.sql"


@dataclass
class Row:
    label: dict
    part: str
    weight: float
    judged: bool  # a candidate the verifier sees (ranks up to the depth), not a rank past it
    score: float
    veto: bool
    yes: bool
    measured: tuple[float, ...] = ()  # every measurement of the evidence (--frontier)


def weight_of(stratum: dict) -> float:
    """How many candidates of the pipeline's population a label stands for."""
    if stratum.get("population") and stratum.get("drawn"):
        return float(stratum["population"]) / float(stratum["drawn"])
    return 1.0


def load(
    db: str, paths: Sequence[Path], subqueries: str, embedding: str = DEFAULT_EMBEDDING
) -> list[Row]:
    labels = [json.loads(line) for p in paths for line in p.read_text().splitlines() if line]
    store = Store.open(db, read_only=True)
    rows: list[Row] = []
    for bench in sorted({lab["benchmark"] for lab in labels}):
        judge = HeuristicJudge(store, benchmark=bench, embedding=embedding)
        reader = judge.reader()
        docs: dict[str, ToolDoc] = {t.item_id: t for t in judge.library()}
        queries = {
            q["query_id"]: q
            for q in store.rows("retrieval/071_query_texts.sql", {"benchmark": bench})
        }
        combos: dict[str, list[tuple[int, str]]] = defaultdict(list)
        for q in store.rows(QRELS_SQL, {"benchmark": bench}):
            combos[q["query_id"]].append((q["slot"], q["item_id"]))
        mine = [lab for lab in labels if lab["benchmark"] == bench]
        made: dict[tuple[str, str], str] = {}
        if subqueries == "decomposer":
            tasks = [
                DecomposeTask(
                    qid,
                    queries[qid]["text"],
                    queries[qid]["instruction"],
                    tuple(docs[i] for _, i in sorted(combos[qid])),
                )
                for qid in sorted({lab["query_id"] for lab in mine})
            ]
            for outcome in judge.decompose(tasks):
                for sub in outcome.value:
                    made[(outcome.key, sub.item_id)] = sub.text
        for lab in mine:
            sub = made.get((lab["query_id"], lab["reference"])) or lab.get("subquery") or ""
            request = queries[lab["query_id"]]["text"]
            e = reader.read(sub, docs[lab["candidate"]], docs[lab["reference"]], request)
            stratum = lab.get("stratum") or {}
            rows.append(
                Row(
                    lab,
                    op.part_of(bench, lab["query_id"]),
                    weight_of(stratum),
                    stratum.get("part") != "unjudged",
                    op.score(e),
                    bool(e.vetoes),
                    lab["label"] == "yes",
                    tuple(e.named(MEASUREMENTS).values()),
                )
            )
    return rows


def _arrays(rows: Sequence[Row]) -> tuple[np.ndarray, ...]:
    return (
        np.array([r.score for r in rows]),
        np.array([r.yes for r in rows]),
        np.array([r.weight for r in rows]),
        np.array([r.veto for r in rows]),
    )


def strict_threshold(rows: Sequence[Row], target: float) -> float:
    """The loosest score down to which every accepted set (no veto, score >= t, at least 10
    labels) keeps weighted precision >= target; inf when none does. Lowering the cut stops at
    the first set below the target: a looser cut that climbs back over it by chance (a few
    heavy labels) is not taken, since held out it would not."""
    s, y, w, veto = _arrays([r for r in rows if r.judged])
    best = math.inf
    for t in np.unique(s[~veto])[::-1]:
        acc = (~veto) & (s >= t)
        if acc.sum() < 10:
            continue
        if (w * (acc & y)).sum() / (w * acc).sum() < target:
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


def wilson(p: float, n: float, z: float = 1.96) -> tuple[float, float]:
    if n <= 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def _share(decide: np.ndarray, w: np.ndarray, hit: np.ndarray) -> tuple[float | None, float]:
    """Weighted share of ``hit`` within ``decide``, and the effective number of labels."""
    ww = w[decide]
    if not len(ww) or ww.sum() == 0:
        return None, 0.0
    return float((ww * hit[decide]).sum() / ww.sum()), float(ww.sum() ** 2 / (ww**2).sum())


def figures(rows: Sequence[Row], accept: np.ndarray, keep: np.ndarray) -> dict[str, dict]:
    """The strict judge's and the screen's figures on ``rows`` (judged candidates)."""
    judged = np.array([r.judged for r in rows])
    _, y, w, _ = _arrays(rows)
    y, w, accept, keep = y[judged], w[judged], accept[judged], keep[judged]
    p, n_p = _share(accept, w, y)
    r, n_r = _share(y, w, accept)
    kept, n_k = _share(y, w, keep)
    strict = {
        "labels": int(len(y)),
        "yes": int(y.sum()),
        "accepted_labels": int(accept.sum()),
        "precision": p,
        "precision_ci": wilson(p, n_p) if p is not None else None,
        "recall": r,
        "recall_ci": wilson(r, n_r) if r is not None else None,
    }
    screen = {
        "labels": int(len(y)),
        "yes": int(y.sum()),
        "accepted_labels": int(keep.sum()),
        "recall": kept,
        "recall_ci": wilson(kept, n_k) if kept is not None else None,
        "discarded": float(1 - (w * keep).sum() / w.sum()) if w.sum() else None,
    }
    return {"heuristic": strict, "heuristic:prescreen": screen}


def held_out(rows: list[Row], strict_target: float, screen_target: float) -> dict:
    measured = [r for r in rows if r.label.get("source") in op.LABELS_FITTED_ON]
    parts = sorted({r.part for r in measured})
    accept = np.zeros(len(measured), bool)
    keep = np.zeros(len(measured), bool)
    chosen = {}
    for part in parts:
        train = [r for r in measured if r.part != part]
        t_strict = strict_threshold(train, strict_target)
        t_screen = screen_threshold(train, screen_target)
        chosen[part] = (t_strict, t_screen)
        for i, r in enumerate(measured):
            if r.part == part:
                accept[i] = (not r.veto) and r.score >= t_strict
                keep[i] = r.score >= t_screen

    def pooled(where: np.ndarray) -> dict[str, dict]:
        kept = [r for r, t in zip(measured, where, strict=True) if t]
        return figures(kept, accept[where], keep[where])

    out: dict = {"label_set": ",".join(op.LABELS_FITTED_ON), "parts": {}, "benchmarks": {}}
    for part in parts:
        out["parts"][part] = pooled(np.array([r.part == part for r in measured]))
        out["parts"][part]["thresholds"] = {
            "heuristic": chosen[part][0],
            "heuristic:prescreen": chosen[part][1],
        }
    for bench in sorted({r.label["benchmark"] for r in measured}):
        out["benchmarks"][bench] = pooled(
            np.array([r.label["benchmark"] == bench for r in measured])
        )
        out["benchmarks"][bench]["parts"] = sorted(
            {r.part for r in measured if r.label["benchmark"] == bench}
        )
    out["all"] = pooled(np.ones(len(measured), bool))
    return out


def calibration(rows: Sequence[Row]) -> tuple[tuple[float, float], float]:
    """(a, b) of P(yes | score) = sigmoid(a score + b), weighted, over unvetoed judged labels;
    and the weighted yes rate of the vetoed ones."""
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


def frontier(rows: Sequence[Row], target: float) -> None:
    """In sample, the best recall at ``target`` precision: the shipped score with its vetoes, and
    a weighted logistic regression of every measurement and the veto, fitted on the very labels
    it is scored on (in sample, so favourable to it)."""
    judged = [r for r in rows if r.judged and r.label.get("source") in op.LABELS_FITTED_ON]
    y = np.array([r.yes for r in judged])
    w = np.array([r.weight for r in judged])
    shipped = np.array([-np.inf if r.veto else r.score for r in judged])
    x = np.array([[*r.measured, float(r.veto)] for r in judged])
    x = np.c_[(x - x.mean(0)) / (x.std(0) + 1e-9), np.ones(len(x))]
    beta = np.zeros(x.shape[1])
    for _ in range(5000):
        p = 1 / (1 + np.exp(-x @ beta))
        beta -= x.T @ (w * (p - y)) / w.sum() + 1e-3 * beta
    print(
        f"\nin sample, best recall at precision >= {target}: shipped score "
        f"{best_recall(shipped, y, w, target):.3f}; logistic of all {x.shape[1] - 1} "
        f"measurements {best_recall(x @ beta, y, w, target):.3f} (of {len(y)} judged labels)"
    )


def show(name: str, figs: dict) -> None:
    for part, f in figs.items():
        s, sc = f["heuristic"], f["heuristic:prescreen"]
        rci = s["recall_ci"] or (0, 1)
        kci = sc["recall_ci"] or (0, 1)

        def pct(v: float | None) -> str:
            return "-" if v is None else f"{v:.3f}"

        ci = s["precision_ci"] or (0, 1)
        print(
            f"{name} {part:<20} labels {s['labels']:4d} yes {s['yes']:3d} | strict: "
            f"P {pct(s['precision'])} "
            f"[{ci[0]:.2f}, {ci[1]:.2f}] R {pct(s['recall'])} [{rci[0]:.2f}, {rci[1]:.2f}] "
            f"({s['accepted_labels']} accepted) | screen: R {pct(sc['recall'])} "
            f"[{kci[0]:.2f}, {kci[1]:.2f}] discards {pct(sc['discarded'])}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--labels", type=Path, nargs="*", default=sorted(LABELS.glob("*.jsonl")))
    ap.add_argument("--subqueries", choices=("decomposer", "labels"), default="decomposer")
    # 0.90 in training so that held out, on parts the cut never saw, precision lands near the
    # issue's 0.85: at 0.85 the cuts chosen on the other parts ran looser than those parts bear
    # (pooled held-out precision 0.835, StableToolBench 0.746), a choice made on these figures,
    # which is why a fresh labelled sample checks it (docs/judges.md).
    ap.add_argument("--strict-target", type=float, default=0.90)
    ap.add_argument("--screen-target", type=float, default=0.985)
    ap.add_argument(
        "--frontier-precision", type=float, default=0.85, help="the precision --frontier holds"
    )
    ap.add_argument(
        "--embedding",
        default=DEFAULT_EMBEDDING,
        help="the embedding model the judge reads with (wordllama, fastembed:<model>@<folder>)",
    )
    ap.add_argument("--write", action="store_true", help="write the held-out figures as JSON")
    ap.add_argument(
        "--frontier", action="store_true", help="also print the in-sample precision-recall bound"
    )
    args = ap.parse_args()
    spec = checked(args.embedding, field="--embedding")
    model = model_of(spec)
    rows = load(args.db, args.labels, args.subqueries, spec)
    figs = held_out(rows, args.strict_target, args.screen_target)
    print(
        f"held out by part, sub-queries from the {args.subqueries}, embedding {model} "
        "(thresholds fitted on the other parts):"
    )
    show("part", figs["parts"])
    show("benchmark", figs["benchmarks"])
    show("pooled", {"all": figs["all"]})
    measured = [r for r in rows if r.label.get("source") in op.LABELS_FITTED_ON]
    if args.frontier:
        frontier(measured, args.frontier_precision)
    cal, vetoed = calibration(measured)
    strict = round(strict_threshold(measured, args.strict_target), 4)
    screen = round(screen_threshold(measured, args.screen_target), 4)
    print("\nchosen on every part (paste into FITTED of toolex/judges/operating_points.py):")
    print(f"{model!r}: OperatingPoint({strict}, {screen}, {cal}, {vetoed}),")
    if args.write:
        out = LABELS / "held_out.json"
        every = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
        every[model] = figs  # the other embeddings' figures stay as they were
        out.write_text(json.dumps(every, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {model}'s figures to {out}")


if __name__ == "__main__":
    main()
