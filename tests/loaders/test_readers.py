from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from toolex.errors import InputError
from toolex.loaders.readers import read_json_array, read_jsonl, read_parquet, read_records


def test_json_array_records_know_their_line(tmp_path: Path) -> None:
    f = tmp_path / "a.json"
    f.write_text('[\n  {"id": 1},\n\n  {"id": 2,\n   "x": [1, 2]}\n]\n', encoding="utf-8")
    assert read_json_array(f) == [({"id": 1}, 2), ({"id": 2, "x": [1, 2]}, 4)]


def test_json_array_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    f = tmp_path / "a.json"
    f.write_text('[\n  {"id": 1},\n  {"id" 2}\n]\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_json_array(f)
    assert exc.value.line == 3
    assert "line 3, column 9" in str(exc.value)  # the '2' where ':' was expected
    assert str(f) in str(exc.value)


def test_json_array_missing_comma(tmp_path: Path) -> None:
    f = tmp_path / "a.json"
    f.write_text('[{"id": 1}\n {"id": 2}]', encoding="utf-8")
    with pytest.raises(InputError, match="line 2, column 2: expected ',' or ']'"):
        read_json_array(f)


def test_json_array_empty_and_jsonl_fallback(tmp_path: Path) -> None:
    f = tmp_path / "a.json"
    f.write_text("[ ]", encoding="utf-8")
    assert read_json_array(f) == []
    f.write_text('{"a": 1}\n{"a": 2}\n', encoding="utf-8")  # Hugging Face JSON Lines named .json
    assert read_json_array(f) == [({"a": 1}, 1), ({"a": 2}, 2)]


def test_jsonl_error_names_line(tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    f.write_text('{"a": 1}\n\n{"a": }\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_jsonl(f)
    assert exc.value.line == 3


def test_non_utf8_names_byte_offset_and_line(tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    f.write_bytes(b'{"a": "ok"}\n{"a": "caf\xe9"}\n')
    with pytest.raises(InputError) as exc:
        read_records(f)
    assert exc.value.line == 2
    assert "byte offset 22" in str(exc.value)  # 12 bytes of line 1, then {"a": "caf


def test_bom_is_ignored(tmp_path: Path) -> None:
    f = tmp_path / "a.json"
    f.write_bytes(b'\xef\xbb\xbf[{"a": 1}]')
    assert read_json_array(f) == [({"a": 1}, 1)]


def test_parquet_rows_are_numbered(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    f = tmp_path / "a.parquet"
    pq.write_table(pa.table({"id": ["x", "y"]}), f)
    assert read_parquet(f) == [({"id": "x"}, 1), ({"id": "y"}, 2)]


def test_unknown_suffix(tmp_path: Path) -> None:
    f = tmp_path / "a.xml"
    f.write_text("<a/>")
    with pytest.raises(InputError, match="unknown file type"):
        read_records(f)


OBJECT = '{\n  "items": [\n    {"id": "a", "text": "x"}\n  ]\n}\n'


@pytest.mark.parametrize(
    "read", [read_records, read_json_array, lambda p: read_json_array(p, lines_json=False)]
)
def test_a_json_file_holding_one_object_says_so(
    tmp_path: Path, read: Callable[[Path], object]
) -> None:
    """Issue 25, point 11: it was "malformed JSON line (column 1)"."""
    f = tmp_path / "tools.json"
    f.write_text(OBJECT, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(f)
    message = str(exc.value)
    assert message.startswith(f"{f}: the file holds one top-level JSON object")
    assert "not supported" in message and "JSON array" in message and "JSON Lines" in message
    assert "malformed" not in message


def test_a_one_line_object_wrapping_the_records_says_so(tmp_path: Path) -> None:
    """json.dump writes {"items": [...]} on one line, which read as JSON Lines passed for one
    record and failed later as "field 'id': missing required field"."""
    f = tmp_path / "tools.json"
    f.write_text('{"items": [{"id": "a", "text": "b"}], "meta": {}}\n', encoding="utf-8")
    for read in (read_records, read_json_array):
        with pytest.raises(InputError, match="tools.json: the file holds one top-level JSON"):
            read(f)
    # one record on one line (an id beside its lists of objects) is still a record
    f.write_text('{"id": "a", "parameters": [{"name": "x"}]}\n', encoding="utf-8")
    assert read_records(f) == [({"id": "a", "parameters": [{"name": "x"}]}, 1)]
    f.write_text('{"items": [{"id": "a"}]}\n{"items": []}\n', encoding="utf-8")
    assert [line for _, line in read_records(f)] == [1, 2]  # two lines are JSON Lines


def test_a_jsonl_file_holding_one_document_says_so(tmp_path: Path) -> None:
    f = tmp_path / "labels.jsonl"
    for text in (OBJECT, '[\n  {"id": "a"},\n  {"id": "b"}\n]\n'):
        f.write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match=r"labels.jsonl: the file holds one JSON document"):
            read_jsonl(f)


def test_a_malformed_file_starting_with_a_brace_is_still_located(tmp_path: Path) -> None:
    f = tmp_path / "a.json"
    f.write_text('{"id": 1}\n{"id" 2}\n', encoding="utf-8")  # JSON Lines with a bad line 2
    with pytest.raises(InputError, match="malformed JSON line") as exc:
        read_json_array(f)
    assert exc.value.line == 2
