"""`toolex tui` without Textual (the optional [tui] extra): one line saying how to install it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toolex.cli import main


def hide_textual(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import textual`` fail as it does when the extra is not installed; the TUI's own
    modules are dropped too, so they are imported afresh (and fail) instead of served cached."""
    for name in list(sys.modules):
        if name.partition(".")[0] in ("textual", "toolex_tui"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "textual", None)  # None: "import textual" raises


def test_without_textual_the_tui_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    hide_textual(monkeypatch)
    monkeypatch.setattr(sys, "argv", ["toolex", "tui", "--db", str(tmp_path / "s.duckdb")])
    with pytest.raises(SystemExit) as info:
        main()
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert "pip install 'toolex[tui]'" in err
    assert "Traceback" not in err and err.count("\n") == 1
    assert not (tmp_path / "s.duckdb").exists()  # it stopped before touching the store
