"""Precision of the offline verifier's accepted equivalents on a fresh, blind-labelled sample.

    python benchmarks/fresh_sample.py [docs/labels/fresh/round3 ...] [--write]
    python benchmarks/fresh_sample.py --draw docs/labels/fresh/round3 --db STORE [--seed 3301]
        [--accepted 50] [--rejected 25]

**Draw** (``--draw``): from STORE, where both shared benchmarks were loaded and expanded with
the default settings of the frozen verifier (``toolex expand --benchmark stabletoolbench``,
``toolex expand --benchmark toolret``), per benchmark ``--accepted`` accepted verdicts and
``--rejected`` rejected ones as decoys, never labelled before, stratified by category x rank band
(benchmarks/fresh_round.py). It writes the labelling packet: ``items.jsonl`` (the request, the
sub-query, both tools' full documentation: no verdict, reason, score or part), and
``draw.jsonl`` (each item's part, stratum, population and drawn: never shown to labellers), and
prints the populations. The brief for the labellers is ``brief.md`` beside them.

**Figures** (the default): each round folder holds the items, ``passA.jsonl`` and
``passB.jsonl`` (two blind passes) and ``adjudication.jsonl`` (the label of every item the passes
disagreed on). The final label of an item is the passes' when they agree, else the
adjudicator's; this script rebuilds it (and checks ``labels.jsonl`` against it, or, with
``--write``, writes it when absent), then prints per benchmark:

- accepted: the labelled accepted verdicts, the yes among them, precision with a 95% Wilson
  interval, and, where the draw recorded strata, weighted by population / drawn with the
  interval at the effective n (Kish); and the same on the items no earlier label set holds;
- rejected: the labelled rejected verdicts and the equivalents among them (what the judge
  missed, a recall-side check);
- agreement of the two passes (Cohen's kappa on yes/no).

``--write`` keeps the last round's accepted precision per benchmark in
toolex/data/labels/fresh_checks.json, keyed by the embedding the verdicts were made with and
marked with the rules they were drawn from (``operating_points.RULES_VERSION`` for a round drawn
by ``--draw``): the trust lines print it beside the held-out figures only for those rules.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FRESH = ROOT / "docs" / "labels" / "fresh"
SHIPPED = sorted((ROOT / "toolex" / "data" / "labels").glob("*.jsonl"))
# The verifier the first two rounds were drawn from (score and vetoes, before the six points).
EARLIER_RULES = "score-and-vetoes"


def read(path: Path) -> list[dict[str, Any]]:
    """A .jsonl file's objects: items, draws, passes and labels (docs/labels/README.md)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def wilson(k: float, n: float, z: float = 1.96) -> tuple[float, float]:
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def kappa(a: list[str], b: list[str]) -> float:
    n = len(a)
    agree = sum(x == y for x, y in zip(a, b, strict=True)) / n
    pa, pb = a.count("yes") / n, b.count("yes") / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    return (agree - chance) / (1 - chance) if chance < 1 else 1.0


def final_labels(folder: Path) -> dict[str, str]:
    a = {r["item"]: r["label"] for r in read(folder / "passA.jsonl")}
    b = {r["item"]: r["label"] for r in read(folder / "passB.jsonl")}
    adj = {r["item"]: r["label"] for r in read(folder / "adjudication.jsonl")}
    if set(a) != set(b):
        raise SystemExit(f"{folder}: the passes label different items")
    out = {}
    for item in a:
        if a[item] not in ("yes", "no") or b[item] not in ("yes", "no"):
            raise SystemExit(f"{folder}: {item} has a label other than yes or no")
        if a[item] == b[item]:
            out[item] = a[item]
        elif item in adj:
            out[item] = adj[item]
        else:
            raise SystemExit(f"{folder}: {item} is a disagreement nobody adjudicated")
    agreed = sum(a[i] == b[i] for i in a)
    print(
        f"{folder.name}: {len(a)} items, the passes agree on the label of {agreed}, "
        f"kappa {kappa([a[i] for i in sorted(a)], [b[i] for i in sorted(a)]):.3f}, "
        f"{len(adj)} items adjudicated (their label or bucket differed)"
    )
    return out


def seen_before(folder: Path) -> set[tuple[str, str, str]]:
    """(query, reference, candidate) of every label set older than ``folder``."""
    seen = set()
    older = [p for p in SHIPPED] + [
        f / "labels.jsonl" for f in sorted(FRESH.glob("round*")) if f.name < folder.name
    ]
    for path in older:
        if path.exists():
            seen |= {(r["query_id"], r["reference"], r["candidate"]) for r in read(path)}
    return seen


def drawn_items(folder: Path) -> list[dict[str, Any]]:
    """Every item with its part (and stratum weights when the draw recorded them)."""
    record = folder / "draw.jsonl"
    return read(record) if record.exists() else read(folder / "items.jsonl")


def check_or_write(
    folder: Path, items: list[dict[str, Any]], labels: dict[str, str], write: bool
) -> None:
    """Check labels.jsonl against the passes; write it from them when absent and asked to."""
    path = folder / "labels.jsonl"
    if not path.exists():
        if not write:
            print(f"  ({path.name} absent: --write writes it from the passes)")
            return
        rows = [
            {
                "benchmark": it["benchmark"],
                "query_id": it["query_id"],
                "slot": it["slot"],
                "subquery": it["subquery"],
                "reference": it["reference"],
                "candidate": it["candidate"],
                "label": labels[it["item"]],
                "labeller": "agreed",
                "source": f"{folder.name}-{it['benchmark']}",
                "stratum": {
                    k: it[k]
                    for k in ("part", "category", "rank_band", "rank", "stratum", "population")
                    if k in it
                }
                | {"drawn": it.get("drawn"), "sample": folder.name},
            }
            for it in items
        ]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        print(f"  wrote {path}")
        return
    shipped = {(r["query_id"], r["reference"], r["candidate"]): r["label"] for r in read(path)}
    for it in items:
        key = (it["query_id"], it["reference"], it["candidate"])
        if shipped.get(key) != labels[it["item"]]:
            raise SystemExit(f"{folder}: labels.jsonl disagrees with the passes on {it['item']}")


