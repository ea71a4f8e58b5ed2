"""toolex.cli.plain_table writes, without rich, the bytes rich writes for the same table: both
writers print generated tables (text and numbers, NULLs, no rows, titles that fit over the
table or wrap above it, footers, widths 40 to 120) and the outputs must be equal; and where the
plain writer declines (a table too wide, text past ASCII), rich writes it."""

from __future__ import annotations

import os
import random

import pytest

from toolex.cli import plain_table, tables

WORDS = ["run", "bm25", "e5", "all", "code", "web", "nDCG@10", "R@10", "avg (category mean)",
         "queries_with_alternative", "x", "a-b", "tool:v2", "[/INST]", "  spaced  "]  # fmt: skip
NAMES = ["run", "category", "metric", "k", "old", "new", "gain", "n_queries", "n_no_results",
         "queries_with_alternative_tools", "id"]  # fmt: skip


def _value(rng: random.Random, kind: str) -> object:
    if rng.random() < 0.1:
        return None
    if kind == "int":
        return rng.choice([0, 7, 2098, -3, 10**12])
    if kind == "float":
        return rng.choice([0.0, 0.486156, 1.0, 1e-06, 123456.789, -0.5, float("nan")])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "long":
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
    return rng.choice(WORDS)


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS + ["(k 10, n_no_results 0)", "scored", "0;"])
                    for _ in range(words))  # fmt: skip


def _table(rng: random.Random) -> tuple[list[str], list[list[object]], str | None, str | None]:
    n = rng.randint(1, 7)
    columns = [rng.choice(NAMES) for _ in range(n)]
    kinds = [rng.choice(["int", "float", "bool", "text", "long"]) for _ in range(n)]
    rows = [[_value(rng, k) for k in kinds] for _ in range(rng.choice([0, 1, 2, 5, 12]))]
    title = rng.choice([None, "", _sentence(rng, 2), _sentence(rng, 8), _sentence(rng, 30)])
    footer = rng.choice([None, None, _sentence(rng, 3), _sentence(rng, 25)])
    if rng.random() < 0.05:  # text past ASCII, or a control character: rich's to write
        rows = [[*r[:-1], "ü"] for r in rows] or [["✓" for _ in columns]]
        title = title and title + "\x1b[2J"
    return columns, rows, title, footer


@pytest.mark.parametrize("room", [40, 80, 120])
def test_the_plain_writer_writes_what_rich_writes(
    room: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in (*plain_table._RICH_ENV, "LINES"):
        monkeypatch.delenv(name, raising=False)
    # the width both writers read: rich's Console and plain_width ask the same file descriptors
    monkeypatch.setattr(os, "get_terminal_size", lambda fd=1: os.terminal_size((room, 24)))
    assert plain_table.plain_width() == room
    rng = random.Random(room)
    plain = 0
    for _ in range(150):
        columns, rows, title, footer = _table(rng)
        tables.print_table(columns, rows, title, footer)
        fast = capsys.readouterr().out
        with monkeypatch.context() as m:
            m.setattr(tables, "_printed_plain", lambda *a: False)
            tables.print_table(columns, rows, title, footer)
        assert fast == capsys.readouterr().out, (columns, rows, title, footer)
        plain += tables._printed_plain(columns, rows, title, footer)
        capsys.readouterr()
    assert plain > 40  # the plain writer took a fair share of the tables, not none


def test_a_terminal_or_forced_colours_are_richs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert plain_table.plain_width() is None
    monkeypatch.delenv("FORCE_COLOR")
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert plain_table.plain_width() is None


def test_rich_wraps_a_title_as_the_plain_writer_does() -> None:
    """A word keeps its trailing space where the line has room for it (rich's divide_line)."""
    title = "old and new scores, expansion 'default' (n_no_results: queries without results, "
    lines = plain_table.wrapped(title + "scored 0)", 80)
    assert lines == [title, "scored 0)"]
    assert plain_table.wrapped("a " + "b" * 81, 80) is None  # a word rich would fold
