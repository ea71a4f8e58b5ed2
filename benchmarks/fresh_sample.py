"""Precision of the offline verifier's accepted equivalents on a fresh, blind-labelled sample.

    python benchmarks/fresh_sample.py [docs/labels/fresh/round2 ...] [--write]

Each round folder (docs/labels/fresh/README.md says how it was drawn) holds ``items.jsonl`` (the
items of a `toolex review sample --level verdict` drawn from a new expansion of each shared
benchmark, with their part: accepted, rejected), ``passA.jsonl`` and ``passB.jsonl`` (two blind
passes) and ``adjudication.jsonl`` (the label of every item the passes disagreed on). The final
label of an item is the passes' when they agree, else the adjudicator's; this script rebuilds it
(and checks ``labels.jsonl`` against it), then prints per benchmark:

- accepted: the labelled accepted verdicts, the yes among them, precision with a 95% Wilson
  interval; and the same on the items no earlier label set holds (the shipped sets and earlier
  rounds: those are the truly unseen ones);
- rejected: the labelled rejected verdicts and the equivalents among them (what the judge
  missed, a recall-side check);
- agreement of the two passes (Cohen's kappa on yes/no).

``--write`` keeps the last round's accepted precision per benchmark in
toolex/data/labels/fresh_checks.json (keyed by the embedding the verdicts were made with: every
round so far is WordLlama's), which the trust lines print beside the held-out figures.
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRESH = ROOT / "docs" / "labels" / "fresh"
SHIPPED = sorted((ROOT / "toolex" / "data" / "labels").glob("*.jsonl"))


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
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


def report(folder: Path) -> dict[str, dict]:
    labels = final_labels(folder)
    shipped = {
        (r["query_id"], r["reference"], r["candidate"]): r["label"]
        for r in read(folder / "labels.jsonl")
    }
    items = read(folder / "items.jsonl")
    seen = seen_before(folder)
    rows: dict[tuple[str, str], list[tuple[bool, bool]]] = defaultdict(list)
    for it in items:
        key = (it["query_id"], it["reference"], it["candidate"])
        if shipped.get(key) != labels[it["item"]]:
            raise SystemExit(f"{folder}: labels.jsonl disagrees with the passes on {it['item']}")
        rows[(it["benchmark"], it["part"])].append((labels[it["item"]] == "yes", key in seen))
    checks = {}
    for (bench, part), got in sorted(rows.items()):
        yes = sum(y for y, _ in got)
        lo, hi = wilson(yes, len(got))
        if part == "accepted":
            checks[bench] = {
                "round": folder.name,
                "accepted": len(got),
                "precision": yes / len(got),
                "precision_ci": [lo, hi],
            }
        share = f"{yes / len(got):.3f} [{lo:.2f}, {hi:.2f}]"
        line = f"  {bench:16} {part:9} labelled {len(got):3}  yes {yes:3}  share {share}"
        if part == "accepted":
            unseen = [y for y, s in got if not s]
            k = sum(unseen)
            ulo, uhi = wilson(k, len(unseen))
            rate = f"{k / max(1, len(unseen)):.3f} [{ulo:.2f}, {uhi:.2f}]"
            line += f"  | never labelled before: {k}/{len(unseen)} {rate}"
        print(line)
    return checks


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--write"]
    folders = [Path(a) for a in args] or sorted(FRESH.glob("round*"))
    checks = {}
    for folder in folders:
        checks = report(folder)  # the last round's stand
    if "--write" in sys.argv:
        out = ROOT / "toolex" / "data" / "labels" / "fresh_checks.json"
        out.write_text(json.dumps({"wordllama": checks}, indent=1, sort_keys=True) + "\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
