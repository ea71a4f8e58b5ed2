"""Issue 15, data from elsewhere: BEIR qrels with repeated pairs, BEIR corpora whose text packs
ToolBench fields, errors that name things by what they are, the SkillRet layout, and item ids
with spaces (accepted everywhere; escaped in TREC files by one documented mapping)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolex.errors import InputError
from toolex.loaders import load_beir, load_skillret
from toolex.loaders.beir import parse_packed
from toolex.loaders.trec_ids import trec_escape, trec_unescape
from toolex.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"
PACKED = (
    "category_name: Sports, tool_name: Soccer Data, api_name: Live Scores, api_description: "
    "Live scores of today's matches, with goals and cards, required_params: [{'name': "
    "'league', 'type': 'STRING', 'description': 'League id, e.g. 39', 'default': '39'}], "
    "optional_params: [], method: GET"
)


def _beir(tmp_path: Path) -> Path:
    root = tmp_path / "beir"
    shutil.copytree(DATA / "beir", root)
    return root


def test_repeated_qrels_lines_are_merged_keeping_the_max(store: Store, tmp_path: Path) -> None:
    root = _beir(tmp_path)
    qrels = root / "qrels" / "test.tsv"
    qrels.write_text(qrels.read_text() + "q1\tt1\t3\nq2\tt3\t1\n", encoding="utf-8")
    result = load_beir(store, root, name="mini")
    assert result.qrels == 3
    assert store.con.execute(
        "SELECT relevance FROM qrels WHERE query_id = 'q1' AND item_id = 't1'"
    ).fetchall()[0] == (3,)
    assert any("2 qrels line(s) repeat a (query id, corpus id) pair" in n for n in result.notes)


def test_errors_name_the_query_id_not_a_record(store: Store, tmp_path: Path) -> None:
    root = _beir(tmp_path)
    qrels = root / "qrels" / "test.tsv"
    qrels.write_text(qrels.read_text() + "10666\tt1\tmany\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_beir(store, root, name="mini")
    assert "query id 10666" in str(info.value) and "record" not in str(info.value)


def test_packed_toolbench_text_becomes_fields() -> None:
    api = parse_packed(PACKED)
    assert api is not None
    assert api["api_name"] == "Live Scores" and api["tool_name"] == "Soccer Data"
    assert api["api_description"] == "Live scores of today's matches, with goals and cards"
    required = api["required_parameters"]
    assert isinstance(required, list) and required[0]["name"] == "league"
    assert api["optional_parameters"] == [] and api["method"] == "GET"
    assert parse_packed("Current weather for a city, with tool_name: x") is None
    assert parse_packed("tool_name: x, description without an api name") is None


def test_a_packed_corpus_loads_name_platform_category_and_parameters(
    store: Store, tmp_path: Path
) -> None:
    root = _beir(tmp_path)
    rows = [
        {"_id": "s1", "title": "", "text": PACKED},
        {"_id": "t1", "title": "weather_now", "text": "Current weather for a city."},
        {"_id": "t2", "title": "forecast", "text": "Seven-day forecast.", "metadata": {}},
        {"_id": "t3", "text": "Convert currencies.", "metadata": {"category": "finance"}},
    ]
    (root / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    result = load_beir(store, root, name="packed")
    assert any("packed ToolBench fields" in n for n in result.notes)
    row = store.con.execute(
        "SELECT name, platform, category, text FROM items WHERE item_id = 's1'"
    ).fetchall()[0]
    assert row[:3] == ("Live Scores", "Soccer Data", "Sports")
    assert "parameters: league (string, required)" in row[3]
    assert "description: Live scores" in row[3]
    assert store.con.execute("SELECT category FROM items WHERE item_id = 't3'").fetchall()[0] == (
        "finance",
    )


def test_skillret_sample_loads_skills_as_items(store: Store) -> None:
    result, data = load_skillret(store, DATA / "skillret")
    assert (result.items, result.queries, result.qrels) == (6, 4, 6)
    # sq4's second label has relevance 1 (a substitute), not a second step
    assert any("graded below their query's top grade" in n for n in result.notes)
    assert [(s.query_id, s.slot, s.item_id) for s in data.substitutes] == [
        ("sq4", 0, "git-commit-review")
    ]
    kinds = store.con.execute("SELECT DISTINCT kind FROM items").fetchall()
    assert kinds == [("skill",)]
    text = store.con.execute("SELECT text FROM items WHERE item_id = 'pdf-merge'").fetchall()[0][0]
    assert text.startswith("name: pdf-merge\ndescription: Merge several PDF") and "pypdf" in text
    tasks = dict(store.con.execute("SELECT query_id, task FROM queries").fetchall())
    assert tasks["sq2"] == "multi_skill_composition"


def test_skillret_labels_from_the_queries_when_there_is_no_qrels_file(
    store: Store, tmp_path: Path
) -> None:
    root = tmp_path / "skillret"
    shutil.copytree(DATA / "skillret", root)
    (root / "qrels" / "test.jsonl").unlink()
    result, _ = load_skillret(store, root, name="sr")
    assert result.qrels == 6  # each query's skill_ids, relevance 1
    assert store.con.execute("SELECT DISTINCT relevance FROM qrels").fetchall() == [(1,)]


def test_load_plain_help_shows_the_schema_with_an_example() -> None:
    from toolex.cli import cli

    out = CliRunner().invoke(cli, ["load", "plain", "--help"]).output
    assert '"doc": {"api_name": "forecast"' in out and '{"id": "q1", "text":' in out
    assert "goes whole under" in out and "platform" in out


@pytest.mark.parametrize(
    "item", ["Pack & Send::/api/Tracking/", "a%b c", "tab\there", "no\u00a0break", "a%41"]
)
def test_trec_id_mapping_round_trips(item: str) -> None:
    escaped = trec_escape(item)
    assert len(escaped.split()) == 1 and trec_unescape(escaped) == item


def test_a_third_party_percent_is_left_alone() -> None:
    assert trec_unescape("a%41b") == "a%41b"
    assert trec_unescape("Pack%20&%20Send") == "Pack & Send"
