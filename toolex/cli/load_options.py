"""Options and the spinner every `toolex load` command shares (toolex.cli.load and the loaders
with a module of their own, toolex.cli.load_plain and toolex.cli.load_skillret)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import click

from toolex.cli.decorating import FC, Decorator
from toolex.cli.options import NAME, db_option, open_store, option_group

if TYPE_CHECKING:
    from toolex.store import Store

R = TypeVar("R")

KINDS = click.Choice(["tool", "skill"])


def replace_option(f: FC) -> FC:
    return click.option(
        "--replace",
        is_flag=True,
        help="Swap out what is stored under this name (atomically). Without it, loading the same "
        "content again is a no-op and different content is refused.",
    )(f)


def name_option(default: str) -> Decorator:
    return click.option(
        "--name", default=default, show_default=True, help="Benchmark name in the store.", type=NAME
    )


@dataclass(frozen=True)
class LoadTarget:
    """Where a load goes: the benchmark's name (--name), whether it swaps out what is stored
    under that name (--replace), and the store (--db)."""

    name: str
    replace: bool
    db: str

    def open(self) -> Store:
        """The store, opened for the load (the names the command was given checked)."""
        return open_store(self.db)


def target_options(default_name: str) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """--name (``default_name`` unless given), --replace and --db, as one :class:`LoadTarget`
    parameter ``target``."""
    return option_group(
        "target", [name_option(default_name), replace_option, db_option], LoadTarget
    )


def run_load(label: str, fn: Callable[[], R]) -> R:
    """Run a load under a spinner on stderr, or a line when it starts and one when it ends when
    stderr is not a terminal (reading a large benchmark takes seconds)."""
    from toolex.cli.progress import status

    with status(label):
        return fn()
