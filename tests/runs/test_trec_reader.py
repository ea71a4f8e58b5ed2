"""Issue 11: the TREC reader works a column at a time in Arrow, and reads every file exactly as
the line-at-a-time reader it replaced did: the same rows, the same ids and scores to the bit,
and the same first error (file, line, message)."""

from __future__ import annotations

import math
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from toolex.errors import InputError
from toolex.loaders.readers import read_text
from toolex.loaders.trec_ids import trec_escape, trec_unescape
from toolex.runs import trec
from toolex.runs.formats import RESULT_SCHEMA, read_run
from toolex.runs.trec import UNICODE_SPACE, _Fields

PY_SPACE = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
_SCORE = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)


def per_line(path: str | Path) -> pa.Table:
    """The reader before issue 11, the reference (its error wording is the shipped one)."""
    qids, dids, scores, lines = [], [], [], []
    for lineno, line in enumerate(read_text(path).split("\n"), start=1):
        cols = line.split()
        if not cols:
            continue
        if len(cols) != 6:
            raise InputError(
                f"expected 6 columns 'qid Q0 docid rank score tag', found {len(cols)}",
                path=str(path),
                line=lineno,
            )
        value = float(cols[4]) if _SCORE.fullmatch(cols[4]) else math.nan
        if not math.isfinite(value):
            shown = cols[4] if len(cols[4]) <= 40 else cols[4][:40] + "..."
            raise InputError(
                f"score {shown!r} is not a number (or not a finite one)",
                path=str(path),
                line=lineno,
                field="score",
            )
        qids.append(trec_unescape(cols[0]))
        dids.append(trec_unescape(cols[2]))
        scores.append(value)
        lines.append(lineno)
    n = len(qids)
    return pa.table(
        {"query_id": qids, "item_id": dids, "score": scores, "slot": [None] * n, "line": lines},
        schema=RESULT_SCHEMA,
    )


def outcome(
    read: Callable[[Path], pa.Table], path: Path
) -> pa.Table | tuple[str, int | None, str | None]:
    """The table ``read`` returns, or its error as (message, line, field)."""
    try:
        return read(path)
    except InputError as exc:
        return (str(exc), exc.line, exc.field)


def same_as_reference(path: Path) -> pa.Table | tuple[str, int | None, str | None]:
    want = outcome(per_line, path)
    got = outcome(lambda p: read_run(p, "trec"), path)
    if isinstance(want, pa.Table) and isinstance(got, pa.Table):
        assert got.equals(want)
        # to the bit, -0.0 and all
        assert got["score"].to_numpy().tobytes() == want["score"].to_numpy().tobytes()
    else:
        assert got == want
    return got


def same_table_as_reference(path: Path) -> pa.Table:
    got = same_as_reference(path)
    assert not isinstance(got, tuple), got
    return got


def same_error_as_reference(path: Path) -> tuple[str, int | None, str | None]:
    got = same_as_reference(path)
    assert isinstance(got, tuple), got
    return got


def test_arrow_splits_on_exactly_the_whitespace_python_splits_on() -> None:
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    # every string is built and compared in Arrow: 1.1 M lists as Python objects cost seconds
    c = pa.array(chars)
    lines = pc.utf8_trim_whitespace(pc.binary_join_element_wise(c, "a", c, c, "b", c, ""))
    widths = pc.list_value_length(pc.utf8_split_whitespace(lines)).to_numpy()
    arrow_space = {chars[i] for i in np.flatnonzero(widths == 2)}
    assert arrow_space == set(PY_SPACE)
    ascii_widths = pc.list_value_length(
        pc.ascii_split_whitespace(pa.array([f"a{chr(c)}b" for c in range(128)]))
    ).to_numpy()
    # the reader's ASCII kernels are used only on text without \x1c-\x1f
    assert {chr(c) for c in range(128) if ascii_widths[c] == 2} == {
        c for c in PY_SPACE if ord(c) < 128
    } - {"\x1c", "\x1d", "\x1e", "\x1f"}
    # ... and without the non-ASCII spaces, which the reader lists; every other character, ASCII
    # or not, the ASCII kernels keep inside its field (they split UTF-8 text byte by byte)
    assert {chr(c) for c in UNICODE_SPACE} == {c for c in PY_SPACE if ord(c) >= 128}
    o = pa.array([c for c in chars if ord(c) >= 128 and not c.isspace()])
    split = pc.ascii_split_whitespace(pc.binary_join_element_wise("a", o, " ", o, "b\t", o, ""))
    fields = [pc.binary_join_element_wise("a", o, ""), pc.binary_join_element_wise(o, "b", ""), o]
    n = len(o)
    row_by_row = np.stack([np.arange(n) + k * n for k in range(3)], axis=1).ravel()
    want = pa.ListArray.from_arrays(
        pa.array(np.arange(0, 3 * n + 1, 3), pa.int32()),
        pa.concat_arrays(fields).take(pa.array(row_by_row)),
    )
    assert split.equals(want)  # [["a" + c, c + "b", c] for each c]


