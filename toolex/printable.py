"""Text from data, made safe to show: the characters a terminal obeys or hides rather than
shows, written out as escapes.

A value from a benchmark, a model's answer or a user's query can hold characters that are not
shown as themselves: control characters (an escape sequence recolours or clears the terminal, a
carriage return overprints a line), bidirectional overrides (U+202E prints the rest of a line
backwards, so a table can show what is not in the store), invisible format characters (a zero
width space or a byte order mark makes two ids that look alike) and lone surrogates (which no
terminal encoding can even write). :func:`printable` writes each as the escape Python would
(``\\x1b``, ``\\u202e``, ``\\U000e0001``), so what is on the screen is what is in the store.

The same set is what an id may not hold (toolex.loaders.fields.check_id): an id is a key that
travels through TREC and CSV files and is typed back by people, so it must look like itself.
Spaces of every kind (a no-break or ideographic space) are shown as spaces: they are text, CJK
documentation is full of them, and TREC files escape them (toolex.loaders.trec_ids).

Rich markup is the CLI's and the TUI's own concern (they print values as ``rich.text.Text``,
never as markup: toolex.cli.output.shown); this module is below them and imports nothing.
"""

from __future__ import annotations

import re

# Unicode's control characters (Cc), format characters (Cf: bidi controls and isolates, zero
# width characters, the BOM, tag characters), surrogates (Cs) and line/paragraph separators
# (Zl, Zp), as ranges so the search runs at C speed on a 200,000-item library
# (tests/test_printable.py checks the ranges hold every such character this Python knows).
UNSHOWN = re.compile(
    "[\x00-\x1f\x7f-\x9f"  # Cc
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"  # Cf
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
    "\ud800-\udfff"  # Cs
    "\u2028\u2029]"  # Zl, Zp
)
_MULTILINE = re.compile(UNSHOWN.pattern.replace("\x00-\x1f", "\x00-\x09\x0b-\x1f"))


_SHORT = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def escape(char: str) -> str:
    """One character as Python writes it in a string literal: ``\\n``, ``\\x1b``,
    ``\\u202e``."""
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str, *, newlines: bool = False) -> str:
    """``text`` with every character of :data:`UNSHOWN` written as its escape; with
    ``newlines`` a line break stays one (a message of several lines)."""
    pattern = _MULTILINE if newlines else UNSHOWN
    if pattern.search(text) is None:
        return text
    return pattern.sub(lambda m: escape(m.group()), text)


def first_unshown(text: str) -> re.Match[str] | None:
    """Where ``text`` first holds a character :func:`printable` would escape, or None."""
    return UNSHOWN.search(text)


def described(char: str) -> str:
    """A character :func:`printable` escapes, in words: ``'\\u202e' (RIGHT-TO-LEFT
    OVERRIDE)``; a control character, which Unicode does not name, as its escape alone."""
    import unicodedata

    name = unicodedata.name(char, "")
    if not name and 0xD800 <= ord(char) <= 0xDFFF:
        name = "a lone surrogate"
    return f"'{escape(char)}' ({name})" if name else f"'{escape(char)}'"
