"""Fit and cross-validate the offline verifier's operating points on the shipped verdict labels.

    python benchmarks/fit_offline_judge.py --db pool.duckdb

The store holds the benchmarks the labels come from (``toolex load toolret ../shared/data/toolret``
and ``toolex load stabletoolbench ../shared/data/stabletoolbench``). For every labelled verdict it
reads the evidence (toolex/judges/evidence.py) with the gold sub-query, then:

1. fits a logistic regression of the label on the evidence features (standardised, L2);
2. estimates, by grouped 5-fold cross-validation (a reference's verdicts stay in one fold), the
   precision and recall of the two operating points, each threshold chosen INSIDE the training
   folds (nested), so the figures are out-of-sample:
   - ``strict``: no veto and score >= the lowest threshold whose precision on the training folds'
     own cross-validated scores is >= 0.90 (aiming at >= 0.85 out of sample);
   - ``prescreen``: score >= the highest threshold that keeps >= 0.985 of training equivalents
     (aiming at >= 0.97), vetoes ignored (it never accepts on its own);
3. repeats the estimate leaving one benchmark part out at a time (the held-back-vocabulary check);
4. prints the weights and thresholds fitted on all labels, to paste into
   ``toolex/judges/operating_points.py``.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path

import numpy as np

from toolex.judges.base import ToolDoc
from toolex.judges.evidence import FEATURES, EvidenceReader, library_idf
from toolex.store import Store

LABELS = Path(__file__).resolve().parents[1] / "toolex" / "data" / "labels" / "verdicts.jsonl"
STRICT_TRAIN_PRECISION = 0.90
PRESCREEN_TRAIN_RECALL = 0.985
L2 = 1.0


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    for _ in range(4000):  # plain gradient descent: 7 weights, 1k rows
        p = 1 / (1 + np.exp(-z @ w))
        g = z.T @ (p - y) / len(y) + L2 * np.r_[w[:-1], 0] / len(y)
        w -= 0.5 * g
    return mu, sd, w


def score(model: tuple[np.ndarray, np.ndarray, np.ndarray], x: np.ndarray) -> np.ndarray:
    mu, sd, w = model
    z = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
    return 1 / (1 + np.exp(-z @ w))


def cv_scores(x: np.ndarray, y: np.ndarray, folds: np.ndarray) -> np.ndarray:
    s = np.zeros(len(y))
    for f in np.unique(folds):
        test = folds == f
        s[test] = score(fit(x[~test], y[~test]), x[test])
    return s


def strict_threshold(
    s: np.ndarray, y: np.ndarray, veto: np.ndarray, target: float = STRICT_TRAIN_PRECISION
) -> float:
    """Lowest threshold whose accepted set (no veto, score >= t) has precision >= target."""
    cand = np.sort(np.unique(s[~veto]))[::-1]
    best = 1.01
    for t in cand:
        acc = (~veto) & (s >= t)
        if acc.sum() >= 5 and y[acc].mean() >= target:
            best = t
    return float(best)


def prescreen_threshold(s: np.ndarray, y: np.ndarray) -> float:
    pos = np.sort(s[y == 1])
    k = int(math.floor((1 - PRESCREEN_TRAIN_RECALL) * len(pos)))
    return float(pos[k]) if len(pos) else 0.0


def inner_folds(groups: np.ndarray, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ug = rng.permutation(np.unique(groups))
    of = {g: i % n for i, g in enumerate(ug)}
    return np.array([of[g] for g in groups])


def nested(x, y, veto, groups, outer, target=STRICT_TRAIN_PRECISION):
    """Out-of-sample decisions: thresholds are chosen inside each training part."""
    strict = np.zeros(len(y), bool)
    keep = np.zeros(len(y), bool)
    for f in np.unique(outer):
        test = outer == f
        tr = ~test
        inner = inner_folds(groups[tr], 5, 1)
        s_tr = cv_scores(x[tr], y[tr], inner)
        t_strict = strict_threshold(s_tr, y[tr], veto[tr], target)
        t_pre = prescreen_threshold(s_tr, y[tr])
        s_te = score(fit(x[tr], y[tr]), x[test])
        strict[test] = (~veto[test]) & (s_te >= t_strict)
        keep[test] = s_te >= t_pre
    return strict, keep


def report(tag: str, y: np.ndarray, strict: np.ndarray, keep: np.ndarray) -> dict:
    tp = int((strict & (y == 1)).sum())
    acc = int(strict.sum())
    pos = int(y.sum())
    lo, hi = wilson(tp, acc)
    kept_pos = int((keep & (y == 1)).sum())
    out = {
        "strict_precision": tp / acc if acc else float("nan"),
        "strict_precision_ci": (lo, hi),
        "strict_recall": tp / pos if pos else float("nan"),
        "strict_accepted": acc,
        "prescreen_recall": kept_pos / pos if pos else float("nan"),
        "prescreen_recall_ci": wilson(kept_pos, pos),
        "prescreen_discarded": 1 - keep.mean(),
    }
    print(
        f"{tag:<14} strict P {out['strict_precision']:.3f} [{lo:.2f}, {hi:.2f}] "
        f"R {out['strict_recall']:.3f} ({tp}/{acc} accepted, {pos} equivalents) | "
        f"prescreen R {out['prescreen_recall']:.3f} [{out['prescreen_recall_ci'][0]:.2f}, "
        f"{out['prescreen_recall_ci'][1]:.2f}] discards {out['prescreen_discarded']:.1%}"
    )
    return out


def load(db: str, labels: Path):
    from toolex.retrieval.embedders import make_embedder

    rows = [json.loads(line) for line in labels.read_text().splitlines() if line.strip()]
    store = Store.open(db, read_only=True)
    embed = make_embedder("wordllama").embed
    readers, docs, queries = {}, {}, {}
    for bench in sorted({r["benchmark"] for r in rows}):
        items = store.rows("stages/05_item_docs.sql", {"benchmark": bench})
        tools = {
            i["item_id"]: ToolDoc(
                i["item_id"], i["name"], i["platform"], json.loads(i["doc"]), i["text"]
            )
            for i in items
        }
        docs[bench] = tools
        idf, default = library_idf(tools.values())
        readers[bench] = EvidenceReader(idf, default, embed)
        queries[bench] = {
            q["query_id"]: q["text"]
            for q in store.rows("retrieval/071_query_texts.sql", {"benchmark": bench})
        }
    ev = []
    for r in rows:
        b = r["benchmark"]
        ev.append(
            readers[b].read(
                r["subquery"],
                docs[b][r["candidate"]],
                docs[b][r["reference"]],
                queries[b].get(r["query_id"]),
            )
        )
    return rows, ev


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--strict-target", type=float, default=STRICT_TRAIN_PRECISION)
    args = ap.parse_args()
    rows, ev = load(args.db, args.labels)
    x = np.array([e.vector() for e in ev])
    y = np.array([r["label"] == "yes" for r in rows], dtype=float)
    veto = np.array([bool(e.vetoes) for e in ev])
    groups = np.array([f"{r['benchmark']}|{r['query_id']}|{r['reference']}" for r in rows])
    parts = np.array([r["stratum"]["part"] for r in rows])
    print(
        f"{len(rows)} labelled verdicts, {int(y.sum())} equivalents; vetoes hit "
        f"{int((veto & (y == 1)).sum())} equivalents and {int((veto & (y == 0)).sum())} others"
    )
    strict5, keep5 = nested(x, y, veto, groups, inner_folds(groups, 5, 0), args.strict_target)
    report("5-fold", y, strict5, keep5)
    pos = y == 1
    counts = {
        name: {
            "n": len(y),
            "tp": int((d & pos).sum()),
            "fp": int((d & ~pos).sum()),
            "fn": int((~d & pos).sum()),
            "tn": int((~d & ~pos).sum()),
        }
        for name, d in (("heuristic", strict5), ("heuristic:prescreen", keep5))
    }
    by_part = {}
    for part in sorted(set(parts)):
        strict, keep = nested(x, y, veto, groups, np.where(parts == part, 0, 1), args.strict_target)
        m = parts == part
        by_part[part] = report(f"  held out {part}", y[m], strict[m], keep[m])
    # leave-one-part-out pooled: every part predicted by a model that never saw it
    strict_all = np.zeros(len(y), bool)
    keep_all = np.zeros(len(y), bool)
    for part in sorted(set(parts)):
        strict, keep = nested(x, y, veto, groups, np.where(parts == part, 0, 1), args.strict_target)
        m = parts == part
        strict_all[m], keep_all[m] = strict[m], keep[m]
    report("leave-part-out", y, strict_all, keep_all)
    model = fit(x, y)
    s_cv = cv_scores(x, y, inner_folds(groups, 5, 0))
    mu, sd, w = model
    print("\nfitted on all labels (paste into toolex/judges/operating_points.py):")
    print("MEANS =", dict(zip(FEATURES, np.round(mu, 6).tolist(), strict=True)))
    print("SCALES =", dict(zip(FEATURES, np.round(sd, 6).tolist(), strict=True)))
    print("WEIGHTS =", dict(zip(FEATURES, np.round(w[:-1], 6).tolist(), strict=True)))
    print("BIAS =", round(float(w[-1]), 6))
    print("CROSS_VALIDATED =", counts)
    print("STRICT_THRESHOLD =", round(strict_threshold(s_cv, y, veto, args.strict_target), 6))
    print("PRESCREEN_THRESHOLD =", round(prescreen_threshold(s_cv, y), 6))
    _ = defaultdict


if __name__ == "__main__":
    main()
