"""The README's first two commands are the set-up, and CI runs exactly them."""

from __future__ import annotations

import itertools
import os
import re
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```(?:bash|sh)\n(.*?)```", readme, re.S)
    assert block, "README has no shell code block"
    lines = [
        ln.strip() for ln in block.group(1).splitlines() if ln.strip() and not ln.startswith("#")
    ]
    return lines[:2]


def _extras() -> dict[str, list[str]]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        extras: dict[str, list[str]] = tomllib.load(f)["project"]["optional-dependencies"]
    return extras


def _requirements(extra: str) -> set[str]:
    """The distribution names an extra pulls, its own extras (``toolex[spark]``) followed."""
    names = set()
    for requirement in _extras()[extra]:
        name = re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower()
        if name == "toolex":
            inner = re.search(r"\[(.*?)\]", requirement)
            for sub in inner.group(1).split(",") if inner else ():
                names |= _requirements(sub.strip())
        else:
            names.add(name)
    return names


def _pip_targets(command: str) -> list[str]:
    """What each `pip install` in a `a && b` command installs, e.g. ['.'] or ["-e", ".[dev]"]."""
    targets = []
    for part in command.split("&&"):
        words = shlex.split(part)
        if words[:2] == ["pip", "install"]:
            targets += [w for w in words[2:] if not w.startswith("-")]
    return targets


def test_readme_opens_with_install_and_test_commands() -> None:
    install, test = _setup_commands()
    assert "pip install" in install and install.endswith("&& toolex demo")
    assert test.endswith("&& make check")
    # `make check` runs every check CI needs: lint, contracts and owners first, then mypy beside
    # the tests
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    lines = makefile.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("check:"))
    assert lines[at].split(":")[1].split() == ["lint", "contracts", "owners", "docs"]
    recipe = "\n".join(itertools.takewhile(lambda ln: ln.startswith("\t"), lines[at + 1 :]))
    assert "$(MAKE) --no-print-directory types" in recipe
    assert "$(MAKE) --no-print-directory test" in recipe
    assert "\tpytest" in makefile and "\tmypy toolex tui" in makefile
    # the documentation site, strict (issue 33): a broken link or a figure with no record fails
    docs = next(i for i, ln in enumerate(lines) if ln.startswith("docs:"))
    recipe = "\n".join(itertools.takewhile(lambda ln: ln.startswith("\t"), lines[docs + 1 :]))
    assert "mkdocs build --strict" in recipe


def test_the_first_command_installs_light_and_the_second_what_the_tests_need() -> None:
    """Issue 25: the first command installed [dev], pyspark's 456 MB source archive included,
    before the demo could run. It installs toolex alone now; the test command installs [dev],
    which keeps pyspark so that CI runs the Spark engine's tests."""
    install, test = _setup_commands()
    [light] = _pip_targets(install)
    assert light == "."  # no extra: none of the test tools, Spark or Textual
    [dev] = _pip_targets(test)
    assert dev == ".[dev]"
    needs = _requirements("dev")
    assert {"pytest", "pytest-xdist", "ruff", "mypy", "import-linter", "textual"} <= needs
    assert "pyspark" in needs and "pyspark" in _requirements("spark")
    assert "-e" in shlex.split(test.split("&&")[0])  # for working on toolex: editable


