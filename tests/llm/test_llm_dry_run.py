"""`toolex expand --dry-run` prices verify and audit before the earlier stages ran (issue 28.5):
on a fresh expansion with an LLM judge for every stage, the calls that decompose will make
possible are priced at the average of stand-in tasks built from the ground truth, instead of
an unknown cost."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from pipeline.fixtures import build

from toolex.cli import cli
from toolex.pipeline import standins
from toolex.pipeline.stage import StageContext
from toolex.store import Store


def test_a_fresh_expansion_prices_every_stage(llm_env: dict[str, str], tmp_path: Path) -> None:
    db = str(tmp_path / "b.duckdb")
    with Store.open(db) as store:
        build(store)
    config = tmp_path / "toolex.toml"
    config.write_text(
        '[judges]\ndecompose = "openai:gpt-4o"\nverify = "openai:gpt-4o-mini"\n'
        'audit = "openai:gpt-4o"\n',
        encoding="utf-8",
    )
    args = ["expand", "--db", db, "--benchmark", "b", "--config", str(config), "--dry-run"]
    res = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = {r["stage"]: r for r in json.loads(res.stdout)}
    assert rows["verify"]["tasks_now"] == 0 and rows["verify"]["tasks_later_at_most"] == 3 * 20
    assert rows["audit"]["tasks_now"] == 0 and rows["audit"]["tasks_later_at_most"] > 0
    for stage in ("decompose", "verify", "audit"):
        assert rows[stage]["cost_usd_at_most"] > 0, rows[stage]  # was None (unknown) for two
    # at most K candidates per sub-query, each a verify prompt of about a stand-in's size
    per_call = rows["verify"]["cost_usd_at_most"] / rows["verify"]["tasks_later_at_most"]
    assert 1e-5 < per_call < 1e-3  # gpt-4o-mini: some hundreds of prompt tokens a call


def test_stand_ins_come_from_the_ground_truth_of_every_query(tmp_path: Path) -> None:
    with Store.open(tmp_path / "b.duckdb") as store:
        build(store)
        queries = standins.reference_tasks(StageContext(store, "b", "default", ["q1", "q2"]))
    assert [(q.key, [t.item_id for t in q.tools]) for q in queries] == [
        ("q1", ["wx_a::forecast", "cv::c2f"]),
        ("q2", ["st::quote"]),
    ]
    verify = standins.verify_tasks(queries)
    assert [t.key for t in verify] == ["q1/0/wx_a::forecast", "q1/1/cv::c2f", "q2/0/st::quote"]
    assert all(t.candidate == t.reference and t.subquery for t in verify)
    [audit_q1, _] = standins.audit_tasks(queries)
    assert audit_q1.tools == audit_q1.reference and len(audit_q1.subqueries) == 2
