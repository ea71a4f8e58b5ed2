"""Plain TREC files scored in place (toolex.runs.plain): DuckDB reads them into the same rows,
in the same order, as the reference path (every file through the one run and qrels reader), so
the scores are the same to the bit; any file that is not plain takes the reference path whole,
with its notes and its first error (file, line, field)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from toolex.api.evaluate import Scoring, score
from toolex.errors import InputError, ToolexError
from toolex.metrics.records import MeanScore
from toolex.runs import direct, plain
from toolex.runs.direct import QRELS_BENCHMARK, _reference_scoring, direct_scoring
from toolex.runs.plain import plain_scoring
from toolex.store import Store

TABLES = ("benchmarks", "queries", "qrels", "runs", "run_results")
STAND_INS = (*TABLES, "subquery_results", "expansions", "subqueries", "combinations",
             "combination_items")  # fmt: skip
METRICS = ["nDCG@10", "R@10", "Comp@10", "P@5", "RR", "AP@10", "nDCG@3"]


def write_files(
    tmp_path: Path, seed: int, sep: str = " ", end: str = "\n"
) -> tuple[Path, list[Path]]:
    """A qrels file and two run files of ties-heavy random scores, with judged queries the runs
    skip and run queries the qrels lack; ``sep`` between fields, ``end`` after each line."""
    rng = random.Random(seed)
    items = [f"tool_{i}" for i in range(40)]
    qrels: list[str] = []
    runs: list[list[str]] = [[], []]
    for q in range(60):
        judged = rng.sample(items, rng.randint(1, 4))
        qrels += [sep.join([f"q{q}", "0", d, str(rng.choice([-1, 0, 1, 1, 2]))]) for d in judged]
        for lines in runs:
            if rng.random() < 0.1:
                continue  # a judged query the run skips: scored 0
            for rank, d in enumerate(rng.sample(items, rng.randint(1, 15)), 1):
                lines.append(sep.join([f"q{q}", "Q0", d, str(rank), rng.choice(SCORES), "r"]))
    runs[1] += [sep.join(["nope", "Q0", "tool_1", "1", "1.5", "r"])]  # unknown: skipped
    paths = [tmp_path / "test.qrels", tmp_path / "a.run", tmp_path / "b" / "a.run"]
    paths[2].parent.mkdir(exist_ok=True)
    for path, lines in zip(paths, [qrels, *runs], strict=True):
        path.write_text("".join(line + end for line in lines))
    return paths[0], paths[1:]


SCORES = ["1", "0.5", "0.25", "2", "1e-3", "+3.5", ".75", "7.", "0", "10E2", "0.1", "3.25"]


def table_rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    for table in TABLES:
        cols = [r[0] for r in store.con.execute(f"DESCRIBE {table}").fetchall()]
        cols = [c for c in cols if c not in ("created_at", "loaded_at", "revision")]
        out[table] = store.con.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall()
    return out


Scores = tuple[list[MeanScore], list[dict[str, Any]], dict[str, int]]


def scored(store: Store, run_ids: list[str]) -> Scores:
    got = score(store, run_ids, Scoring(metrics=METRICS, per_query=True))
    return got.rows, got.queries, got.coverage


def both(
    qrels: Path, runs: list[Path]
) -> tuple[
    tuple[dict[str, list[tuple[Any, ...]]], tuple[Any, ...], list[str]],
    tuple[dict[str, list[tuple[Any, ...]]], tuple[Any, ...], list[str]],
]:
    """(rows, scores, notes) the plain path stores, and the same of the reference path."""
    names = direct._run_names(runs)
    plain = plain_scoring(qrels, runs, names, QRELS_BENCHMARK)
    assert plain is not None
    store, notes = plain
    with store:
        fast = table_rows(store), scored(store, names), notes
    with _reference_scoring(runs, qrels, None, None, "auto") as ref:
        slow = table_rows(ref.store), scored(ref.store, ref.run_ids), ref.notes
    return fast, slow


@pytest.mark.parametrize(
    ("sep", "end"),
    [(" ", "\n"), ("\t", "\n"), (" \t  ", "\r\n"), ("  ", "\n\n  \t\n")],
    ids=["single-spaced", "tabs", "mixed-crlf", "blank-lines"],
)
def test_plain_files_store_the_reference_rows_and_scores(
    tmp_path: Path, sep: str, end: str
) -> None:
    qrels, runs = write_files(tmp_path, seed=len(sep) + len(end), sep=sep, end=end)
    fast, slow = both(qrels, runs)
    assert fast[0] == slow[0]  # every row of every table, in the same order
    assert fast[1] == slow[1]  # every mean and per-query score, ==: to the bit
    assert fast[2] == slow[2] == ["a-2: skipped 1 result(s) of 1 unknown query id(s)"]
    assert [r[0] for r in fast[0]["runs"]] == ["a", "a-2"]
    assert len(fast[0]["qrels"]) > 60 and len(fast[0]["run_results"]) > 500


def test_the_scratch_store_runs_on_one_thread() -> None:
    # a few MB of files: a second thread only added hand-over CPU (benchmarks/bench_startup.py)
    with Store.scratch() as store:
        assert store.con.execute("SELECT current_setting('threads')").fetchall() == [(1,)]


def test_the_stand_ins_are_typed_as_the_schema(tmp_path: Path) -> None:
    qrels, runs = write_files(tmp_path, seed=1)
    plain = plain_scoring(qrels, runs, ["a", "b"], QRELS_BENCHMARK)
    assert plain is not None
    with plain[0] as store, Store.memory() as full:
        for table in STAND_INS:
            mine = [r[:2] for r in store.con.execute(f"DESCRIBE {table}").fetchall()]
            schema = dict(r[:2] for r in full.con.execute(f"DESCRIBE {table}").fetchall())
            assert mine and all(schema.get(col) == kind for col, kind in mine), table
            if table != "subqueries":  # the existence checks read four of its columns
                assert [c for c, _ in mine] == list(schema), table


def test_scores_parse_as_python_float_does(tmp_path: Path) -> None:
    """A score of trec_eval's grammar is the same double in DuckDB as float() makes of it."""
    rng = random.Random(7)
    digits = "0123456789"
    texts = ["1e-400", "4.9e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
             "0.1000000000000000055511151231257827", "00.5", "+.5", "9007199254740993"]  # fmt: skip
    for _ in range(400):
        mant = "".join(rng.choice(digits) for _ in range(rng.randint(1, 25)))
        point = rng.randint(0, len(mant))
        text = mant[:point] + "." + mant[point:] if rng.random() < 0.8 else mant
        if rng.random() < 0.5:
            text += f"e{rng.choice('+-')}{rng.randint(0, 330)}"
        texts.append(rng.choice(["", "-", "+"]) + text)
    # finite, and no negative zero: those are the reference path's (test below)
    texts = [t for t in texts if math.isfinite(float(t)) and (float(t) != 0 or t[0] != "-")]
    (tmp_path / "q").write_text("q 0 d 1\n")
    run = tmp_path / "r"
    run.write_text("".join(f"q Q0 d{i} 1 {t} r\n" for i, t in enumerate(texts)))
    plain = plain_scoring(tmp_path / "q", [run], ["r"], QRELS_BENCHMARK)
    assert plain is not None
    with plain[0] as store:
        got = dict(store.con.execute("SELECT item_id, score FROM run_results").fetchall())
    assert len(got) == len(texts) > 300
    for i, text in enumerate(texts):
        assert got[f"d{i}"].hex() == float(text).hex(), text


