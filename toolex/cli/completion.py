"""`toolex completion SHELL`: the script that gives toolex tab completion in bash, zsh or fish.

Completion covers commands, options, choices, paths and the names a store holds (benchmarks,
expansions, runs: read from the store that --db or TOOLEX_DB names). It is click's shell
completion: the script calls toolex back with ``_TOOLEX_COMPLETE`` set, so it stays current as
commands change. The same script comes from ``_TOOLEX_COMPLETE=bash_source toolex``.
"""

from __future__ import annotations

import click

SHELLS = ("bash", "zsh", "fish")
ENV_VAR = "_TOOLEX_COMPLETE"


@click.command("completion", short_help="Print the shell completion script (bash, zsh or fish).")
@click.argument("shell", type=click.Choice(SHELLS))
def completion(shell: str) -> None:
    """Print the shell completion script for SHELL (bash, zsh or fish).

    \b
    Examples:
      toolex completion bash >> ~/.bashrc
      eval "$(toolex completion bash)"          # this shell only
      toolex completion zsh > ~/.zfunc/_toolex
      toolex completion fish > ~/.config/fish/completions/toolex.fish
    """
    from click.shell_completion import get_completion_class

    from toolex.cli import cli

    cls = get_completion_class(shell)
    if cls is None:  # pragma: no cover - the three shells are click's own
        raise click.UsageError(f"no completion for {shell}")
    click.echo(cls(cli, {}, "toolex", ENV_VAR).source())
