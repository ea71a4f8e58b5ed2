"""Issue 37.10, inputs that loaded wrong with exit 0, through the real entry point: each attempt
ends in a one-line error naming file, line (or row) and field with the store's digest unchanged,
or, where accepting is right, in a counted note.

Decided per case:
* a Parquet candidate list or run whose ``slot`` or ``score`` is a text (or true/false) column:
  refused. Parquet is typed; a number written as text says the file was made wrong (columns
  swapped, a CSV round trip), and a cast would hide it. CSV and TREC are text and stay parsed.
* run ids holding a control character, as read or %-encoded in a TREC file (``%0A`` decodes to a
  newline, ``%00`` is a NUL): refused, as every load refuses such ids; they break each line- and
  tab-based file an id travels through.
* labels written ``1``/``0``, ``true``/``false`` or JSON ``true``/``false``: accepted, as the
  format has documented, since each reads one way and annotation tools export them, but counted
  in a note (by spelling), so none is read silently.
* a call chain with a cycle in a plain file: refused; a step cannot take its own output, even
  through others, and the dependency rule would check hand-offs that cannot happen.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from attacks.conftest import PLAIN, Ran, digest


def _refused(ran: Ran, *, path: Path, located: str, field: str, says: str) -> None:
    """One line on stderr, naming the file, its line or row, the field and the problem."""
    assert ran.exception is None, ran.exception
    assert ran.code == 2, (ran.code, ran.err)
    lines = [line for line in ran.err.splitlines() if line.strip()]
    assert len(lines) == 1, ran.err
    assert lines[0].startswith(f"error: {path}:{located}"), lines[0]
    assert f"field {field!r}" in lines[0] and says in lines[0], lines[0]


@pytest.fixture
def decomposed(bench_db: str, toolex: Callable[..., Ran]) -> str:
    """The fixture benchmark with sub-queries in expansion ``ext`` (s1: slots 0, 1; s2: 0)."""
    ran = toolex("expand", "--db", bench_db, "--benchmark", "plain", "--expansion", "ext",
                 "--stage", "decompose")  # fmt: skip
    assert ran.code == 0, ran.err
    return bench_db


def _candidates(path: Path, slot: pa.Array, score: pa.Array | None = None) -> Path:
    pq.write_table(
        pa.table({
            "query_id": ["s1", "s1", "s2"],
            "slot": slot,
            "item_id": ["pdf-merge", "pdf-split", "img-resize"],
            "score": score if score is not None else pa.array([0.9, 0.8, 0.7]),
        }),
        path,
    )  # fmt: skip
    return path


def test_load_candidates_refuses_a_parquet_slot_written_as_text(
    decomposed: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    before = digest(decomposed)
    bad = _candidates(tmp_path / "lists.parquet", pa.array(["0", "1", "0"]))
    ran = toolex("load", "candidates", str(bad), "--db", decomposed, "--benchmark", "plain",
                 "--expansion", "ext")  # fmt: skip
    _refused(ran, path=bad, located="1", field="slot", says="the Parquet column is string, "
             "not an integer (first value '0')")  # fmt: skip
    assert digest(decomposed) == before
    good = _candidates(tmp_path / "ok.parquet", pa.array([0, 1, 0], pa.int64()))
    ran = toolex("load", "candidates", str(good), "--db", decomposed, "--benchmark", "plain",
                 "--expansion", "ext")  # fmt: skip
    assert ran.code == 0, ran.err


def _run_import(toolex: Callable[..., Ran], db: str, path: Path, *extra: str) -> Ran:
    return toolex("runs", "import", str(path), "--db", db, "--benchmark", "plain", "--run", "r",
                  *extra)  # fmt: skip


def test_runs_import_refuses_parquet_scores_written_as_text(
    bench_db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    before = digest(bench_db)
    bad = tmp_path / "run.parquet"
    pq.write_table(pa.table({"query_id": ["s1", "s2"], "item_id": ["pdf-merge", "img-resize"],
                             "score": ["0.9", "0.7"]}), bad)  # fmt: skip
    _refused(_run_import(toolex, bench_db, bad), path=bad, located="1", field="score",
             says="the Parquet column is string, not a number (first value '0.9')")  # fmt: skip
    assert digest(bench_db) == before
    flags = tmp_path / "flags.parquet"
    pq.write_table(pa.table({"query_id": ["s1"], "item_id": ["pdf-merge"], "score": [True]}), flags)
    _refused(_run_import(toolex, bench_db, flags), path=flags, located="1", field="score",
             says="the Parquet column is bool, not a number")  # fmt: skip
    assert digest(bench_db) == before
    text = tmp_path / "run.csv"  # CSV is text: its numbers are parsed, as always
    text.write_text("query_id,item_id,score\ns1,pdf-merge,0.9\ns2,img-resize,0.7\n")
    assert _run_import(toolex, bench_db, text).code == 0


@pytest.mark.parametrize(
    ("name", "content", "located", "field", "says"),
    [
        ("newline.trec", "s1 Q0 pdf-merge 1 0.9 t\ns2 Q0 img%0Aresize 1 0.7 t\n", "2",
         "item_id", "holds the control character '\\n' at position 3"),
        ("nul.trec", "s1 Q0 pdf%00merge 1 0.9 t\n", "1", "item_id",
         "holds %00, an encoded control character"),
        ("query.trec", "s1 Q0 pdf-merge 1 0.9 t\ns%0A2 Q0 img-resize 1 0.7 t\n", "2",
         "query_id", "holds the control character '\\n'"),
        ("bell.csv", "query_id,item_id,score\ns1,pdf\amerge,0.9\n", "2", "item_id",
         "holds the control character '\\x07'"),
    ],
)  # fmt: skip
def test_runs_import_refuses_ids_holding_control_characters(
    bench_db: str,
    tmp_path: Path,
    toolex: Callable[..., Ran],
    name: str,
    content: str,
    located: str,
    field: str,
    says: str,
) -> None:
    before = digest(bench_db)
    path = tmp_path / name
    path.write_text(content)
    _refused(_run_import(toolex, bench_db, path), path=path, located=located, field=field,
             says=says)  # fmt: skip
    assert digest(bench_db) == before


def test_runs_import_refuses_a_nul_in_a_toolret_json_id(
    bench_db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    before = digest(bench_db)
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"s1": {"pdf\u0000merge": 0.9}}))
    ran = _run_import(toolex, bench_db, path)
    assert ran.code == 2 and len(ran.err.strip().splitlines()) == 1, ran.err
    assert ran.err.startswith(f"error: {path}, query id s1, field 'item_id': id ")
    assert "holds the control character '\\x00'" in ran.err
    assert digest(bench_db) == before


def test_labels_written_as_booleans_or_numbers_are_read_and_counted(
    bench_db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    path = tmp_path / "labels.jsonl"
    records = [
        ("s1", "pdf-merge", "pdf-split", 1),
        ("s1", "pdf-merge", "img-resize", "true"),
        ("s2", "img-resize", "pdf-merge", True),
        ("s2", "img-resize", "pdf-split", "no"),
    ]
    path.write_text("".join(
        json.dumps({"benchmark": "plain", "query_id": q, "reference": r, "candidate": c,
                    "label": label}) + "\n"
        for q, r, c, label in records
    ))  # fmt: skip
    ran = toolex("labels", "import", str(path), "--db", bench_db)
    assert ran.code == 0, ran.err
    assert ("note: 3 label(s) not written yes/no were read as yes/no (1 as 'true', 1 as JSON "
            "true/false, 1 as the number 1/0)") in ran.err, ran.err  # fmt: skip
    assert "imported 4 labels (3 yes, 1 no)" in ran.err


@pytest.mark.parametrize(
    ("queries", "field", "cycle"),
    [
        ({"id": "s1", "text": "merge then split", "labels": ["pdf-merge", "pdf-split"],
          "dependencies": [{"from": 0, "to": 1}, {"from": "pdf-split", "to": "pdf-merge"}]},
         "dependencies", "slots 0 -> 1 -> 0"),
        ({"id": "s1", "text": "merge, split, resize", "labels": [
            {"id": "pdf-merge", "from": [2]}, {"id": "pdf-split", "from": [0]},
            {"id": "img-resize", "from": [1]}]}, "labels.from", "slots 2 -> 0 -> 1 -> 2"),
    ],
)  # fmt: skip
def test_a_cycle_in_a_plain_call_chain_is_refused(
    bench_db: str,
    tmp_path: Path,
    toolex: Callable[..., Ran],
    queries: dict[str, object],
    field: str,
    cycle: str,
) -> None:
    before = digest(bench_db)
    path = tmp_path / "queries.jsonl"
    path.write_text(json.dumps(queries) + "\n")
    ran = toolex("load", "plain", "--db", bench_db, "--name", "chain", "--items",
                 str(PLAIN / "items.jsonl"), "--queries", str(path))  # fmt: skip
    _refused(ran, path=path, located="1", field=field,
             says=f"the call chain of query 's1' has a cycle ({cycle})")  # fmt: skip
    assert digest(bench_db) == before
