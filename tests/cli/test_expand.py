"""`toolex expand` and `toolex stats` on the hand-made benchmark, through the real BM25."""

from __future__ import annotations

import json
from pathlib import Path

from click import Command
from click.testing import CliRunner, Result
from pipeline.fixtures import build

from toolex.cli.expand import expand
from toolex.cli.stats import stats
from toolex.errors import NotFoundError
from toolex.llm.usage import uncalled
from toolex.store import Store


def make_db(tmp_path: Path) -> str:
    db = str(tmp_path / "e.duckdb")
    store = Store.open(db)
    build(store)
    store.close()
    return db


def run(cmd: Command, args: list[str]) -> Result:
    result = CliRunner().invoke(cmd, args)
    return result


def test_dry_run_then_expand_then_stats(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    dry = run(expand, ["--db", db, "--benchmark", "b", "--dry-run", "--format", "json"])
    assert dry.exit_code == 0, dry.output
    rows = json.loads(dry.stdout)
    assert [(r["stage"], r["tasks_now"], r["calls_now"], r["cost_usd_at_most"]) for r in rows] == [
        ("decompose", 2, 0, 0.0),
        ("candidates", 0, 0, 0.0),
        ("verify", 0, 0, 0.0),
        ("assemble", 2, 0, 0.0),
        ("audit", 0, 0, 0.0),
        ("total", 4, 0, 0.0),  # the total estimated cost, over every stage
    ]
    assert rows[2]["tasks_later_at_most"] == 3 * 20  # three labels, K = 20

    done = run(expand, ["--db", db, "--benchmark", "b", "--format", "json"])
    assert done.exit_code == 0, done.output
    stages = {r["stage"]: r for r in json.loads(done.stdout)}
    assert list(stages) == ["decompose", "candidates", "verify", "assemble", "audit"]
    assert stages["decompose"]["ok"] == 2 and stages["candidates"]["ok"] == 3

    table = run(stats, ["--db", db, "--benchmark", "b", "--by", "category", "--format", "json"])
    assert table.exit_code == 0, table.output
    rows = json.loads(table.stdout)
    assert [r["category"] for r in rows] == ["all", "G1"]
    assert rows[0]["queries"] == 2 and rows[0]["subqueries"] == 3


def test_one_stage_and_subsets(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    out = run(
        expand,
        [
            "--db",
            db,
            "--benchmark",
            "b",
            "--stage",
            "decompose",
            "--queries",
            "q2",
            "--format",
            "json",
        ],
    )
    assert out.exit_code == 0, out.output
    assert [(r["stage"], r["ok"]) for r in json.loads(out.stdout)] == [("decompose", 1)]


def test_unknown_benchmark_is_a_clear_error(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    out = run(expand, ["--db", db, "--benchmark", "nope"])
    assert isinstance(out.exception, NotFoundError)
    assert "no benchmark named 'nope'" in str(out.exception)


def test_a_rerun_with_other_settings_is_refused_unless_replaced(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    assert run(expand, ["--db", db, "--benchmark", "b"]).exit_code == 0
    refused = run(expand, ["--db", db, "--benchmark", "b", "--depth", "5", "--audit-cap", "1"])
    assert refused.exit_code != 0
    message = str(refused.exception)
    assert "candidates.depth: 20 -> 5" in message and "assemble.audit_cap: none -> 1" in message
    assert "--expansion NAME" in message and "--replace" in message
    dry = run(expand, ["--db", db, "--benchmark", "b", "--depth", "5", "--dry-run"])
    assert dry.exit_code != 0 and "candidates.depth" in str(dry.exception)
    done = run(
        expand, ["--db", db, "--benchmark", "b", "--depth", "5", "--audit-cap", "1", "--replace"]
    )
    assert done.exit_code == 0, done.output
    store = Store.open(db, read_only=True)
    [(config_text,)] = store.con.execute("SELECT config FROM expansions").fetchall()
    config = json.loads(config_text)
    store.close()
    assert (config["depth"], config["audit_cap"]) == (5, 1)


def test_stats_adds_up_and_says_what_it_could_not_check(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    assert run(expand, ["--db", db, "--benchmark", "b", "--audit-cap", "1"]).exit_code == 0
    out = run(stats, ["--db", db, "--benchmark", "b", "--format", "json"])
    assert out.exit_code == 0, out.output
    row = json.loads(out.stdout)[0]  # the "all" row comes first, then one per category
    fates = ("valid_combos", "rejected_platform", "rejected_audit", "cut", "pending")
    assert row["cut"] > 0 and row["assembled"] == sum(row[k] for k in fates)
    assert "items with a platform" in out.stderr
    edges = run(stats, ["--db", db, "--benchmark", "b", "--edges", "--format", "json"])
    assert edges.exit_code == 0 and json.loads(edges.stdout) == []
    # cut combinations are never stored: the ledger's "no call made" count still has them
    with Store.open(db, read_only=True) as store:
        decided = {(r.stage, r.decided_by): r.tasks for r in uncalled(store)}
    assert decided[("audit", "audit_cap")] == row["cut"]
