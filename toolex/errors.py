"""Errors a user can act on: what went wrong and where (file, line, record, field).

The CLI prints these as one clear message with no traceback; anything else is a bug.
"""

from __future__ import annotations

from dataclasses import dataclass


class ToolexError(Exception):
    """Base class for errors that are reported to the user as a message, not a traceback."""


@dataclass
class InputError(ToolexError):
    """Bad input data. Carries the location so the user can open the file at the right place."""

    message: str
    path: str | None = None
    line: int | None = None
    record: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = []
        if self.path:
            where.append(self.path if self.line is None else f"{self.path}:{self.line}")
        if self.record is not None:
            where.append(f"record {self.record}")
        if self.field:
            where.append(f"field {self.field!r}")
        return f"{', '.join(where)}: {self.message}" if where else self.message


class StoreError(ToolexError):
    """The store is missing, locked, of an unknown schema version, or inconsistent."""


class ModelUnavailableError(ToolexError):
    """An embedding model or LLM endpoint cannot be reached or loaded; the message names options."""
