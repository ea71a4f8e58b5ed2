"""The core is headless: importing every toolex module must not pull in Textual or the TUI."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import importlib, pkgutil, sys
import toolex
for mod in pkgutil.walk_packages(toolex.__path__, "toolex."):
    importlib.import_module(mod.name)
bad = sorted(m for m in sys.modules if m == "textual" or m.startswith(("textual.", "toolex_tui")))
print(",".join(bad))
"""


def test_core_never_imports_textual() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "", f"core modules imported: {out.stdout.strip()}"
