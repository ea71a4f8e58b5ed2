"""The offline verifier's figures held out by library, as the pipeline runs it, and its cut.

    python benchmarks/fit_offline_judge.py --db STORE [--write] [--embedding SPEC]
        [--subqueries decomposer|labels] [--frontier]

STORE holds the benchmarks the labels come from (``toolex load toolret ../shared/data/toolret``,
``toolex load stabletoolbench ../shared/data/stabletoolbench``). For every label of the shipped
set drawn from the pipeline's own candidate lists (``toolex-pipeline-v2``; docs/labels/README.md)
it reads the evidence (toolex/judges/evidence.py, the six points of toolex/judges/checks.py) with
the sub-query the offline decomposer writes for that step, as an expansion does
(``--subqueries labels``: the label's own sub-query, a diagnostic).

**Leave one library out** is the headline. The five labelled libraries are the four ToolRet
tasks (apibank, apigen, gorilla-huggingface, toolink) and StableToolBench. The rules of the six
points have no tunable number: they are read off the method (operation classes, parameters,
documented outputs, platforms), never fitted. What is fitted is the score's cut: for each
library it is chosen on the other four only (``judge_figures.CutRule``: the loosest score down to
which, once 20 labels are accepted there, precision stays >= 0.95 with its Wilson lower bound >=
0.80; the margin over the 0.90 goal because held-out precision ran 0.05-0.10 below in-sample in
the last two fresh rounds), and the library is judged by it. Figures per library and pooled
(each label weighted by its stratum, Wilson intervals at the effective n), recall beside
precision. The part-held-out figures of the last round (G1, G2, G3 and the four tasks) stay as a
named diagnostic; so do the classes of right answers the rules keep (the same endpoint under two
provider names, one provider-neutral fact from two providers, unit variants), counted over every
labelled yes (the shipped set and the fresh rounds).

``--write`` keeps the figures in toolex/data/labels/held_out.json under the embedding model
(never its folder), with the date, the commit and the machine's load, which the trust lines and
docs/judges.md read. The operating point printed last (the cut chosen on all five libraries,
the screen's cut, the calibration) goes into ``FITTED`` of toolex/judges/operating_points.py.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import subprocess
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict

import numpy as np
from judge_figures import (
    CutRule,
    Figures,
    Row,
    best_recall,
    calibration,
    held_out,
    weight_of,
)
from judge_figures import screen_threshold as screen_cut

from toolex.judges import checks
from toolex.judges import operating_points as op
from toolex.judges.base import DecomposeTask, ToolDoc
from toolex.judges.embedding import DEFAULT_EMBEDDING, checked, model_of
from toolex.judges.evidence import MEASUREMENTS
from toolex.judges.heuristic import HeuristicJudge
from toolex.judges.platform import catalogue_bound, same_endpoint
from toolex.judges.tool_facts import provider
from toolex.store import Store

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "toolex" / "data" / "labels"
FRESH = ROOT / "docs" / "labels" / "fresh"
QRELS_SQL = "expansions/02_qrels_of_benchmark.sql"
RULE = CutRule(target=0.95, floor=0.80, min_accepted=20)
SCREEN_TARGET = 0.985  # the share of equivalents the pre-screen keeps on the other libraries
_UNITS = re.compile(
    r"\b(km|kms|kilomet\w*|miles?|celsius|fahrenheit|kelvin|kg|lbs?|pounds?|m/s|km/h|mph|"
    r"units?|imperial|metric)\b",
    re.IGNORECASE,
)


def library_of(label: dict[str, Any]) -> str:
    """The library a label is held out with: a ToolRet task, or StableToolBench whole."""
    if label["benchmark"] == "stabletoolbench":
        return "stabletoolbench"
    return op.part_of(label["benchmark"], label["query_id"])


def read_labels() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The shipped pipeline labels, and the fresh rounds' labels (for the classes kept): JSON
    lines as docs/labels/README.md describes them."""
    shipped = [
        json.loads(line) for line in (LABELS / "pipeline-v2.jsonl").read_text().splitlines() if line
    ]
    fresh: list[dict[str, Any]] = []
    for folder in sorted(FRESH.glob("round*")):
        path = folder / "labels.jsonl"
        if path.exists():
            fresh += [json.loads(line) for line in path.read_text().splitlines() if line]
    return shipped, fresh


