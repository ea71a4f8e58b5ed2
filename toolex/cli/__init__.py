"""The `toolex` command: one click group; each command lives in its own module, loaded lazily
so that `toolex --help` stays fast and a command's heavy imports (LanceDB, ONNX) load only when
that command runs."""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, NoReturn

import click

from toolex import __version__
from toolex.errors import NoOutcomeError, ToolexError

if TYPE_CHECKING:
    import ast

# What every command exits with, for scripts (`toolex expand`'s budget stop is 3, its
# BUDGET_EXIT; `toolex check` exits 1 when an invariant fails; click's usage errors 2).
EXIT_ERROR = 2  # a ToolexError: bad input, a damaged or locked store, a refused run
EXIT_NO_OUTCOME = 4  # a stage of `toolex expand` produced no outcome: every task failed
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM, as a shell reports a process the signal ended

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
    "stats": "toolex.cli.stats:stats",
    "ledger": "toolex.cli.ledger:ledger",
    "report": "toolex.cli.report:report",
    "export": "toolex.cli.export:export",
    "sql": "toolex.cli.sql:sql",
    "info": "toolex.cli.info:info",
    "review": "toolex.cli.review:review",
    "labels": "toolex.cli.labels:labels",
    "judges": "toolex.cli.judges:judges",
    "tui": "toolex.cli.tui:tui",
    "completion": "toolex.cli.completion:completion",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; a reader that went away (`toolex info | head -3`) ends it quietly
        with exit 0, as `cat` ends when the pipe is done with it. click exits 1 on a broken
        pipe, which failed every `set -o pipefail` script that reads the first lines."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            _reader_gone()

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """`toolex --help | head -1`: the help is printed while the arguments are parsed."""
        try:
            return super().parse_args(ctx, args)
        except BrokenPipeError:
            _reader_gone()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        from toolex.cli.progress import add_quiet

        # -q/--quiet means the same on every command, so it is added here, once, to each.
        return add_quiet(getattr(importlib.import_module(module_name), attr))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `toolex --help`, read from the command modules' source: importing
        them (pyarrow, DuckDB, the pipeline) made `--help` take 0.4 s instead of 0.05 s."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, _short_help(target, limit)) for name, target in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _reader_gone() -> NoReturn:
    from toolex.cli.output import reader_gone

    reader_gone()
    raise click.exceptions.Exit(0) from None


def _short_help(target: str, limit: int) -> str:
    """A command's short help as click makes it, from its docstring found with ``ast`` (nothing
    imported)."""
    import ast
    import importlib.util
    from pathlib import Path

    module_name, attr = target.split(":")
    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.origin is None:
        return ""
    source = Path(spec.origin).read_text(encoding="utf-8")
    node = _command_node(source, attr)
    if node is None:
        return ""
    # A summary written to fit (the decorator's short_help) is shown whole, wrapped; else
    # click's cut of the docstring's first sentence.
    for decorator in node.decorator_list:
        for keyword in getattr(decorator, "keywords", []):
            if keyword.arg == "short_help" and isinstance(keyword.value, ast.Constant):
                return str(keyword.value.value)
    doc = ast.get_docstring(node) or ""
    return click.Command(attr, help=doc).get_short_help_str(limit)


def _command_node(source: str, attr: str) -> ast.FunctionDef | None:
    """The function ``attr`` of a command module's source, with its decorators and docstring.

    Parsed from its first decorator to the end of its docstring, not the whole module: the 19
    modules whole were a third of `toolex --help`'s CPU; the slice is checked to be that one
    function, else the module is parsed whole."""
    import ast

    at = source.find(f"\ndef {attr}(")
    first = max(source.rfind("\n@click.command(", 0, at), source.rfind("\n@click.group(", 0, at))
    opened = source.find('"""', source.find("\n", source.find(") -> ", at) + 1) - 1)
    closed = source.find('"""', opened + 3)
    if min(at, first, opened, closed) >= 0:
        try:
            tree = ast.parse(source[first + 1 : closed + 3] + "\n")
        except SyntaxError:
            tree = None
        if tree is not None and len(tree.body) == 1:
            node = tree.body[0]
            if isinstance(node, ast.FunctionDef) and node.name == attr:
                return node
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == attr:
            return node
    return None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolex")
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda ctx, param, value: _quiet(ctx, param, value),
    help="No progress and no summaries on stderr (every command also takes -q).",
)
@click.pass_context
def cli(ctx: click.Context) -> None:
    """toolex: is my retriever wrong, or did the benchmark miss an equally good tool?

    Load a benchmark, expand its one-combination ground truth into every functionally
    equivalent combination, and score retrievers old (original label) vs new (expanded).

    \b
    Quick start:
      toolex demo                      # bundled sample, offline, under a minute
      toolex load toolret ../shared/data/toolret
      toolex retrieve --benchmark toolret --retriever bm25 --run bm25
      toolex expand --benchmark toolret --judge heuristic
      toolex eval --run bm25 --k 10
      toolex info                      # what the store holds

    Shell completion (commands, options, stored names): `toolex completion bash`.
    """
    from toolex.cli.progress import quiet_library_logs, stderr_progress
    from toolex.progress import reporting

    quiet_library_logs()  # no HTTP log line per LLM call between the progress lines
    # The core reports progress; for the length of the command, the CLI draws it on stderr.
    ctx.with_resource(reporting(stderr_progress()))


