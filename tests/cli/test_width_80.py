"""Issue 35.18: every table a command prints, and every `--help` page, keeps to an 80-column
terminal, as the README says (`eval` was 82 wide with a 161-character title, `info` 99, `ledger`
102, `judges eval` 109, `expand`'s outcome 145, `export equivalences` 157, `--dry-run` 195; 13
of 30 help pages had longer example lines and the command lists cut their summaries with "...").

Rendered at COLUMNS=80 through click's runner on the demo's store (300 StableToolBench queries,
their expansion and four runs), with labels for `judges eval`; widths are terminal cells."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from toolex.cli import COMMANDS, cli
from toolex.cli.demo import run_demo
from toolex.cli.tables import _header, print_table
from toolex.store import Store

pytestmark = pytest.mark.slow
ROOM = 80


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("wide") / "d.duckdb"
    with Store.open(path) as store:
        run_demo(store)
        rows = store.con.execute(
            "SELECT v.query_id, q.item_id, v.item_id, v.accepted, v.slot FROM verdicts v "
            "JOIN qrels q USING (benchmark, query_id, slot) WHERE v.judge <> 'reference' "
            "ORDER BY ALL LIMIT 40"
        ).fetchall()
    labels = path.parent / "labels.jsonl"
    labels.write_text(
        "".join(
            json.dumps(
                {
                    "benchmark": "sample",
                    "query_id": q,
                    "reference": ref,
                    "candidate": cand,
                    "label": "yes" if ok else "no",
                    "slot": slot,
                }
            )
            + "\n"
            for q, ref, cand, ok, slot in rows
        )
    )
    ran = CliRunner().invoke(cli, ["labels", "import", str(labels), "--db", str(path)])
    assert ran.exit_code == 0, ran.output
    return str(path)


TABLES = [
    ["info"],
    ["stats", "--benchmark", "sample"],
    ["stats", "--benchmark", "sample", "--by", "category"],
    ["stats", "--benchmark", "sample", "--edges"],
    ["stats", "--benchmark", "sample", "--rejections"],
    ["eval", "--run", "bm25-query"],
    ["eval", "--all-runs"],
    ["eval", "--all-runs", "--layout", "paper"],
    ["ledger"],
    ["runs", "list"],
    ["sql", "--tables"],
    ["sql", "SELECT * FROM runs"],
    ["sql", "SELECT * FROM verdicts LIMIT 20"],
    ["check"],
    ["export", "equivalences", "--by", "platform"],
    ["labels", "list"],
    ["judges", "eval", "--judge", "heuristic"],
    ["expand", "--benchmark", "sample", "--judge", "heuristic", "--dry-run"],
    ["expand", "--benchmark", "sample", "--judge", "heuristic"],
    ["retrieve", "--benchmark", "sample", "--retriever", "bm25", "--run", "a-rather-long-run"],
]


def _too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if cell_len(line) > ROOM]


@pytest.mark.parametrize("args", TABLES, ids=lambda a: " ".join(a)[:40])
def test_every_table_keeps_to_80_columns(
    db: str, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(ROOM))
    ran = CliRunner().invoke(cli, [*args, "--db", db])
    assert ran.exit_code == 0, ran.output
    assert not _too_wide(ran.stdout), _too_wide(ran.stdout)


def _help_pages() -> list[list[str]]:
    pages = [["--help"]]
    for name in COMMANDS:
        pages.append([name, "--help"])
        command = cli.get_command(click.Context(cli), name)
        if isinstance(command, click.Group):
            pages += [[name, sub, "--help"] for sub in command.commands]
    return pages


def test_every_help_page_keeps_to_80_columns_and_says_each_summary_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", str(ROOM))
    pages = _help_pages()
    assert len(pages) > 40
    for args in pages:
        ran = CliRunner().invoke(cli, args)
        assert ran.exit_code == 0, (args, ran.output)
        assert not _too_wide(ran.stdout), (args, _too_wide(ran.stdout))
        if "Commands:" in ran.stdout:
            listed = ran.stdout.split("Commands:", 1)[1]
            assert "..." not in listed, (args, listed)


# -- the fitting rules, by hand ------------------------------------------------------------


def test_a_header_breaks_at_the_underscore_that_makes_it_narrowest() -> None:
    assert _header("queries_with_alternative", True) == "queries_with_\nalternative"
    assert _header("n_queries", True) == "n_\nqueries"
    assert _header("benchmark", True) == "benchmark"
    assert _header("_private", True) == "_private"
    assert _header("queries_with_alternative", False) == "queries_with_alternative"


def test_columns_that_cannot_fit_are_left_out_and_counted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime as dt

    monkeypatch.setenv("COLUMNS", str(ROOM))
    columns = [f"column_number_{i}" for i in range(8)]
    when = dt.datetime(2026, 1, 2, 3, 4, 5, 678901)
    row = [f"value-{i}" for i in range(7)] + [when]
    print_table(columns, [row, row], title="t " * 60)
    out = capsys.readouterr().out
    assert not _too_wide(out)
    assert "(8 columns, " in out and "--format csv|json prints every column" in out
    shown = int(out.split("(8 columns, ")[1].split(" shown")[0])
    assert 1 <= shown < 8 and "value-0" in out
    print_table(["when"], [[when]])
    assert "2026-01-02 03:04:05\n" in capsys.readouterr().out  # to the second on a screen
