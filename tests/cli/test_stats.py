"""`toolex stats --edges`: what a store without an assembly can and cannot tell."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path

from click.testing import CliRunner

from toolex.cli import cli


def write(
    path: Path, lines: list[dict[str, str]] | list[dict[str, Sequence[Collection[str]]]]
) -> str:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


def test_edges_before_the_assembly_say_why_the_pairs_read_zero(tmp_path: Path) -> None:
    """Issue 25, point 12: `stats --edges` on a store with no expansion printed
    dependent_pairs 0 without saying why."""
    items = write(
        tmp_path / "items.jsonl",
        [
            {"id": "auth", "text": "Log in and get a session token", "platform": "p"},
            {"id": "mail", "text": "Send a mail with a session token", "platform": "p"},
        ],
    )
    queries = write(
        tmp_path / "queries.jsonl",
        [{"id": "q1", "text": "log in, then mail", "dependencies": [{"from": 0, "to": 1}]}],
    )
    qrels = write(
        tmp_path / "qrels.jsonl",
        [{"query_id": "q1", "item_id": "auth"}, {"query_id": "q1", "item_id": "mail"}],
    )
    db = str(tmp_path / "s.duckdb")
    runner = CliRunner()
    load = ["load", "plain", "--db", db, "--name", "e", "--items", items, "--queries", queries]
    assert runner.invoke(cli, [*load, "--qrels", qrels]).exit_code == 0
    res = runner.invoke(
        cli, ["stats", "--db", db, "--benchmark", "e", "--edges", "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.stdout)
    assert (row["edges_loaded"], row["dependent_pairs"]) == (1, 0)
    assert "not assembled yet (`toolex expand`)" in res.stderr
    assert "dependent_pairs" in res.stderr and "read 0 until it has run" in res.stderr
    assert (
        runner.invoke(
            cli, ["expand", "--db", db, "--benchmark", "e", "--judge", "heuristic"]
        ).exit_code
        == 0
    )
    res = runner.invoke(
        cli, ["stats", "--db", db, "--benchmark", "e", "--edges", "--format", "json"]
    )
    (row,) = json.loads(res.stdout)
    assert row["dependent_pairs"] == 1 and "not assembled" not in res.stderr


def test_no_dependency_at_all_is_said_with_a_header(tmp_path: Path) -> None:
    from pathlib import Path

    from toolex.loaders import load_plain
    from toolex.store import Store

    plain = Path(__file__).resolve().parents[1] / "data" / "plain"
    db = str(tmp_path / "p.duckdb")
    with Store.open(db) as store:
        load_plain(
            store, plain / "items.jsonl", plain / "queries.jsonl", plain / "qrels.jsonl", name="p"
        )
    res = CliRunner().invoke(cli, ["stats", "--db", db, "--benchmark", "p", "--edges"])
    assert res.exit_code == 0 and "(0 rows)" in res.stdout and "query_id" in res.stdout
    assert "not assembled yet" in res.stderr
    res = CliRunner().invoke(
        cli, ["stats", "--db", db, "--benchmark", "p", "--edges", "--format", "csv"]
    )
    assert res.stdout.startswith("query_id,task,edges_loaded,")
