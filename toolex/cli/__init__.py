"""The `toolex` command: one click group; each command lives in its own module, loaded lazily
so that `toolex --help` stays fast and a command's heavy imports (LanceDB, ONNX) load only when
that command runs."""

from __future__ import annotations

import importlib
import sys

import click

from toolex import __version__
from toolex.errors import ToolexError

# command name -> "module:function". Order is the order of `toolex --help`.
COMMANDS: dict[str, str] = {
    "demo": "toolex.cli.demo:demo",
    "load": "toolex.cli.load:load",
    "runs": "toolex.cli.runs:runs",
    "eval": "toolex.cli.eval:eval_cmd",
    "check": "toolex.cli.check:check",
    "index": "toolex.cli.retrieve:index",
    "retrieve": "toolex.cli.retrieve:retrieve",
    "expand": "toolex.cli.expand:expand",
    "stats": "toolex.cli.expand:stats",
    "report": "toolex.cli.report:report",
    "export": "toolex.cli.export:export",
    "sql": "toolex.cli.sql:sql",
    "review": "toolex.cli.review:review",
    "tui": "toolex.cli.tui:tui",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolex")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """toolex: is my retriever wrong, or did the benchmark miss an equally good tool?

    Load a benchmark, expand its one-combination ground truth into every functionally
    equivalent combination, and score retrievers old (original label) vs new (expanded).

    \b
    Quick start:
      toolex demo                      # bundled sample, offline, under a minute
      toolex load toolret ../shared/data/toolret
      toolex eval --run bm25 --k 10
    """
    from toolex.cli.progress import stderr_progress
    from toolex.progress import reporting

    # The core reports progress; for the length of the command, the CLI draws it on stderr.
    ctx.with_resource(reporting(stderr_progress()))


def main() -> None:
    try:
        cli.main(standalone_mode=False)
    except ToolexError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