def report(folder: Path, write: bool = False) -> dict[str, dict[str, object]]:
    labels = final_labels(folder)
    items = drawn_items(folder)
    check_or_write(folder, items, labels, write)
    seen = seen_before(folder)
    rows: dict[tuple[str, str], list[tuple[bool, bool, float]]] = defaultdict(list)
    for it in items:
        key = (it["query_id"], it["reference"], it["candidate"])
        weight = it["population"] / it["drawn"] if it.get("drawn") else 1.0
        yes = labels[it["item"]] == "yes"
        rows[(it["benchmark"], it["part"])].append((yes, key in seen, weight))
    checks: dict[str, dict[str, object]] = {}
    for (bench, part), got in sorted(rows.items()):
        n_yes = sum(y for y, _, _ in got)
        lo, hi = wilson(n_yes, len(got))
        line = (
            f"  {bench:16} {part:9} labelled {len(got):3}  yes {n_yes:3}  share "
            f"{n_yes / len(got):.3f} [{lo:.2f}, {hi:.2f}]"
        )
        if part == "accepted":
            w = [x for _, _, x in got]
            p = sum(x for y, _, x in got if y) / sum(w)
            n_eff = sum(w) ** 2 / sum(x * x for x in w)
            wlo, whi = wilson(p * n_eff, n_eff)
            checks[bench] = {
                "round": folder.name,
                "accepted": len(got),
                "precision": n_yes / len(got),
                "precision_ci": [lo, hi],
                "weighted_precision": p,
                "weighted_precision_ci": [wlo, whi],
                "effective_n": n_eff,
            }
            line += f"  | weighted by stratum {p:.3f} [{wlo:.2f}, {whi:.2f}] at n_eff {n_eff:.1f}"
            unseen = [y for y, s, _ in got if not s]
            k = sum(unseen)
            ulo, uhi = wilson(k, len(unseen))
            line += f"  | never labelled before: {k}/{len(unseen)} [{ulo:.2f}, {uhi:.2f}]"
        print(line)
    return checks


def _tag(folder: Path) -> str:
    """An item id's round tag, from the folder's name ("round4" -> "r4")."""
    digits = "".join(c for c in folder.name if c.isdigit())
    return f"r{digits}" if digits else folder.name


def draw_round(folder: Path, db: str, seed: int, accepted: int, rejected: int) -> None:
    from fresh_round import SHORT, draw, packet, population, write_jsonl

    from toolex.store import Store

    folder.mkdir(parents=True, exist_ok=True)
    seen = seen_before(folder)
    store = Store.open(db, read_only=True)
    items, record = [], []
    for benchmark in sorted(SHORT):
        rows = population(store, benchmark, seen)
        acc = [r for r in rows if r["part"] == "accepted"]
        kept = draw(rows, "accepted", accepted, seed) + draw(rows, "rejected", rejected, seed)
        print(
            f"{benchmark}: {len(acc)} accepted verdicts, {sum(r['seen'] for r in acc)} of them "
            f"labelled before; drew {sum(r['part'] == 'accepted' for r in kept)} accepted and "
            f"{sum(r['part'] == 'rejected' for r in kept)} rejected"
        )
        mine, theirs = packet(store, benchmark, kept, seed, tag=_tag(folder))
        items += mine
        record += theirs
    write_jsonl(folder / "items.jsonl", items)
    write_jsonl(folder / "draw.jsonl", record)
    print(f"wrote {folder / 'items.jsonl'} and {folder / 'draw.jsonl'} ({len(items)} items)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--draw", type=Path, help="write a new round's packet into this folder")
    ap.add_argument("--db", help="the store the round is drawn from (with --draw)")
    ap.add_argument("--seed", type=int, default=3301)
    ap.add_argument("--accepted", type=int, default=50)
    ap.add_argument("--rejected", type=int, default=25)
    args = ap.parse_args()
    if args.draw:
        if not args.db:
            raise SystemExit("--draw needs --db STORE")
        draw_round(args.draw, args.db, args.seed, args.accepted, args.rejected)
        return
    folders = args.folders or sorted(
        f for f in FRESH.glob("round*") if (f / "passA.jsonl").exists()
    )
    checks: dict[str, dict[str, object]] = {}
    for folder in folders:
        checks = report(folder, args.write)  # the last round's stand
    if args.write and checks:
        from toolex.judges.operating_points import RULES_VERSION

        last = folders[-1]
        rules = RULES_VERSION if (last / "draw.jsonl").exists() else EARLIER_RULES
        for found in checks.values():
            found["rules"] = rules
        out = ROOT / "toolex" / "data" / "labels" / "fresh_checks.json"
        # A benchmark the last round could not draw (no accepted verdict left unlabelled) keeps
        # its earlier check, with the rules it checked: the trust lines show it only while those
        # rules are the verifier's.
        earlier = json.loads(out.read_text())["wordllama"] if out.exists() else {}
        checks = {**earlier, **checks}
        out.write_text(json.dumps({"wordllama": checks}, indent=1, sort_keys=True) + "\n")
        print(f"wrote {out} (rules {rules})")


if __name__ == "__main__":
    main()
