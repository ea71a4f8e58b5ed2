"""`mkdocs build --strict` passes (what `make docs` and `make check` run), and what it builds is
generated from the code: a section per command of the CLI, the API from `toolex`'s docstrings,
the figures from the records. Skipped where MkDocs is not installed, except under CI=true."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from toolex.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() == "true"
# A bound on a hang, not a measurement: the build takes about 10 s on a quiet machine.
BUILD_TIMEOUT = 600


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        if IN_CI:
            pytest.fail("MkDocs is missing: the [dev] extra installs it, and CI builds the docs")
        pytest.skip("MkDocs is not installed (pip install -e '.[dev]')")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "WARNING" not in done.stderr, done.stderr[-4000:]
    return out


def page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_the_cli_reference_has_every_command_with_its_own_help(site: Path) -> None:
    text = page(site, "reference/cli")
    for name in COMMANDS:
        assert f'id="toolex-{name}"' in text, f"toolex {name} is missing from the CLI reference"
    # the text is click's own: the usage line of a nested command, e.g. `toolex runs import`
    assert "Usage: toolex runs import [OPTIONS] FILE" in text


def test_the_api_reference_is_generated_from_toolex(site: Path) -> None:
    text = page(site, "reference/api")
    assert "doc-module" in text or "doc doc-" in text, "mkdocstrings rendered nothing"
    assert ":::" not in text


def test_the_figures_page_shows_every_record_with_its_provenance(site: Path) -> None:
    text = page(site, "figures")
    records = sorted((ROOT / "docs" / "figures").glob("*.json"))
    assert records, "no benchmark record in docs/figures/"
    for record in records:
        assert f'id="{record.stem}"' in text, record.name
    assert 'id="judges"' in text
    # every record says when, at which commit, on what machine and at what load
    assert len(re.findall(r"commit <code>[0-9a-f]{7}", text)) >= len(records)
    assert text.count("cores") >= len(records)
    assert "{{" not in text


def test_the_tour_page_keeps_its_commands(site: Path) -> None:
    """The Tour page is what tests/tour/ runs: the built page shows the same commands."""
    sys.path.insert(0, str(ROOT / "tests"))
    from tour.commands import tour

    # code is highlighted (a span per token) and escaped
    text = html.unescape(re.sub(r"<[^>]+>", "", page(site, "tour")))
    shown = " ".join(text.replace("\\\n", " ").split())  # continuation lines joined
    commands = tour()
    assert len(commands) >= 30
    for command in commands:
        if "\n" not in command:  # heredocs aside
            assert " ".join(command.split("  #")[0].split()) in shown, command
