"""Issue 26.3: the table of what follows the paper and what departs from it (docs/departures.md,
once in the README) is complete and true. Each row's default is the value toolex runs with,
read from where it lives (the pipeline's settings module, the judges' default, the commands'
options), never restated here;
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

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DEPARTURES = ROOT / "docs" / "departures.md"  # the table moved from the README to the docs
HEADING = "What follows the paper and what departs from it"
UNSTATED = "not stated in the paper"
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
    """option -> {setting, default, paper, departs, other}, from docs/departures.md."""
    text = DEPARTURES.read_text(encoding="utf-8")
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


def test_every_default_of_the_settings_module_has_its_row() -> None:
    names = {n for n in vars(settings) if n.isupper() and not n.startswith("_")} - STRUCTURE
    assert names == set(ROW_OF_SETTING), "a setting without a row in the departures table"
    assert set(defaults()) <= set(table())


def test_each_row_states_the_default_toolex_runs_with() -> None:
    rows = table()
    for option, value in defaults().items():
        (first, *_) = code(rows[option]["default"]) or [""]
        # "auto" is how the table (and the options) name a default the judge decides
        expected = "auto" if option == "--reuse" and value is None else shown(value)
        assert first == expected, (
            f"departures table (docs/departures.md): {option} defaults to {first!r}, toolex "
            f"runs with {expected!r}: update the row (and its departs cell)"
        )
    limit = str(settings.AUDIT_SAFETY_LIMIT)
    assert limit in code(rows["--audit-cap"]["default"]), "the audit row's safety limit"


def test_departs_is_true_of_every_row() -> None:
    for option, row in table().items():
        departs = row["departs"].split(":")[0].strip()
        assert departs in ("yes", "no", "unknown"), f"{option}: departs must be yes, no or unknown"
        unstated = UNSTATED in row["paper"]
        # "unknown" is for what the paper does not say, and only for that
        assert (departs == "unknown") <= unstated, f"{option}: unknown, but the paper says it"
        paper = code(row["paper"])
        if unstated:  # nothing to compare: the row must say why it is no departure, or unknown
            assert departs != "yes", f"{option}: departs from what the paper does not state"
            assert not paper, f"{option}: a value for the paper, which does not state one"
            assert len(row["departs"]) > len(f"{departs}: "), f"{option}: say why {departs}"
        elif paper:  # the paper's choice is a value toolex offers: compare
            default = (code(row["default"]) or [row["default"]])[0]
            assert (departs == "yes") == (default != paper[0]), (
                f"{option}: default {default!r}, the paper {paper[0]!r}, departs {departs!r}"
            )
        elif head(row["paper"]) != head(row["default"]):  # a choice toolex has no value for
            assert departs == "yes", f"{option}: the paper does {row['paper']!r}: a departure"
        if departs in ("yes", "unknown"):
            assert len(row["departs"]) > len(f"{departs}: "), f"{option}: say how it departs"


# Where a "paper" cell says the paper says it: a section, a stage of its method, a table or a
# figure, its words in quotes; else that the paper does not state it, or that its section was
# not found. The paper's text is not in this repository: a cell without one of these is a claim
# nobody can check (issue 35.5: three cells said what the paper never did).
CITATION = re.compile(
    r'§\s?\d|\bStages? \d|\b(?:Table|Figure|Appendix) [A-Z0-9]|"[^"]{8,}"'
    rf"|{UNSTATED}|section not found"
)


def test_every_paper_cell_cites_the_paper() -> None:
    uncited = [option for option, row in table().items() if not CITATION.search(row["paper"])]
    assert uncited == [], f"departures table: 'paper' cells with no citation: {uncited}"


def test_the_cells_the_paper_contradicted_say_what_it_does() -> None:
    """Issue 35.5: the paper retrieved over Tool-DE's expanded documentation (§3.2), not the
    tools' own; it does not say how it draws its random tool, nor how it uses SkillRet's
    substitutable labels; and two departures were missing: sub-queries that keep platform names
    (its Stage 1 prompt forbids them) and a verifier that reads the whole request."""
    rows = table()
    docs = rows["--rendering"]
    assert "Tool-DE" in docs["paper"] and "§3.2" in docs["paper"]
    assert docs["departs"].startswith("yes:")
    for option in ("--random-from", "--substitutable"):
        assert rows[option]["paper"].startswith(UNSTATED), option
        assert rows[option]["departs"].startswith("unknown:"), option
    assert "9.2%" in rows["--random-from"]["paper"]
    assert "bench_random_draw.py" in rows["--random-from"]["departs"]
    names = [r for s, r in rows.items() if "sub-queries" in s and "platform" in s]
    scope = [r for s, r in rows.items() if "verifier" in s and "request" in s]
    assert len(names) == len(scope) == 1, "the rows of the two departures issue 35.5 found"
    assert names[0]["departs"].startswith("yes:") and "Stage 1" in names[0]["paper"]
    assert scope[0]["departs"].startswith("yes:")


def test_no_doc_repeats_what_the_paper_does_not_say() -> None:
    """The table's old cells, repeated in docstrings and help texts."""
    root = ROOT
    claims = ("as the paper draws it", "as the paper uses them", "the paper's draw")
    texts = [
        README,
        *root.glob("toolex/**/*.py"),
        *root.glob("sql/**/*.sql"),
        *root.glob("docs/**/*.md"),
    ]
    found = [
        f"{path.relative_to(root)}: {claim}"
        for path in texts
        for claim in claims
        if claim in path.read_text(encoding="utf-8")
    ]
    assert found == []
