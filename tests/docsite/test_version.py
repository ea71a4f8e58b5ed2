"""One version number: toolex.__version__, which pyproject reads (hatch's dynamic version),
`toolex --version` prints, the installed metadata carries and the CHANGELOG's latest release
names."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from click.testing import CliRunner

import toolex
from toolex.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_reads_the_version_from_the_package() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        pyproject = tomllib.load(f)
    assert "version" not in pyproject["project"]
    assert pyproject["project"]["dynamic"] == ["version"]
    assert pyproject["tool"]["hatch"]["version"]["path"] == "toolex/__init__.py"


def test_every_place_says_the_same_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"toolex, version {toolex.__version__}"
    assert importlib.metadata.version("toolex") == toolex.__version__
    assert toolex.__version__ == "0.1.0"


def test_the_changelog_keeps_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\]", text, re.M)
    assert releases[0] == "Unreleased"
    assert releases[1] == toolex.__version__, "the latest release is the package's version"
    assert re.search(rf"^## \[{re.escape(toolex.__version__)}\] - \d{{4}}-\d\d-\d\d$", text, re.M)
    for kind in re.findall(r"^### (.+)$", text, re.M):
        assert kind in {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kind
