"""toolex.printable: the one rule of what is shown as itself (tables, messages, the TUI) and
what an id or a name may hold."""

from __future__ import annotations

import sys
import unicodedata

from toolex.printable import UNSHOWN, described, printable


def test_the_ranges_hold_every_character_of_the_classes_this_python_knows() -> None:
    classes = {"Cc", "Cf", "Cs", "Zl", "Zp"}
    missing = [
        hex(cp)
        for cp in range(sys.maxunicode + 1)
        if unicodedata.category(chr(cp)) in classes and not UNSHOWN.fullmatch(chr(cp))
    ]
    assert missing == []
    # and nothing that shows: letters, marks, symbols, every kind of space
    for shown in ("a", "é", "漢", "😀", "\u0301", "\u00a0", "\u3000", "\u2003", " ", "\ufe0f"):
        assert not UNSHOWN.search(shown), hex(ord(shown))


def test_printable_escapes_as_python_writes_them() -> None:
    assert printable("a\x1b[31mb") == "a\\x1b[31mb"
    assert printable("evil\u202etxt") == "evil\\u202etxt"
    assert printable("\U000e0041") == "\\U000e0041"
    assert printable("l1\nl2\tx\r") == "l1\\nl2\\tx\\r"
    assert printable("l1\nl2\r", newlines=True) == "l1\nl2\\r"
    assert printable("\ud800") == "\\ud800"  # a lone surrogate no terminal could write
    assert printable("plain [/INST] 漢字 😀") == "plain [/INST] 漢字 😀"


def test_described_names_the_character() -> None:
    assert described("\u202e") == "'\\u202e' (RIGHT-TO-LEFT OVERRIDE)"
    assert described("\ufeff") == "'\\ufeff' (ZERO WIDTH NO-BREAK SPACE)"
    assert described("\x1b") == "'\\x1b'"
    assert described("\ud800") == "'\\ud800' (a lone surrogate)"