def _random_file(rng: random.Random, unusual: bool) -> str:
    seps = [" ", "\t", "  ", " \t "] + (["\x1c", "\u00a0", "\u3000", "\x0b"] if unusual else [])
    ids = ["q1", "q 2", "tool%x", "Pack & Send::/api/", "a%41", "100%", "é t"]
    scores = ["1", "-0.5", ".5", "5.", "1e5", "-0", "0.1234", "1E-3", "+2"]
    out = ["\ufeff"] if rng.random() < 0.3 else []
    for _ in range(rng.randint(1, 40)):
        if rng.random() < 0.1:
            out.append(rng.choice(["", "   ", "\t"]) + "\n")
            continue
        cols = [trec_escape(rng.choice(ids)), "Q0", trec_escape(rng.choice(ids)), "1"]
        cols += [rng.choice(scores), "tag"]
        line = rng.choice(seps).join(cols)
        out.append(rng.choice(["", " "]) + line + rng.choice(["", " ", "\r"]) + "\n")
    return "".join(out)


@pytest.mark.parametrize("unusual", [False, True], ids=["ascii", "unicode-whitespace"])
def test_random_files_read_as_the_per_line_reader_read_them(tmp_path: Path, unusual: bool) -> None:
    rng = random.Random(11)
    path = tmp_path / "r.trec"
    rows = 0
    for _ in range(60):
        path.write_text(_random_file(rng, unusual), encoding="utf-8")
        rows += same_table_as_reference(path).num_rows
    assert rows > 500


BAD = {
    "five columns": "q Q0 d 1 0.5\n",
    "seven columns": "q Q0 d 1 0.5 t x\n",
    "a word for a score": "q Q0 d 1 high t\n",
    "an overflowing score": "q Q0 d 1 1e999 t\n",
    "nan": "q Q0 d 1 nan t\n",
    "infinity": "q Q0 d 1 -Infinity t\n",
    "hexadecimal": "q Q0 d 1 0x1p3 t\n",
    "two exponents": "q Q0 d 1 1e5e5 t\n",
    "fullwidth digit": "q Q0 d 1 \uff11 t\n",
    "underscored digits": "q Q0 d 1 1_000 t\n",
    "a long bad score": "q Q0 d 1 " + "9" * 30 + "x" * 30 + " t\n",
    "NBSP inside an id": "q Q0 d\u00a0e 1 0.5 t\n",
    "information separator inside an id": "q Q0 d\x1fe 1 0.5 t\n",
}


