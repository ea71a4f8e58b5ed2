"""The README's first two commands are the set-up, and CI runs exactly them."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```(?:bash|sh)\n(.*?)```", readme, re.S)
    assert block, "README has no shell code block"
    lines = [
        ln.strip() for ln in block.group(1).splitlines() if ln.strip() and not ln.startswith("#")
    ]
    return lines[:2]


def test_readme_opens_with_install_and_test_commands():
    install, test = _setup_commands()
    assert "pip install" in install and "toolex demo" in install
    assert test == "make check"
    # `make check` runs every check CI needs: lint, contracts and owners first, then mypy beside
    # the tests
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    lines = makefile.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("check:"))
    assert lines[at].split(":")[1].split() == ["lint", "contracts", "owners"]
    recipe = "\n".join(itertools.takewhile(lambda ln: ln.startswith("\t"), lines[at + 1 :]))
    assert "$(MAKE) --no-print-directory types" in recipe
    assert "$(MAKE) --no-print-directory test" in recipe
    assert "\tpytest" in makefile and "\tmypy toolex tui" in makefile


def test_ci_runs_the_readme_commands_verbatim():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    for command in _setup_commands():
        assert command in (ln.strip() for ln in ci), f"{command!r} is not in .ci/run"


def test_every_cli_command_has_help_with_an_example():
    from click.testing import CliRunner

    from toolex.cli import COMMANDS, cli

    runner = CliRunner()
    for name in COMMANDS:
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, f"toolex {name} --help failed: {result.output}"
        assert "toolex " + name in result.output or "Example" in result.output, (
            f"toolex {name} --help shows no example"
        )