def load(db: str, labels: list[dict[str, Any]], subqueries: str, embedding: str) -> list[Row]:
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
                assert isinstance(outcome.value, list), outcome.error  # the heuristic never fails
                for step in outcome.value:
                    made[(outcome.key, step.item_id)] = step.text
        for lab in mine:
            sub = made.get((lab["query_id"], lab["reference"])) or lab.get("subquery") or ""
            request = queries[lab["query_id"]]["text"]
            cand, ref = docs[lab["candidate"]], docs[lab["reference"]]
            e = reader.read(sub, cand, ref, request)
            every = checks.findings(sub, cand, ref, request, every=True)
            stratum = lab.get("stratum") or {}
            row = Row(
                lab,
                library_of(lab),
                op.part_of(bench, lab["query_id"]),
                weight_of(stratum),
                stratum.get("part") != "unjudged",
                op.score(e),
                tuple(f.point for f in every),
                lab["label"] == "yes",
                tuple(e.named(MEASUREMENTS).values()),
            )
            row.label = {**lab, "_cand": cand, "_ref": ref}
            rows.append(row)
    return rows


class LibrariesOut(TypedDict):
    """Each library held out, each benchmark and all labels pooled (held_out.json)."""

    libraries: dict[str, Figures]
    all: Figures
    benchmarks: dict[str, Figures]


class PartsOut(TypedDict):
    """Each benchmark part held out, and all labels pooled (held_out.json's by_part)."""

    parts: dict[str, Figures]
    all: Figures


def lolo(rows: Sequence[Row]) -> LibrariesOut:
    """Every library judged by cuts chosen on the other four; per library, per benchmark (each
    of its libraries judged so) and pooled."""
    benchmarks = sorted({r.label["benchmark"] for r in rows})
    pools: dict[str, Callable[[Row], bool]] = {"all": lambda r: True}
    pools.update({b: (lambda r, b=b: r.label["benchmark"] == b) for b in benchmarks})
    found = held_out(rows, lambda r: r.library, RULE, SCREEN_TARGET, pools)
    out: LibrariesOut = {
        "libraries": found["groups"],
        "all": found["pools"]["all"],
        "benchmarks": {},
    }
    for b in benchmarks:
        out["benchmarks"][b] = found["pools"][b]
        out["benchmarks"][b]["libraries"] = sorted(
            {r.library for r in rows if r.label["benchmark"] == b}
        )
    return out


def by_part(rows: Sequence[Row]) -> PartsOut:
    """The diagnostic of the last round: every benchmark part held out, cut the same way."""
    found = held_out(rows, lambda r: r.part, RULE, SCREEN_TARGET, {"all": lambda r: True})
    return {"parts": found["groups"], "all": found["pools"]["all"]}


def kept_classes(rows: Sequence[Row], cut: float) -> dict[str, dict[str, int]]:
    """Of the labelled right answers of each class the issue names, how many fail no point (the
    rules keep them) and how many the verifier accepts (the cut too)."""
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        if not r.yes or not r.judged:
            continue
        cand, ref = r.label["_cand"], r.label["_ref"]
        classes = []
        if provider(cand) and provider(ref) and provider(cand) != provider(ref):
            if same_endpoint(cand, ref) or (cand.name or "").lower() == (ref.name or "").lower():
                classes.append("same endpoint, two provider names")
            elif not catalogue_bound(ref):
                classes.append("one provider-neutral fact, two providers")
        if _UNITS.search(r.label.get("note") or ""):
            classes.append("unit variants (km / miles, ...)")
        for name in classes:
            c = out.setdefault(name, {"labels": 0, "kept": 0, "accepted": 0})
            c["labels"] += 1
            c["kept"] += not r.veto
            c["accepted"] += (not r.veto) and r.score >= cut
    return out


def frontier(rows: Sequence[Row]) -> None:
    """In sample, the best recall at precision 0.95: the shipped score with its points, and a
    weighted logistic regression of every measurement and the points' verdict, fitted on the
    very labels it is scored on (in sample, so favourable to it)."""
    judged = [r for r in rows if r.judged]
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
        f"\nin sample, best recall at precision >= {RULE.target}: shipped "
        f"{best_recall(shipped, y, w, RULE.target):.3f}; logistic of all {x.shape[1] - 1} "
        f"measurements {best_recall(x @ beta, y, w, RULE.target):.3f} ({len(y)} judged labels)"
    )


