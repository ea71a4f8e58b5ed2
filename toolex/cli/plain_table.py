"""The aligned table of toolex.cli.tables written without rich, where rich would write plain text
that this module can spell byte for byte: stdout is not a terminal (a pipe, a file: scripts,
`toolex eval > scores.txt`), every cell, header, title and footer is printable ASCII, and the
table fits the width without a cell wrapped or a header broken.

Why: rich is 0.025 CPU-s to import and 0.01 to lay out the small table `toolex eval` prints,
a tenth of that whole process (issue 34 measures it against pytrec_eval's whole process;
benchmarks/bench_startup.py). Anything else (a terminal, colours forced, Jupyter, a wide or
wrapped table, text of other scripts) returns None and rich writes it, as before.

What rich writes there, for the table :func:`toolex.cli.tables._table` builds (psql's look):
the header, a rule of ``─`` as wide as the table, a line per row; each column as wide as its
widest cell or header, text left-aligned, numbers right-aligned, columns two spaces apart,
every line padded to the table's width. A title that fits over the table is centred on it,
padded to its width; a longer title, and the footer, wrap at words to the console's width as
rich wraps text (a word keeps its trailing space when the line still has room for it).
tests/cli/test_plain_table.py compares the two writers on generated tables.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence

# Environment variables that change what rich writes or how wide it thinks stdout is.
_RICH_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "JUPYTER_COLUMNS")
_WORD = re.compile(r"\s*\S+\s*")  # rich._wrap's word: leading and trailing spaces included
_TRAILING = re.compile(r"\s+$")
RULE = "─"


def plain_width() -> int | None:
    """The width a rich Console on stdout would have when it writes plain text (no escape
    sequences), or None when it would not or might not (rich then writes the table)."""
    import builtins

    if sys.platform == "win32" or hasattr(builtins, "get_ipython"):
        return None
    if any(name in os.environ for name in _RICH_ENV):
        return None
    try:
        if sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    # rich draws the rule in ASCII where stdout's encoding is not a Unicode one
    if not (getattr(sys.stdout, "encoding", None) or "utf-8").lower().startswith("utf"):
        return None
    # rich's Console.size: the first of stdin, stdout, stderr that is a terminal gives the width
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        return width or 80
    return 80


def _ascii(text: str) -> bool:
    return text.isascii() and text.isprintable()


def wrapped(text: str, width: int) -> list[str] | None:
    """``text`` in lines as rich wraps it to ``width`` (its ``divide_line`` and ``rstrip_end``),
    or None when a word is longer than the width (rich folds it)."""
    lines: list[str] = []
    start, offset = 0, 0
    for word in _WORD.finditer(text):
        length = len(word.group().rstrip())
        if length > width:
            return None
        if width - offset >= length:
            offset += len(word.group())
        elif offset and word.start():
            lines.append(text[start : word.start()])
            start, offset = word.start(), len(word.group())
    lines.append(text[start:])
    out = []
    for line in lines:
        excess = len(line) - width
        trailing = _TRAILING.search(line)
        if excess > 0 and trailing is not None:
            line = line[: len(line) - min(len(trailing.group()), excess)]
        out.append(line)
    return out


def plain_table(
    columns: Sequence[str], cells: Sequence[Sequence[str]], right: Sequence[bool], room: int
) -> list[str] | None:
    """The header, the rule and the rows as rich writes them at width ``room`` (``cells``: each
    row's cell texts, ``right``: which columns are right-aligned), or None when this module
    cannot say (text past printable ASCII, a table wider than ``room``)."""
    texts = [*columns, *(c for row in cells for c in row)]
    if not columns or not all(map(_ascii, texts)):
        return None
    widths = [max([len(name), *(len(row[i]) for row in cells)]) for i, name in enumerate(columns)]
    if sum(widths) + 2 * (len(widths) - 1) > room:
        return None

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right, strict=True)
        )

    lines = [line(columns), RULE * (sum(widths) + 2 * (len(widths) - 1))]
    lines.extend(line(row) for row in cells)
    return lines if cells else [*lines, "(0 rows)"]


def framed(table: list[str], title: str | None, footer: str | None, room: int) -> str | None:
    """The lines of :func:`plain_table` with the title and the footer as rich writes them: a
    title that fits over the table centred on it, a longer one and the footer wrapped at words
    to ``room`` (None when one is not printable ASCII or holds a word rich would fold)."""
    total = len(table[1])  # the rule is as wide as the table
    head: list[str] | None = []
    if title and _ascii(title) and len(title) <= total:
        text = title.rstrip()
        left = (total - len(text)) // 2
        head = [" " * left + text + " " * (total - left - len(text))]
    elif title:
        head = wrapped(title, room) if _ascii(title) else None
    foot = (wrapped(footer, room) if _ascii(footer) else None) if footer else []
    if head is None or foot is None:
        return None
    return "".join(f"{text}\n" for text in [*head, *table, *foot])
