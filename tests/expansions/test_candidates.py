"""Issue 26.1: per-sub-query candidate lists made elsewhere (TREC or Parquet) imported into an
expansion's candidates stage, with located errors, all or nothing; the pipeline then verifies
them as its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from pipeline.helpers import add_benchmark, add_item, add_query

from toolex.cli import cli
from toolex.errors import InputError, ToolexError
from toolex.expansions.candidates import import_candidates
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline.record import stored
from toolex.pipeline.runner import run_expansion
from toolex.store import Store

TOOLS = {
    "a::forecast": "Get the weather forecast for a city.",
    "b::weather": "Weather forecast of a city, by day.",
    "c::stock": "Get the stock price quote for a ticker.",
    "d::quote": "Stock quote and price of a company ticker.",
    "e::mail": "Send an email message to a recipient.",
}


@pytest.fixture
def bench(store: Store) -> Store:
    add_benchmark(store)
    for item_id, description in TOOLS.items():
        add_item(store, item_id, {"name": item_id.split("::")[1], "description": description})
    add_query(store, "q1", "Weather forecast for Paris, then the stock price of ACME", [
        "a::forecast", "c::stock"])  # fmt: skip
    add_query(store, "q2", "Email the forecast to Ann", ["e::mail"])
    run_expansion(store, "b", HeuristicJudge(store), expansion="x", stages=["decompose"])
    return store


def candidates(store: Store, expansion: str = "x") -> list[tuple[Any, ...]]:
    return store.con.execute(
        "SELECT query_id, slot, item_id, rank, score, retriever FROM candidates "
        "WHERE expansion = ? ORDER BY query_id, slot, rank",
        [expansion],
    ).fetchall()


def trec(tmp_path: Path, lines: list[str], name: str = "qwen.trec") -> Path:
    path = tmp_path / name
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


GOOD = [
    "q1#0 Q0 b::weather 1 0.9 qwen",
    "q1#0 Q0 a::forecast 2 0.8 qwen",
    "q1#1 Q0 d::quote 1 0.7 qwen",  # misses the reference c::stock
    "q2 Q0 e::mail 1 0.95 qwen",  # a query of one sub-query, named alone
    "q2 Q0 a::forecast 2 0.5 qwen",
]


def test_a_trec_file_fills_the_candidates_stage(bench: Store, tmp_path: Path) -> None:
    done = import_candidates(bench, trec(tmp_path, GOOD), benchmark="b", expansion="x")
    assert (done.queries, done.subqueries, done.candidates) == (2, 3, 6)
    assert (done.references_added, done.depth, done.retriever) == (1, 2, "import:qwen")
    assert candidates(bench) == [
        ("q1", 0, "b::weather", 1, 0.9, "import:qwen"),
        ("q1", 0, "a::forecast", 2, 0.8, "import:qwen"),
        ("q1", 1, "d::quote", 1, 0.7, "import:qwen"),
        ("q1", 1, "c::stock", 3, None, "import:qwen"),  # the reference, at K+1
        ("q2", 0, "e::mail", 1, 0.95, "import:qwen"),
        ("q2", 0, "a::forecast", 2, 0.5, "import:qwen"),
    ]
    config = stored(bench, "b", "x")
    assert config["imported_candidates"] == {
        "source": str(tmp_path / "qwen.trec"),
        "retriever": "import:qwen",
        "depth": 2,
    }
    assert "depth 2" in done.summary() and "1 references" in done.summary()


def test_the_pipeline_verifies_imported_lists_and_retrieves_nothing_for_them(
    bench: Store, tmp_path: Path
) -> None:
    import_candidates(bench, trec(tmp_path, GOOD), benchmark="b", expansion="x")
    report = run_expansion(bench, "b", HeuristicJudge(bench), expansion="x")
    stages = {s.stage: s for s in report.stages}
    assert stages["candidates"].tasks == 0  # every sub-query already has its list
    assert stages["verify"].tasks > 0
    judged = {
        r[0]
        for r in bench.con.execute(
            "SELECT item_id FROM verdicts WHERE expansion = 'x' AND query_id = 'q1' AND slot = 0"
        ).fetchall()
    }
    assert judged == {"b::weather", "a::forecast"}
    config = stored(bench, "b", "x")
    # the candidates stage made nothing, so no retriever is recorded as if it had
    imported = config["imported_candidates"]
    assert "retriever" not in config and isinstance(imported, dict) and imported["retriever"]
    # an expansion run again with another retriever is not refused: the lists are not its
    run_expansion(bench, "b", HeuristicJudge(bench), expansion="x")


def test_parquet_with_a_slot_column_and_a_depth(bench: Store, tmp_path: Path) -> None:
    rows = [
        {"query_id": "q1", "slot": 0, "item_id": "a::forecast", "score": 3.0},
        {"query_id": "q1", "slot": 0, "item_id": "b::weather", "score": 2.0},
        {"query_id": "q1", "slot": 0, "item_id": "e::mail", "score": 1.0},
        {"query_id": "q1", "slot": 1, "item_id": "c::stock", "score": 1.0},
        {"query_id": "q1", "slot": 1, "item_id": "d::quote", "score": 1.0},  # tie: id desc
    ]
    path = tmp_path / "lists.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    done = import_candidates(bench, path, benchmark="b", expansion="x", depth=1, name="gpu")
    assert candidates(bench) == [
        ("q1", 0, "a::forecast", 1, 3.0, "import:gpu"),
        ("q1", 1, "d::quote", 1, 1.0, "import:gpu"),
        ("q1", 1, "c::stock", 2, None, "import:gpu"),
    ]
    assert (done.queries, done.references_added) == (1, 1)


@pytest.mark.parametrize(
    ("line", "where", "said"),
    [
        ("q1#2 Q0 a::forecast 1 1 t", "qwen.trec:6, sub-query q1#2, field 'query_id'",
         "query 'q1' has no sub-query 2 in expansion 'x' of 'b' (it has sub-queries 0..1)"),
        ("q9#0 Q0 a::forecast 1 1 t", "qwen.trec:6, sub-query q9#0", "'q9' has no sub-query 0"),
        ("q1 Q0 a::forecast 1 1 t", "qwen.trec:6, sub-query q1, field 'query_id'",
         "cannot tell the sub-query: name it <query_id>#<slot> (e.g. q1#0)"),
        ("q1#0 Q0 z::none 1 1 t", "field 'item_id'", "item 'z::none' is not in the library"),
        ("q1#0 Q0 a::forecast 1 1 t", "qwen.trec:6", "item 'a::forecast' is listed twice"),
        ("q1#0 Q0 a::forecast 1", "qwen.trec:6", "expected 6 columns"),
    ],
)  # fmt: skip
def test_bad_rows_are_located_and_nothing_is_written(
    bench: Store, tmp_path: Path, line: str, where: str, said: str
) -> None:
    with pytest.raises(InputError) as e:
        import_candidates(bench, trec(tmp_path, [*GOOD, line]), benchmark="b", expansion="x")
    assert where in str(e.value) and said in str(e.value)
    assert candidates(bench) == [] and "imported_candidates" not in stored(bench, "b", "x")


def test_a_query_gets_a_list_for_every_sub_query(bench: Store, tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        import_candidates(bench, trec(tmp_path, GOOD[:2]), benchmark="b", expansion="x")
    assert "qwen.trec:1, query q1, field 'slot'" in str(e.value)
    assert "lists for sub-queries [0] but not [1]" in str(e.value)


def test_an_expansion_without_sub_queries_says_to_decompose_first(
    bench: Store, tmp_path: Path
) -> None:
    with pytest.raises(ToolexError, match="no sub-queries.*--stage decompose"):
        import_candidates(bench, trec(tmp_path, GOOD), benchmark="b", expansion="fresh")


def test_stored_lists_are_swapped_only_with_replace_and_never_once_judged(
    bench: Store, tmp_path: Path
) -> None:
    import_candidates(bench, trec(tmp_path, GOOD), benchmark="b", expansion="x")
    other = [line.replace("qwen", "bge") for line in GOOD[:3]]
    with pytest.raises(ToolexError, match="already has candidates for 2 of these sub-queries"):
        import_candidates(bench, trec(tmp_path, other, "bge.trec"), benchmark="b", expansion="x")
    import_candidates(bench, trec(tmp_path, other, "bge.trec"), benchmark="b", expansion="x",
                      replace=True)  # fmt: skip
    retrievers = dict(
        bench.con.execute(
            "SELECT query_id, any_value(retriever) FROM candidates GROUP BY ALL"
        ).fetchall()
    )
    assert retrievers == {"q1": "import:bge", "q2": "import:qwen"}  # q2's list was not named
    run_expansion(bench, "b", HeuristicJudge(bench), expansion="x", stages=["verify"])
    with pytest.raises(ToolexError, match="verdicts on candidates of these sub-queries"):
        import_candidates(bench, trec(tmp_path, GOOD), benchmark="b", expansion="x", replace=True)
    assert dict(
        bench.con.execute("SELECT query_id, any_value(retriever) FROM candidates GROUP BY ALL")
        .fetchall()
    ) == retrievers  # fmt: skip


def test_a_toolret_json_run_is_refused_for_it_has_no_sub_queries(
    bench: Store, tmp_path: Path
) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"q2": {"e::mail": 1.0}}), encoding="utf-8")
    with pytest.raises(InputError, match="a ToolRet JSON run has no sub-queries"):
        import_candidates(bench, path, benchmark="b", expansion="x")


def test_the_cli_imports_and_reports_errors_without_a_traceback(
    bench: Store, tmp_path: Path
) -> None:
    toolex = str(Path(sys.executable).with_name("toolex"))
    bench.close()
    args = ["load", "candidates", "--db", bench.path, "--benchmark", "b", "--expansion", "x"]
    bad = subprocess.run(
        [toolex, *args, str(trec(tmp_path, [*GOOD, "q9#0 Q0 a 1 1 t"]))],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("error: ") and "qwen.trec:6, sub-query q9#0" in bad.stderr
    done = CliRunner().invoke(cli, [*args, str(trec(tmp_path, GOOD))])
    assert done.exit_code == 0, done.output
    assert "imported 6 candidates (import:qwen, depth 2) for 3 sub-queries" in done.stderr
