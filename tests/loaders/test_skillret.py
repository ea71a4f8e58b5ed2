"""Issue 26.5: SkillRet's grade-1 "functionally substitutable" labels are the benchmark's own
equivalents, loaded as such by default (an expansion's valid combinations, the seed swapped for
its substitute), skipped on request; the version loaded is recorded with the benchmark."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from toolex.cli import cli
from toolex.errors import InputError
from toolex.loaders.skillret import read_skillret, substitute_records
from toolex.store import Store

DATA = Path(__file__).resolve().parents[1] / "data" / "skillret"


def write(
    root: Path,
    skills: list[dict[str, Any]],
    queries: list[dict[str, Any]],
    qrels: list[dict[str, Any]],
) -> Path:
    for part, rows in (("skills", skills), ("queries", queries), ("qrels", qrels)):
        (root / part).mkdir(parents=True, exist_ok=True)
        text = "\n".join(json.dumps(r) for r in rows)
        (root / part / "test.jsonl").write_text(text + "\n", encoding="utf-8")
    return root


def skill(i: str) -> dict[str, Any]:
    return {"id": i, "name": i, "description": f"the skill {i}"}


def load(db: str, root: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["load", "skillret", str(root), "--db", db, *args])


def combinations(db: str, expansion: str = "substitutable") -> dict[tuple[str, int], list[str]]:
    with Store.open(db, read_only=True) as store:
        rows = store.con.execute(
            "SELECT c.query_id, c.combo_id, list(i.item_id ORDER BY i.slot) FROM combinations c "
            "JOIN combination_items i USING (benchmark, expansion, query_id, combo_id) "
            "WHERE c.expansion = ? AND c.status = 'valid' GROUP BY ALL ORDER BY ALL",
            [expansion],
        ).fetchall()
    return {(q, c): items for q, c, items in rows}


def test_substitutable_labels_are_an_expansion_s_valid_combinations(tmp_path: Path) -> None:
    db = str(tmp_path / "s.duckdb")
    res = load(db, DATA)
    assert res.exit_code == 0, res.output
    # sq4: seed pre-commit-lint (relevance 2), git-commit-review substitutable (1)
    assert combinations(db) == {
        ("sq4", 0): ["pre-commit-lint"],  # the original, combo 0
        ("sq4", 1): ["git-commit-review"],
    }
    assert "1 'functionally substitutable' qrel(s)" in res.stderr
    assert "expansion 'substitutable': 1 valid combination(s) of 1 queries" in res.stderr
    with Store.open(db, read_only=True) as store:
        (source,) = store.con.execute("SELECT source FROM benchmarks").fetchall()[0]
        (qrels,) = store.con.execute("SELECT count(*) FROM qrels").fetchall()[0]
    assert "(SkillRet version unknown (4 test queries; v1.0 has 4,997 test" in source
    assert qrels == 6  # the old labels stay the seeds: old scores do not move
    again = load(db, DATA)  # the same content: unchanged, the expansion as it was
    assert again.exit_code == 0 and "already loaded, unchanged" in again.stderr
    assert len(combinations(db)) == 2
    scored = CliRunner().invoke(cli, ["info", "--db", db, "--only", "expansions", "--format",
                                      "json"])  # fmt: skip
    (row,) = json.loads(scored.stdout)
    assert (row["expansion"], row["valid"], row["alternatives"]) == ("substitutable", 2, 1)


def test_skip_drops_them_counted(tmp_path: Path) -> None:
    db = str(tmp_path / "s.duckdb")
    res = load(db, DATA, "--substitutable", "skip")
    assert res.exit_code == 0, res.output
    assert "1 qrel(s) graded below their query's top grade" in res.stderr
    assert "skipped (--substitutable skip)" in res.stderr
    assert combinations(db) == {}


@pytest.mark.parametrize(("n", "version"), [(4997, "v1.0"), (4392, "v1.1"), (10, "unknown")])
def test_the_version_is_read_from_the_test_queries(tmp_path: Path, n: int, version: str) -> None:
    queries = [{"id": f"q{i}", "query": f"do thing {i}", "skill_ids": ["a"]} for i in range(n)]
    root = write(tmp_path / "sr", [skill("a")], queries, [])
    (root / "qrels" / "test.jsonl").unlink()
    data = read_skillret(root)
    assert data.version.startswith(version) or version == "unknown"
    if version != "unknown":
        assert data.benchmark.source.endswith(f"(SkillRet {version} ({n:,} test queries))")
    else:
        assert "version unknown (10 test queries" in data.version


def test_a_multi_skill_query_places_a_substitute_on_the_seed_it_names(tmp_path: Path) -> None:
    skills = [skill(i) for i in ("a", "b", "a2", "b2", "x")]
    queries = [{"id": "q", "query": "a then b"}]
    qrels = [
        {"query_id": "q", "skill_id": "a", "relevance": 2},
        {"query_id": "q", "skill_id": "b", "relevance": 2},
        {"query_id": "q", "skill_id": "a2", "relevance": 1, "seed_id": "a"},
        {"query_id": "q", "skill_id": "b2", "relevance": 1, "seed_id": "b"},
        {"query_id": "q", "skill_id": "x", "relevance": 1},  # names no seed: cannot be placed
    ]
    data = read_skillret(write(tmp_path / "sr", skills, queries, qrels))
    assert [(s.slot, s.item_id, s.line) for s in data.substitutes] == [(0, "a2", 3), (1, "b2", 4)]
    assert any("1 substitutable qrel(s) of multi-skill queries name no seed" in n
               for n in data.benchmark.notes)  # fmt: skip
    combos: dict[int, list[str]] = {}
    for member in substitute_records(data):
        combos.setdefault(member.combo_id, []).append(member.item_id)
    # each slot its seed or its substitute, the original left out
    assert sorted(combos.values()) == [["a", "b2"], ["a2", "b"], ["a2", "b2"]]


def test_a_substitute_naming_no_seed_of_its_query_is_a_located_error(tmp_path: Path) -> None:
    qrels = [
        {"query_id": "q", "skill_id": "a", "relevance": 2},
        {"query_id": "q", "skill_id": "b", "relevance": 1, "seed_id": "zz"},
    ]
    root = write(tmp_path / "sr", [skill("a"), skill("b")], [{"id": "q", "query": "a"}], qrels)
    with pytest.raises(InputError) as err:
        read_skillret(root)
    assert "test.jsonl:2, field 'seed_id': names 'zz' as the seed" in str(err.value)


def test_a_seed_labelled_twice_keeps_dense_slots_and_its_substitute_imports(tmp_path: Path) -> None:
    """The merge of issue 26.5 with 27.1: a seed listed twice is one label in its first slot, the
    later seeds move up (slots 0..k-1), and a substitute lands on its seed's merged slot, so the
    combinations import (which refuses a slot outside the query's) takes it."""
    skills = [skill(i) for i in ("a", "b", "b2")]
    qrels = [
        {"query_id": "q", "skill_id": "a", "relevance": 2},
        {"query_id": "q", "skill_id": "a", "relevance": 2},
        {"query_id": "q", "skill_id": "b", "relevance": 2},
        {"query_id": "q", "skill_id": "b2", "relevance": 1, "seed_id": "b"},
    ]
    root = write(tmp_path / "sr", skills, [{"id": "q", "query": "a then b"}], qrels)
    db = str(tmp_path / "s.duckdb")
    res = load(db, root)
    assert res.exit_code == 0, res.output
    assert "1 qrel(s) repeat a (query id, item id) pair" in res.stderr
    with Store.open(db, read_only=True) as store:
        slots = store.con.execute("SELECT item_id, slot FROM qrels ORDER BY slot").fetchall()
    assert slots == [("a", 0), ("b", 1)]
    assert combinations(db) == {("q", 0): ["a", "b"], ("q", 1): ["a", "b2"]}


def test_a_skill_id_with_a_newline_is_refused_at_its_line(tmp_path: Path) -> None:
    """Issue 27.2 holds for SkillRet's labels too: an id with a control character is refused
    with file, line and the field as the file spells it (skill_id), before anything is stored."""
    qrels = [
        {"query_id": "q", "skill_id": "a", "relevance": 2},
        {"query_id": "q", "skill_id": "a\nb", "relevance": 2},
    ]
    root = write(tmp_path / "sr", [skill("a")], [{"id": "q", "query": "a"}], qrels)
    with pytest.raises(InputError) as err:
        read_skillret(root)
    message = str(err.value)
    assert "qrels/test.jsonl:2, query id q, field 'skill_id'" in message, message
    assert "control character" in message
