"""Issue 35.9: `expand --stage candidates` warned "none of N candidates was accepted ... judge
too strict" before verify had run: nothing had been judged, so nothing had been refused. The
warning counts judged candidates, and only once some are."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from toolex.cli import cli
from toolex.loaders import load_plain
from toolex.store import Store


def _expand(db: str, *stage: str) -> str:
    res = CliRunner().invoke(cli, ["expand", "--db", db, "--benchmark", "d", *stage])
    assert res.exit_code == 0, res.output
    return res.stderr


def test_none_accepted_is_said_once_verify_has_judged_and_not_before(tmp_path: Path) -> None:
    items, queries, qrels = (tmp_path / f"{n}.jsonl" for n in ("items", "queries", "qrels"))
    items.write_text(
        "\n".join(json.dumps({"id": f"t{i}", "doc": {"x": "endpoint"}}) for i in range(40))
    )
    queries.write_text(
        "\n".join(json.dumps({"id": f"q{i}", "text": f"please do task {i}"}) for i in range(12))
    )
    qrels.write_text(
        "\n".join(json.dumps({"query_id": f"q{i}", "item_id": f"t{i}"}) for i in range(12))
    )
    db = str(tmp_path / "d.duckdb")
    with Store.open(db) as store:
        load_plain(store, items, queries, qrels, name="d")
    _expand(db, "--stage", "decompose")
    before_verify = _expand(db, "--stage", "candidates")
    assert "accepted" not in before_verify, before_verify
    after_verify = _expand(db, "--stage", "verify")
    with Store.open(db, read_only=True) as store:
        judged = store.con.execute(
            "SELECT count(*) FROM verdicts AS v JOIN subqueries AS s USING (benchmark, "
            "expansion, query_id, slot) WHERE v.item_id <> s.reference"
        ).fetchall()[0][0]
    assert judged > 0
    assert f"none of {judged} judged candidates was accepted" in after_verify, after_verify
