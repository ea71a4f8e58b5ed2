"""Each remaining API function with real values: loading every format, retrieving, expanding
with a progress callback and the CLI's settings object, stats, trust, exports and SQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toolex
from api.conftest import RUN, cli_run

DATA = Path(__file__).resolve().parents[1] / "data"


def test_load_every_format(tmp_path: Path) -> None:
    with toolex.open(tmp_path / "l.duckdb") as store:
        toolret = toolex.load_toolret(store, DATA / "toolret_mini", tasks=["mini"])
        beir = toolex.load_beir(store, DATA / "beir", name="beir")
        plain = toolex.load_plain(
            store,
            DATA / "plain" / "items.jsonl",
            DATA / "plain" / "queries.jsonl",
            DATA / "plain" / "qrels.jsonl",
            name="plain",
        )
        skills = toolex.load_skillret(store, DATA / "skillret", name="skills")
        again = toolex.load_toolret(store, DATA / "toolret_mini", tasks=["mini"])
        with pytest.raises(toolex.InputError):
            toolex.load_beir(store, DATA / "plain", name="nobeir")
        names = toolex.sql(store, "SELECT benchmark FROM benchmarks ORDER BY 1").to_pylist()
    assert (toolret.status, toolret.items, toolret.queries, toolret.qrels) == ("loaded", 3, 2, 3)
    assert again.status == "unchanged"
    assert (plain.items, plain.queries, plain.qrels) == (3, 2, 3)
    assert beir.status == skills.status == "loaded"
    assert [r["benchmark"] for r in names] == ["beir", "plain", "skills", "toolret"]


def test_load_stabletoolbench_and_docs(shared_data: Path, tmp_path: Path) -> None:
    with toolex.open(tmp_path / "s.duckdb") as store:
        stb = toolex.load_stabletoolbench(
            store, shared_data / "stabletoolbench", groups=["G1_tool"], name="stb"
        )
        toolret = toolex.load_toolret(store, shared_data / "toolret", tasks=["apibank"])
        docs = toolex.load_docs(
            store,
            shared_data / "toolret" / "augmented_tools_apibank" / "gpt-4o-mini_tools.json",
            benchmark="toolret",
            rendering="gpt-4o-mini",
        )
    assert (stb.status, stb.queries) == ("loaded", 158)
    assert (toolret.queries, toolret.items) == (101, 101)
    assert docs.summary().count("101") >= 1


def test_retrieve_expand_stats_trust_export(db: str, tmp_path: Path) -> None:
    seen: list[tuple[str, int, int]] = []
    settings = toolex.expand_settings(depth=5, audit_cap=10)
    with toolex.open(db) as store:
        row = toolex.retrieve(store, "b", "bm25", "bm25", depth=3)
        report = toolex.expand(
            store,
            "b",
            expansion="mine",
            settings=settings,
            progress=lambda label, done, total: seen.append((label, done, total)),
        )
        stats = toolex.stats(store, "b", "mine")
        trust = toolex.trust(store, "b", "mine")
        n_trec = toolex.export(store, "trec-run", tmp_path / "bm25.trec", run="bm25")
        n_qrels = toolex.export(store, "trec-qrels", tmp_path / "q.qrels", benchmark="b")
        n_jsonl = toolex.export(store, "toolret-jsonl", tmp_path / "q.jsonl", benchmark="b")
        with pytest.raises(toolex.ToolexError, match="unknown export"):
            toolex.export(store, "nope", tmp_path / "x")
        with pytest.raises(toolex.NotFoundError, match="expansion"):
            toolex.stats(store, "b", "missing")
    assert (row.run_id, row.queries, row.results) == ("bm25", 3, 9)
    stages = {r["stage"]: r for r in report.rows()}
    assert list(stages) == ["decompose", "candidates", "verify", "assemble", "audit"]
    assert stages["decompose"]["tasks"] == 3 and stages["decompose"]["failed"] == 0
    assert report.stopped is None
    # the callback saw each stage open and finish its units
    labels = {label for label, _, _ in seen}
    assert len(labels) >= 2
    assert all(0 <= done <= total for _, done, total in seen)
    assert any(done == total > 0 for _, done, total in seen)
    assert stats.loc[0, "queries"] == 3
    assert trust is not None and trust.as_dict()["expansion"] == "mine"
    assert (n_trec, n_qrels, n_jsonl) == (9, 4, 3)
    assert (tmp_path / "bm25.trec").read_text().count("\n") == 9


def test_expand_settings_are_the_clis(tmp_path: Path) -> None:
    from toolex.pipeline import settings as defaults
    from toolex.pipeline.settings import CANDIDATE_RETRIEVER, CANDIDATES_PER_SUBQUERY

    config = tmp_path / "toolex.toml"
    config.write_text("[expand]\ndepth = 7\naudit_cap = 4\n", encoding="utf-8")
    default = toolex.expand_settings()
    from_file = toolex.expand_settings(config)
    given = toolex.expand_settings(config, depth=3)
    assert (default.retriever, default.depth) == (CANDIDATE_RETRIEVER, CANDIDATES_PER_SUBQUERY)
    assert (from_file.depth, from_file.audit_cap) == (7, 4)
    assert (given.depth, given.audit_cap) == (3, 4)
    # `toolex expand --dry-run` builds the same object from the same file
    from toolex.cli.expand_options import PipelineOptions

    d = defaults
    cli = PipelineOptions(
        judge=None,
        config_path=str(config),
        retriever=None,
        scope=d.SCOPE,
        rendering=None,
        depth=None,
        old_k=None,
        audit_cap=None,
        platform_rule=d.PLATFORM_RULE,
        prescreen=d.PRESCREEN,
        reuse=d.REUSE,
        order=d.ORDER,
    ).setup()
    assert cli.settings == from_file


def test_expand_refuses_a_stage_without_its_input(db: str) -> None:
    with toolex.open(db) as store:
        with pytest.raises(toolex.ToolexError, match="decompose"):
            toolex.expand(store, "b", expansion="fresh", stages="verify")
        with pytest.raises(toolex.ToolexError, match="unknown stage"):
            toolex.expand(store, "b", stages="everything")
        with pytest.raises(toolex.NotFoundError, match="benchmark"):
            toolex.expand(store, "nope")


def test_sql_arrow_and_pandas(db: str) -> None:
    table = toolex.sql(db, "SELECT query_id, category FROM queries ORDER BY 1")
    frame = toolex.sql_df(db, "SELECT count(*) AS n FROM qrels WHERE query_id = $q", {"q": "q3"})
    assert table.to_pylist()[0] == {"query_id": "q1", "category": "code"}
    assert frame["n"].tolist() == [2]
    with pytest.raises(toolex.ToolexError, match="read-only|query"):
        toolex.sql(db, "DELETE FROM queries")
    with pytest.raises(toolex.ToolexError):
        toolex.sql(db, "SELECT * FROM read_csv('x.csv')")
    with toolex.open(db) as store:
        toolex.import_run(store, RUN, run="dict", benchmark="b")
        assert toolex.sql(store, "SELECT count(*) AS n FROM run_results").to_pylist() == [{"n": 9}]
        with pytest.raises(toolex.ToolexError):
            toolex.sql(store, "DROP TABLE queries")
    out, _ = cli_run("sql", "--db", db, "SELECT count(*) AS n FROM run_results", "--format", "json")
    assert json.loads(out) == [{"n": 9}]


def test_open_errors(tmp_path: Path) -> None:
    with pytest.raises(toolex.StoreError, match="no store"):
        toolex.open(tmp_path / "missing.duckdb", read_only=True)
    with pytest.raises(toolex.StoreError, match="does not exist"):
        toolex.open(tmp_path / "no" / "folder.duckdb")