@pytest.mark.parametrize("bad", list(BAD))
def test_the_first_bad_line_is_the_error_in_file_order(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "r.trec"
    good = "q Q0 d0 1 0.5 t\n\n"
    other = "q Q0 d9 1 0.5 t x y\n" if "score" in bad else "q Q0 d9 1 bad t\n"
    path.write_text(good + BAD[bad] + other, encoding="utf-8")  # line 3 is wrong, then line 4
    assert same_error_as_reference(path)[1] == 3
    path.write_text(good + other + BAD[bad], encoding="utf-8")  # now line 3 is the other one
    assert same_error_as_reference(path)[1] == 3


def test_scores_parse_to_the_bit_as_float_does(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(3000) * 10.0 ** rng.integers(-300, 300, 3000)
    texts = [repr(float(v)) for v in x] + [f"{v:.17e}" for v in x[:500]] + [f"{v:.3f}" for v in x]
    texts += ["4.9e-324", "2.4e-324", "1.7976931348623157e308", "0." + "0" * 400 + "1"]
    path = tmp_path / "r.trec"
    path.write_text("".join(f"q Q0 d{i} 1 {t} t\n" for i, t in enumerate(texts)))
    same_as_reference(path)


@pytest.mark.parametrize("space", [chr(c) for c in UNICODE_SPACE], ids=lambda c: hex(ord(c)))
def test_a_non_ascii_space_anywhere_is_a_separator(tmp_path: Path, space: str) -> None:
    """A file of non-ASCII ids goes through Arrow's ASCII kernels unless it holds a space
    they do not know; one such character, last in the file or mid-line, must be seen."""
    path = tmp_path / "r.trec"
    lines = ["caf\u00e9 Q0 d\u00e9j\u00e0 1 0.5 t", "\u4e2d Q0 x 1 0.25 t"]
    path.write_text("\n".join(lines) + "\n" + f"q Q0 a{space}b 1 0.1 t", encoding="utf-8")
    assert same_error_as_reference(path)[1] == 3  # seven fields on line 3
    path.write_text("\n".join(lines) + f"\nq Q0 d 1 0.1 t{space}", encoding="utf-8")
    assert same_table_as_reference(path).num_rows == 3  # a trailing space ends the line


def test_ids_decode_once_per_distinct_id_as_trec_unescape_does(tmp_path: Path) -> None:
    ids = ["a b", "a%b", "x%2520y", "nb\u00a0sp", "t\tab", "%41", "100%", "%2", "%C2%A0%20"]
    lines = [f"{trec_escape(i)} Q0 {trec_escape(i)} 1 1 t" for i in ids for _ in range(3)]
    lines += ["a%41 Q0 %ZZ 1 1 t", "%20%20 Q0 %e2%80%83 1 1 t"]  # ours never, others may write
    path = tmp_path / "r.trec"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    same_as_reference(path)
    got = read_run(path, "trec")
    assert got["query_id"].to_pylist()[: 3 * len(ids) : 3] == ids


def test_not_utf8_and_missing_files_keep_their_located_errors(tmp_path: Path) -> None:
    path = tmp_path / "r.trec"
    path.write_bytes(b"q Q0 d 1 1 t\nq Q0 \xff 1 1 t\n")
    with pytest.raises(InputError, match="not UTF-8: byte 0xff at byte offset 18") as exc:
        read_run(path, "trec")
    assert exc.value.line == 2
    with pytest.raises(InputError, match="file not found"):
        read_run(tmp_path / "nope.trec", "trec")
    with pytest.raises(InputError, match="a folder, not a file"):
        read_run(tmp_path, "trec")
    path.write_text("\n \n")
    with pytest.raises(InputError, match="holds no results"):
        read_run(path, "trec")


def _single_spaced_file(rng: random.Random, ending: str) -> str:
    """A file as trec_eval writes one: six fields, one space, one newline (the last maybe not)."""
    ids = ["q1", "tool%x", "Pack%20&%20Send::/api/", "a%2541", "caf\u00e9", "\u4e2d\u6587", "x"]
    scores = ["1", "-0.5", ".5", "5.", "1e5", "-0", "0.1234", "1E-3", "+2", "-0.0"]
    lines = [
        f"{rng.choice(ids)} Q0 {rng.choice(ids)} {rank} {rng.choice(scores)} run"
        for rank in range(1, rng.randint(1, 30) + 1)
    ]
    if rng.random() < 0.2:  # a bad score: the first one is the error, on either path
        lines[rng.randrange(len(lines))] = "q Q0 d 1 1_0 run"
    return ("\ufeff" if rng.random() < 0.3 else "") + "\n".join(lines) + ending


@pytest.mark.parametrize("ending", ["\n", ""], ids=["newline-at-end", "no-newline-at-end"])
def test_single_spaced_files_are_read_without_a_split(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ending: str
) -> None:
    def no_split(*args: object) -> None:
        raise AssertionError("a single-spaced file went to Arrow's split")

    monkeypatch.setattr(trec, "_split", no_split)
    rng = random.Random(7)
    path = tmp_path / "r.trec"
    rows = 0
    for _ in range(60):
        path.write_text(_single_spaced_file(rng, ending), encoding="utf-8")
        got = same_as_reference(path)
        rows += got.num_rows if isinstance(got, pa.Table) else 0
    assert rows > 300


NEAR_MISSES = {  # single-spaced but for one thing: each must be split, and read as before
    "a tab": "q Q0 d 1 0.5\tt\n",
    "a carriage return": "q Q0 d 1 0.5 t\r\n",
    "two spaces": "q Q0  d 1 0.5 t\n",
    "two spaces, five fields": "q Q0  d 1 0.5\n",  # as many separators as a good line
    "a leading space, five fields": " q Q0 d 1 0.5\n",
    "a leading space": " q Q0 d 1 0.5 t\n",
    "a trailing space": "q Q0 d 1 0.5 t \n",
    "a trailing space at the end": "q Q0 d 1 0.5 t ",
    "a blank line": "\nq Q0 d 1 0.5 t\n",
    "an information separator": "q Q0 d\x1ce 1 0.5 t\n",
    "a control byte": "q Q0 d\x01e 1 0.5 t\n",
    "five fields": "q Q0 d 1 0.5\n",
    "seven fields": "q Q0 d 1 0.5 t x\n",
    "a no-break space": "q Q0 d\u00a0e 1 0.5 t\n",
}


@pytest.mark.parametrize("miss", list(NEAR_MISSES))
def test_a_file_not_single_spaced_is_split(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, miss: str
) -> None:
    calls: list[int] = []
    split = trec._split

    def counted(text: pa.LargeStringArray, ascii_kernels: bool) -> _Fields:
        calls.append(1)
        return split(text, ascii_kernels)

    monkeypatch.setattr(trec, "_split", counted)
    path = tmp_path / "r.trec"
    path.write_text("a Q0 b 1 0.25 t\n" + NEAR_MISSES[miss] + "c Q0 d 3 0.125 t\n")
    same_as_reference(path)
    assert calls == [1]