def test_the_readme_states_the_python_version_the_venv_and_the_shared_folder() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        requires = tomllib.load(f)["project"]["requires-python"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = " ".join(readme[readme.index("## Set-up") : readme.index("## Tour")].split())
    version = requires.removeprefix(">=")
    assert requires == ">=3.11" and f"Python {version} or newer" in setup
    assert "(`python3 -m venv .venv && . .venv/bin/activate`)" in setup
    # what ../shared is, and what a user without it runs instead
    assert "**`../shared`.**" in setup
    assert "toolex load hub --task" in setup
    assert "`toolex load stabletoolbench toolex/data/sample`" in setup
    assert (ROOT / "toolex" / "data" / "sample" / "test_instruction").is_dir()
    # the set-up time is a figure printed by a script that runs the README's command; the
    # README names the script and links to the figures page, where its record says when and on
    # what machine it was measured, instead of pasting seconds that drift (issue 33)
    assert "`python benchmarks/bench_setup.py`" in setup
    assert "(docs/figures.md)" in setup
    assert not re.search(r"\d+ s\b", setup), "a pasted set-up time: link the figures page"


def test_ci_runs_the_readme_commands_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    for command in _setup_commands():
        assert command in (ln.strip() for ln in ci), f"{command!r} is not in .ci/run"


FAKE = """#!/usr/bin/env bash
echo "$(basename "$0") $* | venv=${VIRTUAL_ENV:-none} | ci=${CI:-}" >> "$CI_LOG"
if [ "$(basename "$0")" = python3 ] && [ "$1 $2" = "-m venv" ]; then
    mkdir -p "$3/bin" && echo "export VIRTUAL_ENV='$3'" > "$3/bin/activate"
fi
[ "$(basename "$0")" != make ] || exit "${MAKE_EXIT:-0}"
"""


@pytest.mark.parametrize("make_exit", [0, 2])
def test_ci_makes_a_venv_of_its_own_and_removes_it(tmp_path: Path, make_exit: int) -> None:
    """Two runs on one host used /tmp/toolex-ci-venv both. Each run now makes its own venv
    (mktemp) and removes it however it ends. Run here with python3, pip, toolex and make
    replaced by scripts that log what they were asked and in which venv."""
    bin_dir, tmp = tmp_path / "bin", tmp_path / "tmp"
    bin_dir.mkdir()
    tmp.mkdir()
    for name in ("python3", "python", "pip", "toolex", "make"):
        (bin_dir / name).write_text(FAKE, encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    env = os.environ | {"PATH": f"{bin_dir}:{os.environ['PATH']}", "TMPDIR": str(tmp),
                        "MAKE_EXIT": str(make_exit)}  # fmt: skip
    env.pop("VIRTUAL_ENV", None)
    venvs = []
    for run in range(2):
        env["CI_LOG"] = str(tmp_path / f"run{run}.log")
        done = subprocess.run([str(ROOT / ".ci" / "run")], env=env, capture_output=True,
                              text=True, timeout=60)  # fmt: skip
        assert done.returncode == make_exit, done.stderr
        log = (tmp_path / f"run{run}.log").read_text(encoding="utf-8").splitlines()
        made = log[0].split(" | ")[0].split()
        assert made[:3] == ["python3", "-m", "venv"] and made[3].startswith(f"{tmp}/")
        venvs.append(made[3])
        install, test = _setup_commands()
        asked = [ln.split(" | ")[0] for ln in log[1:]]
        assert asked == [
            "python -m pip install --quiet --upgrade pip",
            "pip " + " ".join(shlex.split(install.split("&&")[0])[1:]),
            "toolex demo",
            "pip " + " ".join(shlex.split(test.split("&&")[0])[1:]),
            "make check",
        ]
        assert all(ln.endswith(f"venv={made[3]} | ci=true") for ln in log[1:])
        assert list(tmp.iterdir()) == []  # the venv is gone, pass or fail
    assert venvs[0] != venvs[1]


def test_every_cli_command_has_help_with_an_example() -> None:
    from click.testing import CliRunner

    from toolex.cli import COMMANDS, cli

    runner = CliRunner()
    for name in COMMANDS:
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, f"toolex {name} --help failed: {result.output}"
        assert "toolex " + name in result.output or "Example" in result.output, (
            f"toolex {name} --help shows no example"
        )


def test_the_readme_is_read_in_five_minutes() -> None:
    """Issue 33: 629 lines, three quarters a lab notebook. What toolex answers, the set-up, a
    short tour and where the documentation is; the rest lives in docs/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    headings = [ln for ln in readme.splitlines() if ln.startswith("## ")]
    assert headings[:4] == ["## Set-up", "## Tour", "## From Python", "## Documentation"]
    # no measured figure: a share, a speed or a ratio lives in a benchmark record, shown with
    # its date and commit on docs/figures.md (a version, a licence, an address are none)
    prose = re.sub(r"```.*?```", "", readme, flags=re.S)
    for name in ("Python 3.11", "Apache-2.0", "127.0.0.1"):
        prose = prose.replace(name, "")
    assert not re.search(r"\d+(\.\d+)?\s?(%|x\b|s\b|ms\b|MB\b|GB\b)|\d\.\d", prose)
    # every page the README links to exists
    for target in re.findall(r"\]\(((?:docs/|CHANGELOG)[^)#]*)", readme):
        assert (ROOT / target).is_file(), target


def test_the_readme_tour_is_part_of_the_tour_the_tests_run() -> None:
    """The README's short tour is a few commands of docs/tour.md, in its order, so the tests
    that run the Tour (tests/tour/) run them too."""
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from tour.commands import tour

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Tour") : readme.index("## Documentation")]
    (block,) = re.findall(r"```bash\n(.*?)```", section, re.S)
    short = [ln.split("  #")[0].strip() for ln in block.splitlines() if ln.strip()]
    commands = tour()
    assert all(c in commands for c in short), [c for c in short if c not in commands]
    assert short == sorted(short, key=commands.index)
