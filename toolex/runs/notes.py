"""What an import says of the rows it drops, in one wording for both ways a run file is read
(:mod:`toolex.runs.imports`, :mod:`toolex.runs.plain`)."""

from __future__ import annotations


def skipped_note(rows: int, queries: int) -> str:
    """The note of ``rows`` results dropped because their ``queries`` query ids are unknown."""
    return f"skipped {rows} result(s) of {queries} unknown query id(s)"
