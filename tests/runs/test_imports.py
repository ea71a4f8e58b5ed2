"""Run import: every format, trec_eval's rank rule computed in SQL, unknown ids, RRF fusion."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from loaders.conftest import DATA, store_state

from toolex.errors import InputError, ToolexError
from toolex.loaders import load_toolret
from toolex.runs import delete_run, import_run, list_runs
from toolex.store import Store


@pytest.fixture
def mini(store: Store) -> Store:
    load_toolret(store, DATA / "toolret_mini")
    return store


def _results(store: Store, run: str) -> list[tuple[Any, ...]]:
    return store.con.execute(
        "SELECT query_id, item_id, score, rank FROM run_results WHERE run_id = ? ORDER BY 1, 4",
        [run],
    ).fetchall()


EXPECTED = [  # ties on 0.5: item_id descending puts mini_tool_2 first
    ("mini_query_0", "mini_tool_1", 0.9, 1),
    ("mini_query_0", "mini_tool_2", 0.5, 2),
    ("mini_query_0", "mini_tool_0", 0.5, 3),
    ("mini_query_1", "mini_tool_2", 3.0, 1),
]


def test_trec(mini: Store, tmp_path: Path) -> None:
    f = tmp_path / "r.trec"
    f.write_text(
        "mini_query_0 Q0 mini_tool_0 1 0.5 bm25\n"  # the file's own rank is ignored
        "mini_query_0 Q0 mini_tool_1 2 0.9 bm25\n"
        "mini_query_0  Q0  mini_tool_2  3  0.5  bm25\n\n"
        "mini_query_1 Q0 mini_tool_2 1 3 bm25\n"
    )
    result = import_run(mini, f, run="bm25", benchmark="toolret")
    assert (result.format, result.queries, result.results) == ("trec", 2, 4)
    assert _results(mini, "bm25") == EXPECTED
    row = mini.con.execute("SELECT level, source, params->>'$.format' FROM runs").fetchall()[0]
    assert row == ("query", str(f), "trec")


def test_csv_parquet_and_toolret_json_agree(mini: Store, tmp_path: Path) -> None:
    rows = [
        ("mini_query_0", "mini_tool_0", 0.5),
        ("mini_query_0", "mini_tool_1", 0.9),
        ("mini_query_0", "mini_tool_2", 0.5),
        ("mini_query_1", "mini_tool_2", 3.0),
    ]
    csv = tmp_path / "r.csv"
    csv.write_text("query_id,item_id,score\n" + "".join(f"{q},{i},{s}\n" for q, i, s in rows))
    pqf = tmp_path / "r.parquet"
    pq.write_table(
        pa.table(
            {
                "qid": [r[0] for r in rows],
                "docid": [r[1] for r in rows],
                "score": [r[2] for r in rows],
            }
        ),
        pqf,
    )
    js = tmp_path / "r.json"
    out: dict[str, Any] = {}
    for q, i, s in rows:
        out.setdefault(q, {})[i] = s
    js.write_text(json.dumps(out))
    for run, f in (("c", csv), ("p", pqf), ("j", js)):
        import_run(mini, f, run=run, benchmark="toolret")
        assert _results(mini, run) == EXPECTED, run
    assert [r.run for r in list_runs(mini)] == ["c", "p", "j"]


def test_unknown_query_names_the_line_or_is_skipped(mini: Store, tmp_path: Path) -> None:
    f = tmp_path / "r.trec"
    f.write_text(
        "mini_query_0 Q0 mini_tool_0 1 1 t\nnope Q0 mini_tool_0 1 1 t\nnope Q0 mini_tool_1 2 0 t\n"
    )
    before = store_state(mini)
    with pytest.raises(InputError) as exc:
        import_run(mini, f, run="r", benchmark="toolret")
    assert (exc.value.line, exc.value.field) == (2, "query_id")
    assert "'nope'" in str(exc.value)
    assert store_state(mini) == before
    result = import_run(mini, f, run="r", benchmark="toolret", skip_unknown=True)
    assert result.notes == ["skipped 2 result(s) of 1 unknown query id(s)"]
    assert result.results == 1


def test_bad_rows(mini: Store, tmp_path: Path) -> None:
    f = tmp_path / "r.trec"
    f.write_text("mini_query_0 Q0 mini_tool_0 1 1 t\nmini_query_0 Q0 mini_tool_1 2 high t\n")
    with pytest.raises(InputError, match="score 'high' is not a number") as exc:
        import_run(mini, f, run="r", benchmark="toolret")
    assert exc.value.line == 2
    f.write_text("mini_query_0 Q0 mini_tool_0 1 1\n")
    with pytest.raises(InputError, match="expected 6 columns"):
        import_run(mini, f, run="r", benchmark="toolret")
    f.write_text("mini_query_0 Q0 mini_tool_0 1 1 t\nmini_query_0 Q0 mini_tool_0 2 0.5 t\n")
    with pytest.raises(InputError, match="listed twice") as exc:
        import_run(mini, f, run="r", benchmark="toolret")
    assert exc.value.line == 2
    csv = tmp_path / "r.csv"
    csv.write_text("query_id,item_id,score\nmini_query_0,mini_tool_0,\n")
    with pytest.raises(InputError, match="empty or NaN") as exc:
        import_run(mini, csv, run="r", benchmark="toolret")
    assert (exc.value.line, exc.value.field) == (2, "score")
    csv.write_text("query_id,score\nmini_query_0,1\n")
    with pytest.raises(InputError, match="missing column 'item_id'"):
        import_run(mini, csv, run="r", benchmark="toolret")
    assert mini.con.execute("SELECT count(*) FROM runs").fetchall()[0][0] == 0


def test_an_item_twice_is_found_however_it_is_spelled_or_slotted(
    mini: Store, tmp_path: Path
) -> None:
    f = tmp_path / "r.trec"
    # %2541 decodes to %41, which a reader keeps as written: two spellings of one id
    f.write_text(
        "mini_query_0 Q0 a%41 1 1 t\nmini_query_1 Q0 a%41 1 1 t\nmini_query_0 Q0 a%2541 2 0.5 t\n"
    )
    with pytest.raises(InputError, match="'a%41' is listed twice for query 'mini_query_0'") as exc:
        import_run(mini, f, run="r", benchmark="toolret")
    assert exc.value.line == 3
    csv = tmp_path / "r.csv"
    rows = "mini_query_0,0,mini_tool_0,1\nmini_query_0,1,mini_tool_0,1\n"
    rows += "mini_query_1,0,mini_tool_0,1\n"
    csv.write_text("query_id,slot,item_id,score\n" + rows)  # one item in two slots: allowed
    assert import_run(mini, csv, run="s", benchmark="toolret", level="subquery").results == 2
    csv.write_text("query_id,slot,item_id,score\n" + rows + "mini_query_0,0,mini_tool_0,0.5\n")
    with pytest.raises(InputError, match="listed twice") as exc:
        import_run(mini, csv, run="t", benchmark="toolret", level="subquery")
    assert exc.value.line == 5
    assert [r.run for r in list_runs(mini)] == ["s"]


def test_existing_run_needs_replace_and_delete(mini: Store, tmp_path: Path) -> None:
    f = tmp_path / "r.trec"
    f.write_text("mini_query_0 Q0 mini_tool_0 1 1 t\nmini_query_0 Q0 mini_tool_9 2 0.5 t\n")
    result = import_run(mini, f, run="r", benchmark="toolret")
    assert result.notes == ["1 item id(s) are not in the library (kept, never relevant)"]
    with pytest.raises(ToolexError, match="--replace"):
        import_run(mini, f, run="r", benchmark="toolret")
    f.write_text("mini_query_1 Q0 mini_tool_2 1 1 t\n")
    import_run(mini, f, run="r", benchmark="toolret", replace=True)
    assert _results(mini, "r") == [("mini_query_1", "mini_tool_2", 1.0, 1)]
    assert delete_run(mini, "r") == 1
    assert mini.con.execute("SELECT count(*) FROM run_results").fetchall()[0][0] == 0
    with pytest.raises(ToolexError, match="no run named 'r'"):
        delete_run(mini, "r")


def test_subquery_level_is_fused_with_rrf(mini: Store, tmp_path: Path) -> None:
    f = tmp_path / "r.csv"
    f.write_text(
        "query_id,slot,item_id,score\n"
        "mini_query_0,0,mini_tool_0,0.9\nmini_query_0,0,mini_tool_1,0.2\n"
        "mini_query_0,1,mini_tool_1,0.8\nmini_query_0,1,mini_tool_2,0.7\nmini_query_0,1,mini_tool_0,0.1\n"
    )
    with pytest.raises(InputError, match="--level subquery"):
        import_run(mini, f, run="s", benchmark="toolret")
    import_run(mini, f, run="s", benchmark="toolret", level="subquery")
    got = _results(mini, "s")
    # tool_1: 1/(60+2) + 1/(60+1); tool_0: 1/(60+1) + 1/(60+3); tool_2: 1/(60+2)
    expected = [
        ("mini_tool_1", 1 / 62 + 1 / 61),
        ("mini_tool_0", 1 / 61 + 1 / 63),
        ("mini_tool_2", 1 / 62),
    ]
    assert [(g[1], g[3]) for g in got] == [(e[0], i) for i, e in enumerate(expected, start=1)]
    for g, e in zip(got, expected, strict=True):
        assert g[2] == pytest.approx(e[1], abs=1e-12)
    assert mini.con.execute("SELECT count(*) FROM subquery_results").fetchall()[0][0] == 5


def test_subquery_level_needs_a_slot_on_every_row(mini: Store, tmp_path: Path) -> None:
    f = tmp_path / "r.trec"
    f.write_text("mini_query_0 Q0 mini_tool_0 1 1 t\n")
    with pytest.raises(InputError, match="needs a slot column"):
        import_run(mini, f, run="s", benchmark="toolret", level="subquery")
    csv = tmp_path / "r.csv"
    csv.write_text(
        "query_id,slot,item_id,score\nmini_query_0,0,mini_tool_0,1\nmini_query_0,,mini_tool_1,1\n"
    )
    with pytest.raises(InputError, match="empty slot") as exc:
        import_run(mini, csv, run="s", benchmark="toolret", level="subquery")
    assert exc.value.line == 3
    assert mini.con.execute("SELECT count(*) FROM runs").fetchall()[0][0] == 0
