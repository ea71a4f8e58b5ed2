"""Issue 27.2: what each refused label or id says, and where (tests/attacks/hostile_labels.py
tries every class; these pin the wording and the location a user sees)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolex.errors import InputError
from toolex.expansions.combinations import import_combinations
from toolex.loaders import load_beir, load_plain, load_stabletoolbench
from toolex.runs import import_run
from toolex.store import Store


def _plain(tmp_path: Path, qrels: list[dict[str, object]], item_id: str = "t1") -> list[Path]:
    rows: dict[str, list[dict[str, object]]] = {
        "items": [{"id": item_id, "text": "merge PDFs"}, {"id": "t2", "text": "split PDFs"}],
        "queries": [{"id": "q1", "text": "merge then split"}],
        "qrels": qrels,
    }
    paths = []
    for name, recs in rows.items():
        paths.append(tmp_path / f"{name}.jsonl")
        paths[-1].write_text("".join(json.dumps(r) + "\n" for r in recs))
    return paths


@pytest.mark.parametrize(
    ("slots", "line", "message"),
    [
        ([0, 2], 2, "slot 2 is out of range: query 'q1' has 2 qrel(s), so its slots are 0..1"),
        ([-1, 0], 1, "slot -1 is negative"),
        ([1, 1], 2, "slot 1 is used twice in query 'q1' (first at line 1)"),
    ],
)
def test_a_slot_that_leaves_a_gap_is_refused_at_its_line(
    store: Store, tmp_path: Path, slots: list[int], line: int, message: str
) -> None:
    pairs = zip(("t1", "t2"), slots, strict=True)
    qrels = [{"query_id": "q1", "item_id": i, "slot": s} for i, s in pairs]
    with pytest.raises(InputError) as info:
        load_plain(store, *_plain(tmp_path, qrels), name="b")
    assert (info.value.line, info.value.field) == (line, "slot")
    assert message in str(info.value) and "qrels.jsonl" in str(info.value)
    assert store.rows("load/01_find_benchmark.sql", {"benchmark": "b"}) == []


def test_an_id_with_a_control_character_is_refused_where_it_is_read(
    store: Store, tmp_path: Path
) -> None:
    with pytest.raises(InputError) as info:
        load_plain(store, *_plain(tmp_path, [{"query_id": "q1", "item_id": "t1"}], "t\u00001"),
                   name="b")  # fmt: skip
    assert info.value.path is not None
    assert (info.value.path.endswith("items.jsonl"), info.value.line, info.value.field) == (
        True,
        1,
        "id",
    )
    assert "control character '\\x00' at position 1" in str(info.value)


def test_two_apis_joining_into_one_id_are_refused(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "stb" / "test_instruction"
    folder.mkdir(parents=True)
    apis = [{"tool_name": "a::b", "api_name": "c", "api_description": "one"},
            {"tool_name": "a", "api_name": "b::c", "api_description": "two"}]  # fmt: skip
    record = {"query_id": 1, "query": "q", "api_list": apis, "relevant APIs": [["a", "b::c"]]}
    (folder / "G1_instruction.json").write_text(json.dumps([record]))
    with pytest.raises(InputError) as info:
        load_stabletoolbench(store, folder.parent)
    assert info.value.field == "api_name" and info.value.line == 1
    assert "tool 'a' + API 'b::c' and tool 'a::b' + API 'c'" in str(info.value)
    assert "both make the item id 'a::b::c'" in str(info.value)


def test_a_fractional_beir_score_is_refused(store: Store, tmp_path: Path) -> None:
    root = tmp_path / "beir"
    (root / "qrels").mkdir(parents=True)
    (root / "corpus.jsonl").write_text(
        '{"_id": "d1", "text": "merge"}\n{"_id": "d2", "text": "x"}\n'
    )
    (root / "queries.jsonl").write_text('{"_id": "q1", "text": "merge"}\n')
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0.4\n")
    with pytest.raises(InputError) as info:
        load_beir(store, root)
    assert (info.value.line, info.value.field) == (3, "score")
    assert "score '0.4' is not a whole number" in str(info.value)


def test_imports_name_the_slot_that_is_not_the_querys(store: Store, tmp_path: Path) -> None:
    load_plain(store, *_plain(tmp_path, [{"query_id": "q1", "item_id": i} for i in ("t1", "t2")]),
               name="b")  # fmt: skip
    combos = tmp_path / "c.jsonl"
    combos.write_text('{"query_id": "q1", "combo_id": 1, "item_id": "t2"}\n')
    with pytest.raises(InputError) as info:
        import_combinations(store, combos, benchmark="b")
    assert (info.value.line, info.value.field) == (1, "slot")
    assert "combination 1 of query 'q1' leaves slot(s) [1] empty" in str(info.value)
    run = tmp_path / "r.csv"
    run.write_text("query_id,slot,item_id,score\nq1,0,t1,1\nq1,-1,t2,0.5\n")
    with pytest.raises(InputError) as info:
        import_run(store, run, run="r", benchmark="b", level="subquery")
    assert (info.value.line, info.value.field) == (3, "slot")
    assert "slot -1 is no sub-query of query 'q1': it has 2 ground-truth tool(s)" in str(info.value)
