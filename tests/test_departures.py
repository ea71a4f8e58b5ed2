"""Issue 26.3: the README's table of what follows the paper and what departs from it is complete
and true. Each row's default is the value toolex runs with, read from where it lives (the
pipeline's settings module, the judges' default, the commands' options), never restated here;
a row that names the paper's choice as a toolex value departs exactly when the default differs
from it, and a row whose paper choice toolex does not offer as a value (a dense model, an LLM
judge, the audit checking hand-offs) must say it departs. Every default of
toolex/pipeline/settings.py has its row, so a new setting cannot slip in unlisted."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from toolex.cli import cli
from toolex.judges import DEFAULT_JUDGE
from toolex.loaders.skillret import SUBSTITUTABLE_DEFAULT
from toolex.pipeline import settings
from toolex.reports.inputs import ReportContext

README = Path(__file__).resolve().parents[1] / "README.md"
HEADING = "What follows the paper and what departs from it"
# settings.py constants that are no user-facing default: the stages and what they record
STRUCTURE = {"STAGES", "STAGE_GROUPS", "STAGE_SETTINGS", "JUDGED_STAGES"}
# each default of settings.py -> the option of the row that states it
ROW_OF_SETTING = {
    "CANDIDATE_RETRIEVER": "--retriever",
    "CANDIDATES_PER_SUBQUERY": "--depth",
    "SCOPE": "--scope",
    "RENDERING": "--rendering",
    "AUDIT_CAP": "--audit-cap",
    "AUDIT_SAFETY_LIMIT": "--audit-cap",  # stated in the audit row: the limit of "every one"
    "PLATFORM_RULE": "--platform-rule",
    "PRESCREEN": "--prescreen",
    "REUSE": "--reuse",
    "ORDER": "--order",
}


def option_default(path: list[str], name: str) -> Any:
    """The default of ``toolex <path> --<name>`` as the command declares it."""
    ctx = click.Context(cli)
    command: Any = cli
    for part in path:
        command = command.get_command(ctx, part)
    (param,) = [p for p in command.params if f"--{name}" in p.opts]
    return param.get_default(click.Context(command))


def defaults() -> dict[str, Any]:
    """option -> the default toolex runs with, from where it is defined."""
    return {
        **{
            opt: getattr(settings, name)
            for name, opt in ROW_OF_SETTING.items()
            if name != "AUDIT_SAFETY_LIMIT"  # checked apart: the audit row's default is the cap
        },
        "--judge": DEFAULT_JUDGE,
        "--show-rationale": option_default(["review", "sample"], "show-rationale"),
        "--substitutable": SUBSTITUTABLE_DEFAULT,
        "--random-from": ReportContext.__dataclass_fields__["random_from"].default,
    }


def shown(value: Any) -> str:
    """How the table writes a default: None (no cap, or decided by the judge) and flags read as
    words a user can type or read."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def table() -> dict[str, dict[str, str]]:
    """option -> {setting, default, paper, departs, other}, from the README."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index(HEADING) :]
    lines = []
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header == ["setting", "toolex's default", "the paper", "departs", "other choices"]
    rows = {}
    for line in lines[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        row = dict(zip(("setting", "default", "paper", "departs", "other"), cells, strict=True))
        option = re.search(r"--[a-z-]+", row["setting"])
        rows[option.group(0) if option else row["setting"]] = row
    return rows


def head(cell: str) -> str:
    """A cell's statement before its explanation (``kept (a tool ...)`` -> ``kept``)."""
    return re.split(r"[:(]", cell)[0].strip()


def code(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_every_default_of_the_settings_module_has_its_row():
    names = {n for n in vars(settings) if n.isupper() and not n.startswith("_")} - STRUCTURE
    assert names == set(ROW_OF_SETTING), "a setting without a row in the departures table"
    assert set(defaults()) <= set(table())


def test_each_row_states_the_default_toolex_runs_with():
    rows = table()
    for option, value in defaults().items():
        (first, *_) = code(rows[option]["default"]) or [""]
        # "auto" is how the table (and the options) name a default the judge decides
        expected = "auto" if option == "--reuse" and value is None else shown(value)
        assert first == expected, (
            f"README departures table: {option} defaults to {first!r}, toolex runs with "
            f"{expected!r}: update the row (and its departs cell)"
        )
    limit = str(settings.AUDIT_SAFETY_LIMIT)
    assert limit in code(rows["--audit-cap"]["default"]), "the audit row's safety limit"


def test_departs_is_true_of_every_row():
    for option, row in table().items():
        departs = row["departs"].split(":")[0].strip()
        assert departs in ("yes", "no"), f"{option}: departs must be yes or no"
        paper = code(row["paper"])
        if paper:  # the paper's choice is a value toolex offers: compare
            default = (code(row["default"]) or [row["default"]])[0]
            assert (departs == "yes") == (default != paper[0]), (
                f"{option}: default {default!r}, the paper {paper[0]!r}, departs {departs!r}"
            )
        elif head(row["paper"]) != head(row["default"]):  # a choice toolex has no value for
            assert departs == "yes", f"{option}: the paper does {row['paper']!r}: a departure"
        if departs == "yes":
            assert len(row["departs"]) > len("yes: "), f"{option}: say how it departs"
