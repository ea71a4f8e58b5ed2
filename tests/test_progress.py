"""The core reports progress to whatever reporter is installed, and to nothing by default."""

from __future__ import annotations

from toolex.progress import NullProgress, current, progress, reporting


class Record:
    def __init__(self) -> None:
        self.events: list[tuple[object, ...]] = []

    def start(self, label: str, total: int | None, *, unit: str = "items") -> None:
        self.events.append(("start", label, total, unit))

    def advance(self, n: int = 1, **fields: object) -> None:
        self.events.append(("advance", n, fields))

    def finish(self) -> None:
        self.events.append(("finish",))


def test_nothing_is_installed_by_default() -> None:
    assert isinstance(current(), NullProgress)
    with progress("search", 3) as advance:
        advance(3)  # goes nowhere, raises nothing


def test_a_loop_reports_to_the_installed_reporter_and_it_is_removed_after() -> None:
    record = Record()
    with reporting(record):
        with progress("bm25 search", 2, unit="queries") as advance:
            advance(1)
            advance(1)
        with progress("empty", 0) as advance:
            advance(5)  # an empty loop opens no task
    assert record.events == [
        ("start", "bm25 search", 2, "queries"),
        ("advance", 1, {}),
        ("advance", 1, {}),
        ("finish",),
    ]
    assert isinstance(current(), NullProgress)
