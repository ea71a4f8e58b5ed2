"""A fresh blind round (benchmarks/fresh_sample.py): the packet carries nothing a judge said, the
draw keeps each item's stratum apart, and the round's precision is computed from two passes and
an adjudication, weighted by what each label stands for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from reports.fixtures import build

from toolex.store import Store

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "fresh_sample.py"


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def test_a_round_is_drawn_blind_and_its_precision_weighted(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    with Store.open(db) as store:
        build(store)  # toolret: six accepted verdicts, some rejected ones
    folder = tmp_path / "round9"
    out = run("--draw", str(folder), "--db", str(db), "--seed", "7", "--accepted", "3")
    assert "toolret: 6 accepted verdicts, 0 of them labelled before; drew 3 accepted" in out
    items, drawn = lines(folder / "items.jsonl"), lines(folder / "draw.jsonl")
    assert len(items) == len(drawn) and [i["item"] for i in items] == [d["item"] for d in drawn]
    for item in items:  # what a labeller reads: the request, the step, both documentations
        assert set(item) == {
            "item",
            "benchmark",
            "request",
            "instruction",
            "subquery",
            "reference",
            "candidate",
        }
        assert item["reference"]["documentation"] and item["candidate"]["documentation"]
        assert "reason" not in json.dumps(item) and "confidence" not in json.dumps(item)
    accepted = [d for d in drawn if d["part"] == "accepted"]
    assert len(accepted) == 3 and all(d["population"] >= d["drawn"] for d in accepted)
    assert sum(d["drawn"] for d in {d["stratum"]: d for d in accepted}.values()) == 3
    # two passes that disagree on one accepted item, which the adjudicator settles as no
    first, second = accepted[0]["item"], accepted[1]["item"]
    a = [{"item": d["item"], "label": "yes"} for d in drawn]
    b = [{"item": d["item"], "label": "no" if d["item"] == first else "yes"} for d in drawn]
    for name, rows in (("passA", a), ("passB", b)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    adjudicated = {"item": first, "label": "no", "bucket": "different_entity", "note": "x"}
    (folder / "adjudication.jsonl").write_text(json.dumps(adjudicated) + "\n")
    out = run(str(folder))
    assert "kappa" in out and f"{len(drawn)} items" in out
    [line] = [x for x in out.splitlines() if " accepted " in x]
    assert "labelled   3  yes   2  share 0.667" in line
    assert "weighted by stratum" in line and second  # the weights are the draw's
