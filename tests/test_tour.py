"""The Tour (docs/tour.md): what it lists, that every file a command reads is made by an earlier
one, and that its chains (tests/tour/, one test file each, so pytest-xdist spreads them) run every
command of the Tour, each chain in the Tour's order. The chains themselves run the commands
exactly as written (tests/tour/commands.py)."""

from __future__ import annotations

import re
import shlex

from tour.commands import CHAINS, HEREDOC, chain, chains_of, tour


def test_the_tour_lists_what_issue_15_asked_for() -> None:
    commands = tour()
    assert any(c.startswith("toolex retrieve") for c in commands)
    assert any(c.startswith("toolex info") for c in commands)
    assert any("--compare" in c for c in commands)


def test_every_file_a_tour_command_reads_is_made_by_an_earlier_one() -> None:
    """Issue 25: `my_model.trec`, `my_labels.csv` and `toolex.toml` were placeholders that
    failed when run as written. Each file a command reads is the data (../shared) or the output
    of a command above it."""
    commands = tour()
    made: set[str] = set()
    for command in commands:
        if HEREDOC.search(command):
            made.add(command.split(">")[1].split()[0])
            continue
        args = shlex.split(command)
        written = {args[i + 1] for i, a in enumerate(args[:-1]) if a in (">", "--out", "--graph")}
        for name in set(args) - written:
            if re.fullmatch(r"[\w.-]+\.(trec|csv|toml|jsonl|json|run|parquet)", name):
                assert name in made, f"{command!r} reads {name}, which no command above makes"
        made |= written
    assert {"my_model.trec", "my_labels.csv", "toolex.toml", "elsewhere.parquet"} <= made


def test_the_chains_run_every_tour_command_in_the_tour_order() -> None:
    """Issue 34: the Tour split in chains that need nothing from one another. None leaves a
    command out, and inside a chain the commands keep the Tour's order."""
    commands = tour()
    assert all(chains_of(c) <= set(CHAINS) and chains_of(c) for c in commands)
    assert set().union(*(set(chain(name)) for name in CHAINS)) == set(commands)
    for name in CHAINS:
        ran = chain(name)
        assert ran == sorted(ran, key=commands.index), name
    # what a chain reads is made in that chain: the files, and the benchmark it names
    for name in CHAINS:
        made: set[str] = set()
        for command in chain(name):
            if HEREDOC.search(command):
                made.add(command.split(">")[1].split()[0])
                continue
            args = shlex.split(command)
            written = {args[i + 1] for i, a in enumerate(args[:-1]) if a in (">", "--out")}
            for arg in set(args) - written:
                if re.fullmatch(r"[\w.-]+\.(trec|csv|toml|jsonl|json|run|parquet)", arg):
                    assert arg in made, f"chain {name}: {command!r} reads {arg} made elsewhere"
            made |= written
        loads = {c.split()[2] for c in chain(name) if c.startswith("toolex load ")}
        for command in chain(name):
            if "--benchmark " in command:
                benchmark = command.split("--benchmark ")[1].split()[0]
                assert benchmark in loads, f"chain {name}: {command!r} needs {benchmark} loaded"
