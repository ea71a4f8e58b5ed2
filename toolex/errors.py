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
    what: str = "record"  # what ``record`` is: "query id", "item id" (the message names it so)

    def __str__(self) -> str:
        where = []
        if self.path:
            where.append(self.path if self.line is None else f"{self.path}:{self.line}")
        if self.record is not None:
            where.append(f"{self.what} {self.record}")
        if self.field:
            where.append(f"field {self.field!r}")
        return f"{', '.join(where)}: {self.message}" if where else self.message


class StoreError(ToolexError):
    """The store is missing, locked, of an unknown schema version, or inconsistent."""


class ModelUnavailableError(ToolexError):
    """An embedding model or LLM endpoint cannot be reached or loaded; the message names options."""


class NotFoundError(ToolexError):
    """A named thing (benchmark, expansion, run) the store does not hold.

    One wording for every command: what was asked, what exists, and the closest names.
    """

    def __init__(self, kind: str, name: str, known: list[str], hint: str = "") -> None:
        import difflib

        self.kind, self.name, self.known = kind, name, known
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
        parts = [f"no {kind} named {name!r} in the store" if name else f"no {kind} given"]
        if close:
            parts.append("did you mean " + " or ".join(repr(c) for c in close) + "?")
        elif known:
            shown = ", ".join(known[:10]) + (" ..." if len(known) > 10 else "")
            parts.append(f"{kind}s: {shown}")
        else:
            parts.append(f"the store holds no {kind}")
        if hint and not close:
            parts.append(hint)
        super().__init__("; ".join(parts))


class AnswerError(ToolexError, ValueError):
    """A judge's answer that does not parse or breaks the task's rules (wrong k, leaked name).

    Raised by answer parsers and caught by the executor, which records the call as malformed
    and retries it; it reaches a user only inside a failure record.
    """


class NoOutcomeError(ToolexError):
    """A stage of `toolex expand` ran and produced no outcome: every task it had failed (an
    unreachable or refusing server, answers that never parse). Not a success: the CLI exits
    with its own code after printing what the run did (toolex.pipeline.runner.RunReport)."""