NOT_PLAIN: dict[str, tuple[str, str | bytes, str | None]] = {
    # file, its text, what the reference path says (None: it scores; notes compared)
    "a duplicated doc": (
        "run", "q1 Q0 a 1 2 r\nq1 Q0 b 2 1 r\nq1 Q0 a 3 0.5 r\n",
        "run.trec:3, field 'item_id': item 'a' is listed twice for query 'q1' (first at line 1)",
    ),
    "a bad score": ("run", "q1 Q0 a 1 2 r\nq1 Q0 b 2 1,5 r\n", "run.trec:2, field 'score': "
                    "score '1,5' is not a number (or not a finite one)"),
    "an infinite score": ("run", "q1 Q0 a 1 1e999 r\n", "score '1e999' is not a number"),
    "nan": ("run", "q1 Q0 a 1 nan r\n", "score 'nan' is not a number"),
    "five fields": ("run", "q1 Q0 a 1 2 r\nq1 Q0 b 2 1\n",
                    "run.trec:2: expected 6 columns 'qid Q0 docid rank score tag', found 5"),
    "an empty run file": ("run", "", "run.trec: the run file holds no results"),
    "a blank run file": ("run", "\n \t\n", "run.trec: the run file holds no results"),
    "not UTF-8": ("run", b"q1 Q0 \xff 1 2 r\n", "run.trec:1"),
    "an escaped id": ("run", "q1 Q0 a%20b 1 2 r\n", None),
    "a non-ASCII id": ("run", "q1 Q0 \u00e9t\u00e9 1 2 r\n", None),
    "a negative zero": ("run", "q1 Q0 a 1 -0 r\nq1 Q0 b 1 0 r\n", None),
    "a vertical tab": ("run", "q1 Q0 a 1 2\x0br\n", None),
    "a repeated judgment": ("qrels", "q1 0 a 1\nq1 0 a 2\n", None),
    "a fractional relevance": ("qrels", "q1 0 a 1.5\n", "qrels.trec:1, query id q1, field "
                               "'score': score '1.5' is not a whole number"),
    "a qrels header": ("qrels", "qid 0 docid 1\nq1 0 a 1\n", None),
    "BEIR columns": ("qrels", "q1\ta\t1\n", None),
    "an empty qrels file": ("qrels", "", None),
}  # fmt: skip


