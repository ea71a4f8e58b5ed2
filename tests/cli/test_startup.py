"""`toolex --help` and the BM25 path import no heavy library (lancedb, fastembed, matplotlib,
textual, pyarrow, DuckDB): the command list is read from the command modules' source."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pyarrow", "duckdb", "lancedb", "fastembed", "matplotlib", "textual", "wordllama")


def _imported(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    lines = out.stdout.strip().splitlines()
    return [m for m in (lines[-1] if lines else "").split(",") if m]


def test_help_imports_no_heavy_library():
    code = (
        "import contextlib, io\n"
        "from click.testing import CliRunner\n"
        "from toolex.cli import cli\n"
        "r = CliRunner().invoke(cli, ['--help'])\n"
        "assert r.exit_code == 0 and 'retrieve' in r.output\n"
    )
    assert _imported(code) == []


def test_the_command_list_is_what_click_would_print_from_the_commands():
    from click.testing import CliRunner

    from toolex.cli import COMMANDS, cli

    out = CliRunner().invoke(cli, ["--help"], terminal_width=100).output
    for name, target in COMMANDS.items():
        module, attr = target.split(":")
        command = getattr(__import__(module, fromlist=[attr]), attr)
        short = command.get_short_help_str(100 - 6 - max(map(len, COMMANDS)))
        assert f"  {name}" in out and short.split()[0] in out


def test_the_bm25_path_never_imports_the_vector_store():
    code = "import toolex.retrieval.search, toolex.pipeline.runner\n"
    imported = _imported(code)
    assert "lancedb" not in imported and "fastembed" not in imported
