"""A small benchmark made through the API, with an expansion whose new scores differ from the
old ones: two categories, one query with two labels, equivalents imported as combinations."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

import toolex
from toolex.cli import cli

ITEMS = [
    {"id": "a", "text": "convert a PDF to text", "category": "code"},
    {"id": "a2", "text": "extract text from a PDF file", "category": "code"},
    {"id": "b", "text": "weather forecast for a city", "category": "web"},
    {"id": "b2", "text": "city weather report", "category": "web"},
    {"id": "c", "text": "search flights", "category": "web"},
    {"id": "c2", "text": "find airline tickets", "category": "web"},
    {"id": "d", "text": "book a hotel room", "category": "web"},
    {"id": "x", "text": "unrelated tool", "category": "web"},
]
QUERIES = [
    {"id": "q1", "text": "read my pdf", "category": "code", "task": "docs"},
    {"id": "q2", "text": "is it raining in Paris", "category": "web", "task": "travel"},
    {"id": "q3", "text": "plan a trip: flight and hotel", "category": "web", "task": "travel"},
]
QRELS: list[dict[str, object]] = [
    {"query_id": "q1", "item_id": "a"},
    {"query_id": "q2", "item_id": "b"},
    {"query_id": "q3", "item_id": "c", "slot": 0},
    {"query_id": "q3", "item_id": "d", "slot": 1},
]
# Expansion "default": b2 for b (q2), and c2 in c's place beside d (q3).
COMBINATIONS: list[dict[str, object]] = [
    {"query_id": "q2", "combo_id": 1, "item_id": "b2"},
    {"query_id": "q3", "combo_id": 1, "item_id": "c2", "slot": 0},
    {"query_id": "q3", "combo_id": 1, "item_id": "d", "slot": 1},
]
# A run as a notebook holds it: q1 finds a second, q2 the equivalent b2 first, q3 c2 then d.
RUN = {
    "q1": {"x": 3.0, "a": 2.0, "a2": 1.0},
    "q2": {"b2": 1.5, "x": 1.0, "b": 0.5},
    "q3": {"c2": 1.0, "x": 0.9, "d": 0.8},
}
OTHER_RUN = {"q1": {"a": 1.0}, "q2": {"b": 2.0, "b2": 1.0}, "q3": {"d": 1.0, "c": 0.5}}


def _jsonl(path: Path, rows: Sequence[Mapping[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def cli_run(*args: str) -> tuple[str, str]:
    """(stdout, stderr) of a `toolex` command that must succeed."""
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr


@pytest.fixture
def db(tmp_path: Path) -> str:
    """The store's path: benchmark ``b`` loaded with the API, expansion ``default`` imported."""
    path = str(tmp_path / "api.duckdb")
    with toolex.open(path) as store:
        toolex.load_plain(
            store,
            _jsonl(tmp_path / "items.jsonl", ITEMS),
            _jsonl(tmp_path / "queries.jsonl", QUERIES),
            _jsonl(tmp_path / "qrels.jsonl", QRELS),
            name="b",
        )
    combos = _jsonl(tmp_path / "combos.jsonl", COMBINATIONS)
    cli_run("load", "combinations", str(combos), "--benchmark", "b", "--db", path)
    return path
