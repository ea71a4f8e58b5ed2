"""Issue 26.3: reviewers see the judge's rationale only when the sample was drawn with it (the
paper's protocol, `review sample --show-rationale`); the choice is recorded with the sample and
shown in the views, the sheets, the prompt and `review stats`. On the report fixture
(tests/reports/fixtures.py: every verdict's reason is "fixture", every combination's
"fixture <status>")."""

from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner
from reports.fixtures import build

from toolex.cli import cli
from toolex.review import COMBINATION, VERDICT, draw_sample, draw_verdict_sample, item_view
from toolex.review.labels import items_for
from toolex.review.levels import Level
from toolex.review.protocol import shows_rationale
from toolex.review.sheets import export_sheet
from toolex.review.views import ItemView
from toolex.store import Store


def views(store: Store, sample_id: str, level: Level) -> list[ItemView]:
    return [
        item_view(store, level, it, "reviewer1") for it in items_for(store, sample_id, "reviewer1")
    ]


def test_combinations_show_the_audit_and_the_verdicts_only_when_asked(store: Store) -> None:
    build(store)
    draw_sample(store, "blind", benchmark="toolret", size=3, seed=1)
    draw_sample(store, "open", benchmark="toolret", size=3, seed=1, show_rationale=True)
    assert not shows_rationale(store, "blind") and shows_rationale(store, "open")
    assert all(v.rationale is None for v in views(store, "blind", COMBINATION))
    shown = {v.heading.split(" · ")[0]: v.rationale for v in views(store, "open", COMBINATION)}
    # the three valid alternatives: q1 w2, q2 w5+w4 (w4 is q2's own reference), q4 c2
    assert shown == {
        "q1": "audit (heuristic): valid: fixture valid\nslot 0 w2: accepted by heuristic: fixture",
        "q2": "audit (heuristic): valid: fixture valid\nslot 0 w5: accepted by heuristic: fixture",
        "q4": "audit (heuristic): valid: fixture valid\nslot 0 c2: accepted by heuristic: fixture",
    }


def test_verdicts_show_the_judge_s_answer_or_that_there_was_none(store: Store) -> None:
    build(store)
    draw_verdict_sample(store, "v", benchmark="toolret", size=20, seed=3, beyond=0,
                        show_rationale=True)  # fmt: skip
    shown = [v.rationale for v in views(store, "v", VERDICT)]
    assert shown and all(r is not None for r in shown)
    assert {r.split(":")[0] for r in shown if r is not None} <= {"heuristic", "not judged"}
    assert "heuristic: yes: fixture" in shown and "heuristic: no: fixture" in shown


def test_sheets_and_stats_say_it(tmp_path: Path) -> None:
    db = str(tmp_path / "r.duckdb")
    with Store.open(db) as store:
        build(store)
    runner = CliRunner()
    for name, extra in (("blind", []), ("open", ["--show-rationale"])):
        res = runner.invoke(cli, ["review", "sample", name, "--db", db, "--benchmark", "toolret",
                                  "--size", "3", "--seed", "1", *extra])  # fmt: skip
        assert res.exit_code == 0, res.output
    with Store.open(db, read_only=True) as store:
        export_sheet(store, "blind", "reviewer1", tmp_path / "blind.csv")
        export_sheet(store, "open", "reviewer1", tmp_path / "open.csv")
    with open(tmp_path / "blind.csv", encoding="utf-8") as fh:
        blind = list(csv.DictReader(fh))
    with open(tmp_path / "open.csv", encoding="utf-8") as fh:
        shown = list(csv.DictReader(fh))
    assert "rationale" not in blind[0] and not any(
        "fixture" in v for r in blind for v in r.values()
    )
    assert all(r["rationale"].startswith("audit (heuristic): valid: fixture valid") for r in shown)
    stats = runner.invoke(cli, ["review", "stats", "open", "--db", db])
    assert "protocol: reviewers saw the judge's rationale" in stats.stderr
    stats = runner.invoke(cli, ["review", "stats", "blind", "--db", db])
    assert "protocol: reviewers were blind to the judge" in stats.stderr
