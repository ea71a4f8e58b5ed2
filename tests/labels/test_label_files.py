"""Label files: every malformed field is an error naming file, line and field; yes/no spellings
are normalised; JSONL and CSV write and read back the same labels; the record mirrors the DDL."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from toolex.errors import InputError
from toolex.labels.records import FIELDS, Label, LabelErrors, read_labels, write_labels
from toolex.store import Store

SMALL = Path(__file__).parent / "data" / "small.jsonl"
GOOD = {
    "benchmark": "b",
    "query_id": "q1",
    "reference": "wx_a::forecast",
    "candidate": "wx_b::forecast",
    "label": "yes",
}


def write_jsonl(path: Path, records: Sequence[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def only_error(path: Path, **kwargs: str) -> InputError:
    with pytest.raises(LabelErrors) as exc:
        read_labels(path, **kwargs)
    assert len(exc.value.errors) == 1, exc.value
    return exc.value.errors[0]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"benchmark": None}, "benchmark", "missing required field"),
        ({"query_id": None}, "query_id", "missing required field"),
        ({"query_id": ["q1"]}, "query_id", "expected a string"),
        ({"reference": ""}, "reference", "missing required field"),
        ({"candidate": None}, "candidate", "missing required field"),
        ({"candidate": "wx_a::forecast"}, "candidate", "the candidate is the reference itself"),
        ({"label": None}, "label", "missing required field"),
        ({"label": "maybe"}, "label", "expected yes or no"),
        ({"label": 2}, "label", "expected yes or no"),
        ({"slot": "first"}, "slot", "expected an integer"),
        ({"slot": -1}, "slot", "a slot is 0 or more"),
        ({"subquery": 3.5}, "subquery", "expected a string"),
        ({"note": {"a": 1}}, "note", "expected a string"),
        ({"stratum": "{not json"}, "stratum", "not JSON"),
        ({"stratum": [1, 2]}, "stratum", "expected a JSON object"),
    ],
)
def test_each_malformed_field_is_a_located_error(
    tmp_path: Path, change: dict[str, object], field: str, message: str
) -> None:
    path = write_jsonl(tmp_path / "l.jsonl", [GOOD, {**GOOD, "candidate": "cv2::c2f", **change}])
    err = only_error(path)
    assert (err.path, err.line, err.field) == (str(path), 2, field)
    assert message in err.message
    assert f"{path}:2" in str(err)


def test_all_problems_of_a_file_are_reported_together(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "l.jsonl",
        [GOOD, {**GOOD, "label": "maybe"}, "not an object", {**GOOD, "candidate": None}, GOOD],
    )
    with pytest.raises(LabelErrors) as exc:
        read_labels(path)
    assert [(e.line, e.field) for e in exc.value.errors] == [
        (2, "label"),
        (3, None),
        (4, "candidate"),
        (5, "candidate"),  # GOOD again: labelled twice in one source
    ]
    assert "first at line 1" in exc.value.errors[-1].message
    assert "4 problem(s)" in str(exc.value) and "nothing was imported" in str(exc.value)


def test_malformed_json_and_empty_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(GOOD) + "\n{oops\n", encoding="utf-8")
    with pytest.raises(Exception, match=r"bad.jsonl:2.*malformed JSON"):
        read_labels(bad)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    assert "no labels in the file" in str(only_error(empty))


@pytest.mark.parametrize(
    ("given", "normalised"),
    [("yes", "yes"), ("YES", "yes"), ("true", "yes"), ("1", "yes"), (True, "yes"), (1, "yes")]
    + [("no", "no"), ("False", "no"), ("0", "no"), (False, "no"), (0, "no"), (0.0, "no")],
)
def test_label_spellings_are_normalised(tmp_path: Path, given: object, normalised: str) -> None:
    path = write_jsonl(tmp_path / "l.jsonl", [{**GOOD, "label": given}])
    [(label, _)], _ = read_labels(path)
    assert label.label == normalised


def test_defaults_source_and_benchmark(tmp_path: Path) -> None:
    rec = {k: v for k, v in GOOD.items() if k != "benchmark"}
    path = write_jsonl(
        tmp_path / "mine.jsonl", [rec, {**rec, "candidate": "cv2::c2f", "source": "s2"}]
    )
    read, notes = read_labels(path, benchmark="b")
    assert [(lab.source, lab.benchmark, lab.labeller) for lab, _ in read] == [
        ("mine.jsonl", "b", "unknown"),
        ("s2", "b", "unknown"),
    ]
    assert notes == []
    forced, _ = read_labels(path, benchmark="b", source="mine")
    assert {lab.source for lab, _ in forced} == {"mine"}
    other = write_jsonl(tmp_path / "o.jsonl", [{**GOOD, "benchmark": "c"}])
    err = only_error(other, benchmark="b")
    assert "--benchmark 'b'" in err.message


def test_unknown_fields_are_ignored_with_a_note(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "l.jsonl", [{**GOOD, "score": 0.3, "lable": "x"}])
    _, notes = read_labels(path)
    assert notes == ["ignored unknown field(s): lable, score"]


def test_csv_errors_name_the_line_a_record_starts_on(tmp_path: Path) -> None:
    path = tmp_path / "l.csv"
    path.write_text(
        "benchmark,query_id,reference,candidate,label,note\n"
        'b,q1,wx_a::forecast,wx_b::forecast,yes,"a note\nover two lines"\n'
        "b,q1,wx_a::forecast,cv2::c2f,perhaps,\n",
        encoding="utf-8",
    )
    err = only_error(path)
    assert (err.line, err.field) == (4, "label")
    header = tmp_path / "h.csv"
    header.write_text("benchmark,query,reference,candidate,label\n", encoding="utf-8")
    with pytest.raises(Exception, match=r"h.csv:1.*lacks the column\(s\) query_id"):
        read_labels(header)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_write_then_read_gives_the_same_labels(tmp_path: Path, fmt: str) -> None:
    read, _ = read_labels(SMALL)
    labels = [label for label, _ in read]
    out = tmp_path / f"out.{fmt}"
    assert write_labels(out, labels) == 7
    again, _ = read_labels(out)
    assert [label for label, _ in again] == labels
    assert labels[3].label == "yes" and labels[4].label == "yes" and labels[6].label == "no"
    assert labels[5].slot is None and labels[5].subquery is None and labels[6].note is None


def test_the_record_mirrors_the_labels_table(store: Store) -> None:
    columns = [r[0] for r in store.con.execute("DESCRIBE labels").fetchall()]
    assert columns == [*FIELDS, "labelled_at"]
    assert list(Label.__dataclass_fields__) == columns