def _quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    from toolex.cli.progress import _quiet as set_quiet

    set_quiet(ctx, param, value)


def main() -> None:
    from toolex.cli.progress import Interrupted

    _own_logging()
    try:
        # Outside standalone mode click hands back the code of a command that ended with
        # ``click.exceptions.Exit`` (`expand`'s budget stop: 3) instead of exiting with it.
        code = cli.main(standalone_mode=False)
    except Interrupted as exc:  # Ctrl-C where the command knows what was kept
        click.echo(f"\n{exc}", err=True)
        sys.exit(EXIT_TERMINATED if exc.terminated else EXIT_INTERRUPTED)
    except ToolexError as exc:
        click.echo(f"error: {_shown(exc)}", err=True)
        sys.exit(EXIT_NO_OUTCOME if isinstance(exc, NoOutcomeError) else EXIT_ERROR)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as exc:
        exc.message = _shown(exc.message)  # type: ignore[misc]  # a value may be a pasted key
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:
        if type(exc).__name__ == "InterruptException":  # DuckDB's Ctrl-C inside a statement
            click.echo("interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        # A DuckDB error the store did not translate itself (a damaged table met mid-query, a
        # full disk at commit): toolex.store.store_error words every one, in one place.
        from toolex.store import store_error

        mapped: Exception | None = store_error(exc)
        if mapped is None and isinstance(exc, OSError):  # a full disk, a folder not writable
            mapped = exc
        if mapped is None:
            raise
        click.echo(f"error: {_shown(mapped)}", err=True)
        sys.exit(EXIT_ERROR)
    if isinstance(code, int) and not isinstance(code, bool) and code:
        sys.exit(code)


def _own_logging() -> None:
    """Configure logging before any dependency can: importing wordllama calls
    ``logging.basicConfig(level=INFO)``, after which the HTTP client logged every request URL
    (a compat URL's password, a ``?api_key=``) on stderr, even with -q. A root handler set here
    turns any later basicConfig into a no-op; warnings and errors still show, redacted. Set when
    ``logging`` is first imported (toolex.cli.logs): a command that never logs does not load it."""
    from toolex.cli.logs import when_imported

    when_imported(_redacted_root_handler)


def _redacted_root_handler() -> None:
    import logging

    class RedactedStderr(logging.Handler):
        """Log records on stderr (whatever sys.stderr is now), secrets redacted."""

        toolex_redacted = True

        def emit(self, record: logging.LogRecord) -> None:
            try:
                sys.stderr.write(_shown(self.format(record)) + "\n")
            except Exception:  # noqa: BLE001 - logging must never end a command
                self.handleError(record)

    root = logging.getLogger()
    if not any(getattr(h, "toolex_redacted", False) for h in root.handlers):
        handler = RedactedStderr(logging.WARNING)
        handler.setFormatter(logging.Formatter("%(name)s: %(levelname)s: %(message)s"))
        root.addHandler(handler)
    root.setLevel(logging.WARNING)


def _shown(message: object) -> str:
    """An error message as printed: no credential in a URL, no API key (toolex.llm.keys), and
    no character of the data the terminal would obey rather than show (an escape sequence, a
    bidi override: toolex.printable); its own line breaks stay."""
    from toolex.llm.keys import redact_text
    from toolex.printable import printable

    return printable(redact_text(str(message)), newlines=True)