@pytest.mark.parametrize("case", list(NOT_PLAIN))
def test_files_not_plain_take_the_reference_path(tmp_path: Path, case: str) -> None:
    which, text, error = NOT_PLAIN[case]
    files: dict[str, str | bytes] = {
        "qrels": "q1 0 a 1\nq1 0 b 0\nq2 0 c 2\n",
        "run": "q1 Q0 a 1 2 r\nq2 Q0 c 1 1 r\n",
    }
    files[which] = text
    qrels, run = tmp_path / "qrels.trec", tmp_path / "run.trec"
    for path, content in ((qrels, files["qrels"]), (run, files["run"])):
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    assert plain_scoring(qrels, [run], ["run"], QRELS_BENCHMARK) is None
    if error is not None:
        with pytest.raises(InputError) as caught, direct_scoring([run], qrels_file=qrels):
            pass
        assert error in str(caught.value)
        with (
            pytest.raises(InputError) as again,
            _reference_scoring([run], qrels, None, None, "auto"),
        ):
            pass
        assert str(again.value) == str(caught.value)
        return
    try:
        with _reference_scoring([run], qrels, None, None, "auto") as ref:
            want = table_rows(ref.store), scored(ref.store, ref.run_ids), ref.notes
    except ToolexError as exc:  # an empty qrels file: nothing to load
        with pytest.raises(ToolexError) as failed, direct_scoring([run], qrels_file=qrels):
            pass
        assert str(failed.value) == str(exc)
        return
    with direct_scoring([run], qrels_file=qrels) as got:
        assert (table_rows(got.store), scored(got.store, got.run_ids), got.notes) == want


def test_a_glob_in_a_path_is_read_as_a_name(tmp_path: Path) -> None:
    """DuckDB's read_text would expand [ab] as a pattern: such a file goes the reference way."""
    qrels, run = tmp_path / "q[ab].trec", tmp_path / "run.trec"
    qrels.write_text("q1 0 a 1\n")
    run.write_text("q1 Q0 a 1 2 r\n")
    (tmp_path / "qa.trec").write_text("q9 0 z 1\n")
    assert plain_scoring(qrels, [run], ["run"], QRELS_BENCHMARK) is None
    with direct_scoring([run], qrels_file=qrels) as got:
        assert got.store.runs() == ["run"]
        assert scored(got.store, ["run"])[0][0].old == 1.0


def test_a_large_file_takes_the_reference_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past MAX_BYTES the reference reader is the cheaper one (toolex.runs.plain)."""
    qrels, runs = write_files(tmp_path, seed=3)
    monkeypatch.setattr(plain, "MAX_BYTES", max(p.stat().st_size for p in runs) - 1)
    assert plain_scoring(qrels, runs, ["a", "b"], QRELS_BENCHMARK) is None
    monkeypatch.setattr(plain, "MAX_BYTES", max(p.stat().st_size for p in runs))
    got = plain_scoring(qrels, runs, ["a", "b"], QRELS_BENCHMARK)
    assert got is not None
    got[0].close()