def show(kind: str, figs: Mapping[str, Figures]) -> None:
    def num(v: float | None) -> str:
        return "-" if v is None else f"{v:.3f}"

    for name, f in figs.items():
        s, sc = f["heuristic"], f["heuristic:prescreen"]
        ci, rci = s["precision_ci"] or (0, 1), s["recall_ci"] or (0, 1)
        cut = f.get("thresholds", {}).get("heuristic")
        print(
            f"{kind:9} {name:20} labels {s['labels']:4d} yes {s['yes']:3d} | accepted "
            f"{s['accepted_labels']:3d}: P {num(s['precision'])} [{ci[0]:.2f}, {ci[1]:.2f}] "
            f"n_eff {s['effective_n']:5.1f} R {num(s['recall'])} [{rci[0]:.2f}, {rci[1]:.2f}]"
            + (f" cut {cut:.3f}" if cut is not None else "")
            + f" | screen keeps {num(sc['recall'])}, discards {num(sc['discarded'])}"
        )


def provenance() -> dict[str, str]:
    """When, at which commit and under what load the figures were measured."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    load = os.getloadavg()[0]
    return {
        "date": dt.date.today().isoformat(),
        "commit": commit,
        "load": f"{load:.1f} on {os.cpu_count()} cores",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--subqueries", choices=("decomposer", "labels"), default="decomposer")
    ap.add_argument(
        "--embedding",
        default=DEFAULT_EMBEDDING,
        help="the embedding model the judge reads with (wordllama, fastembed:<model>@<folder>)",
    )
    ap.add_argument("--write", action="store_true", help="write the figures to held_out.json")
    ap.add_argument("--frontier", action="store_true", help="also the in-sample recall bound")
    args = ap.parse_args()
    spec = checked(args.embedding, field="--embedding")
    model = model_of(spec)
    shipped, fresh = read_labels()
    rows = load(args.db, shipped + fresh, args.subqueries, spec)
    measured = [r for r in rows if r.label.get("source") in op.LABELS_FITTED_ON]
    figs = lolo(measured)
    print(
        f"leave one library out (the headline), sub-queries from the {args.subqueries}, "
        f"embedding {model}; each library's cut chosen on the other four:"
    )
    show("library", figs["libraries"])
    show("benchmark", figs["benchmarks"])
    show("pooled", {"all": figs["all"]})
    parts = by_part(measured)
    print("\ndiagnostic: each benchmark part held out, cut on the other parts")
    show("part", parts["parts"])
    show("pooled", {"all": parts["all"]})
    cal, vetoed = calibration(measured)
    strict = round(RULE.choose(measured), 4)
    screen = round(screen_cut(measured, SCREEN_TARGET), 4)
    print("\nright answers of the classes the issue names, over every labelled yes:")
    for name, c in kept_classes(rows, strict).items():
        print(
            f"  {name:42} {c['labels']:3d} labelled: the rules keep {c['kept']:3d}, "
            f"the verifier accepts {c['accepted']:3d}"
        )
    judged = [r for r in measured if r.judged]
    failed: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in judged:
        for point in r.failed:
            failed[point][r.yes] += 1
    print("\npoints failed by the judged labels (yes / no):")
    for point in checks.POINTS:
        print(f"  {point:12} {failed[point][1]:4d} / {failed[point][0]:4d}")
    if args.frontier:
        frontier(measured)
    print("\nchosen on all five libraries (FITTED of toolex/judges/operating_points.py):")
    print(f"{model!r}: OperatingPoint({strict}, {screen}, {cal}, {vetoed}),")
    if args.write:
        out = LABELS / "held_out.json"
        every = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
        every[model] = {
            "label_set": ",".join(op.LABELS_FITTED_ON),
            "rules": op.RULES_VERSION,
            "measured": provenance(),
            "cut_rule": {
                "target": RULE.target,
                "floor": RULE.floor,
                "min_accepted": RULE.min_accepted,
            },
            **figs,
            "by_part": parts,
        }
        out.write_text(json.dumps(every, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {model}'s figures to {out}")


if __name__ == "__main__":
    main()
