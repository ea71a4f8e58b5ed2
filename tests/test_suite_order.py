"""The suite's own scheduling: suite_order.LONGEST_FIRST names files that exist, so a renamed
slow file cannot silently fall back to running last."""

from __future__ import annotations

from pathlib import Path

from suite_order import LONGEST_FIRST, longest_first

ROOT = Path(__file__).resolve().parents[1]


def test_the_longest_first_files_exist():
    missing = [path for path in LONGEST_FIRST if not (ROOT / path).is_file()]
    assert not missing, f"suite_order.LONGEST_FIRST names files that are gone: {missing}"


def test_the_longest_files_are_collected_first():
    class Item:
        def __init__(self, nodeid: str) -> None:
            self.nodeid = nodeid

    items = [
        Item(n)
        for n in (
            "tests/a.py::t",
            "tests/test_tour.py::t",
            "tests/b.py::t",
            "tests/cli/test_demo.py::t",
            "tests/a.py::u",
        )
    ]
    longest_first(items)
    assert [i.nodeid for i in items] == [
        "tests/test_tour.py::t",
        "tests/cli/test_demo.py::t",
        "tests/a.py::t",
        "tests/b.py::t",
        "tests/a.py::u",
    ]
