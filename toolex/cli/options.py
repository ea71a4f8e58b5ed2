"""Options shared by every command, so `--db`, `--format`, `--benchmark` and `--expansion` mean
the same thing everywhere; option groups that hand a command one object (:func:`option_group`);
and the one way a command reports a load or import on stderr."""

from __future__ import annotations

import functools
import inspect
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypedDict, TypeVar

import click

from toolex.cli.decorating import FC, Decorator
from toolex.cli.output import CsvWriter, json_text, json_value, stable_float
from toolex.cli.tables import fits, has_wide, print_table
from toolex.printable import described, first_unshown, printable
from toolex.store.config import DEFAULT_DB

if TYPE_CHECKING:  # DuckDB loads when a command opens a store, not for its --help
    from click.shell_completion import CompletionItem
    from typing_extensions import Unpack

    from toolex.store import Store

__all__ = ["emit_rows", "json_value", "stable_float"]  # the last two: toolex.cli.output's

FORMATS = ("table", "json", "csv")
R = TypeVar("R")
T = TypeVar("T")


def db_option(f: FC) -> FC:
    return click.option(
        "--db",
        default=DEFAULT_DB,
        envvar="TOOLEX_DB",
        show_default=True,
        type=click.Path(dir_okay=False),
        help="The store (a DuckDB file); env TOOLEX_DB.",
    )(f)


def wide_option(f: FC) -> FC:
    return click.option(
        "--wide",
        is_flag=True,
        help="Print every column of the table, however wide (the default keeps to 80 columns).",
    )(f)


def format_option(f: FC) -> FC:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        default="table",
        show_default=True,
        help="Output rows as an aligned table, JSON or CSV (data to stdout, messages to stderr).",
    )(f)


def option_group(
    name: str, options: Sequence[Decorator], make: Callable[..., T]
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A decorator that adds ``options`` to a command and passes it ``make(**their values)`` as
    the one parameter ``name``; ``make``'s parameters are the options' names (one with a default
    may have no option: the command sets it, by ``dataclasses.replace``). A command with many
    options then takes a few objects that say what the values are for (sqlite-utils' shared
    option decorators), and its options keep the order given, so `--help` lists them as written.
    """

    taken = list(inspect.signature(make).parameters)

    def decorate(f: Callable[..., R]) -> Callable[..., R]:
        @functools.wraps(f)
        def command(*args: object, **kwargs: object) -> R:
            # a parameter of ``make`` no option fills keeps its default (``make`` refuses one
            # without); an option ``make`` does not take reaches ``f``, which refuses it
            values = {key: kwargs.pop(key) for key in taken if key in kwargs}
            return f(*args, **kwargs, **{name: make(**values)})

        decorated: Callable[..., R] = command
        for option in reversed(options):  # click lists the last decorator applied first
            decorated = option(decorated)
        return decorated

    return decorate


class NewName(click.ParamType[str, Any]):
    """A name a command stores (a benchmark, a run, an expansion, a label set): it is printed
    in tables and messages and typed back, so it must look like itself: no control, bidi or
    invisible character (toolex.printable, the rule ids follow) and not empty."""

    name = "name"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        text = str(value)
        if not text.strip():
            self.fail("an empty name: give one that shows", param, ctx)
        bad = first_unshown(text)
        if bad is not None:
            self.fail(
                f"'{printable(text)}' holds {described(bad.group())} at position {bad.start()}: "
                "a name is shown in tables and typed back, so it may hold no control, bidi or "
                "invisible character",
                param,
                ctx,
            )
        return text


NAME = NewName()


class StoredName(click.Option):
    """An option that names something the store must hold: a benchmark, an expansion or a run
    (one subclass per ``kind``, given as the option's ``cls``).

    :func:`open_store` checks every such option of the running command against the store
    (:func:`require_names`), so a misspelled name fails with the Store's one wording ("no
    benchmark named 'x' in the store; did you mean 'y'?", exit 2) before the command reads or
    writes anything, instead of printing nothing or exporting an empty file."""

    kind: ClassVar[str]  # benchmark | expansion | run

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        """Tab completion: the names of this kind in the store the command line names."""
        from click.shell_completion import CompletionItem

        return [CompletionItem(n) for n in stored_names(ctx, self.kind) if n.startswith(incomplete)]


class StoredBenchmark(StoredName):
    kind = "benchmark"


class StoredExpansion(StoredName):
    kind = "expansion"


class StoredRun(StoredName):
    kind = "run"


def stored_names(ctx: click.Context, kind: str) -> list[str]:
    """Names of ``kind`` in the store of ``ctx`` (--db, else TOOLEX_DB, else the default), for
    completion: nothing when that store is missing, locked or unreadable."""
    import os

    from toolex.store import Store

    db = ctx.params.get("db") or os.environ.get("TOOLEX_DB") or DEFAULT_DB
    try:
        with Store.open(db, read_only=True) as store:
            if kind == "benchmark":
                return store.benchmarks()
            if kind == "run":
                return store.runs()
            benchmark = ctx.params.get("benchmark")
            return store.expansions(benchmark if isinstance(benchmark, str) else None)
    except Exception:  # completion must never print a traceback into the user's shell
        return []


class _BenchmarkExtra(TypedDict, total=False):
    """What a command may add to ``--benchmark``, passed to click only when given."""

    default: str | None
    show_default: bool
    multiple: bool


def benchmark_option(
    help: str = "Benchmark name in the store.",
    *,
    required: bool = True,
    dest: str = "benchmark",
    **extra: Unpack[_BenchmarkExtra],
) -> Decorator:
    """``--benchmark NAME`` of a stored benchmark; ``help`` says what the command does with it,
    ``extra`` (a default, show_default, multiple) goes to click as given."""
    return click.option(
        "--benchmark", dest, required=required, help=help, cls=StoredBenchmark, **extra
    )


def expansion_option(help: str = "Name of the expansion.", *, new: bool = False) -> Decorator:
    """``--expansion NAME``, 'default' unless given (the name every stage writes by default).

    It must name a stored expansion ('default' always does), unless ``new``: the command writes
    it (expand, imports)."""
    if new:
        return click.option(
            "--expansion", default="default", show_default=True, help=help, type=NAME
        )
    return click.option(
        "--expansion",
        default="default",
        show_default=True,
        help=help,
        cls=StoredExpansion,
    )


def run_option(
    help: str, *, dest: str = "run_id", multiple: bool = False, required: bool = False
) -> Decorator:
    """``--run NAME`` of a stored run (repeatable with ``multiple``). Commands that write a run
    (retrieve, runs import) declare their own ``--run``: it names a new run."""
    return click.option(
        "--run",
        dest,
        multiple=multiple,
        required=required,
        metavar="NAME",
        help=help,
        cls=StoredRun,
    )


def scope_option(help: str) -> Decorator:
    """``--scope``: the library searched per query, one of toolex.retrieval's scopes or 'auto'
    (see toolex.retrieval.texts.resolve_scope); the default is the pipeline's
    (toolex.pipeline.settings.SCOPE: the pooled library)."""
    from toolex.pipeline.settings import SCOPE

    return click.option(
        "--scope",
        type=click.Choice(["auto", "task", "category", "benchmark"]),
        default=SCOPE,
        show_default=True,
        help=help,
    )


@dataclass(frozen=True)
class ExpansionRef:
    """A stored benchmark and one of its expansions (--benchmark and --expansion)."""

    benchmark: str
    expansion: str


def expansion_ref(
    benchmark: Decorator, expansion: Decorator
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """``benchmark`` and ``expansion`` (a :func:`benchmark_option` and an
    :func:`expansion_option`, each with the command's own help) as one :class:`ExpansionRef`
    parameter ``ref``."""
    return option_group("ref", [benchmark, expansion], ExpansionRef)


def open_store(db: str, read_only: bool = False, allow_files: bool = False) -> Store:
    """Open the store at ``db`` and check the names the running command was given."""
    from toolex.store import Store

    store = Store.open(db, read_only=read_only, allow_files=allow_files)
    try:
        require_names(store)
    except BaseException:
        if not store.discard_if_new():  # a misspelled name on a new path leaves no store
            store.close()
        raise
    return store


def require_names(store: Store, ctx: click.Context | None = None) -> None:
    """Check every :class:`StoredName` option of the command running in ``ctx`` (the current
    one by default) with the Store's ``require_*``: benchmarks first, then the expansion (of
    the one named benchmark, or of any when none or several are named), then runs."""
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None:  # library use, outside a command
        return
    named: dict[str, list[str]] = {"benchmark": [], "expansion": [], "run": []}
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        if isinstance(param, StoredName) and value is not None:
            named[param.kind] += [value] if isinstance(value, str) else list(value)
    benchmarks = [store.require_benchmark(name) for name in named["benchmark"]]
    for expansion in named["expansion"]:
        store.require_expansion(benchmarks[0] if len(benchmarks) == 1 else None, expansion)
    store.require_runs(named["run"])


def emit_rows(
    rows: Sequence[Mapping[str, object]],
    fmt: str,
    title: str | None = None,
    *,
    columns: Sequence[str] | None = None,
    shown: Sequence[str] | None = None,
    wide: bool = False,
) -> None:
    """Print rows in the chosen format: the one renderer of every command that prints rows
    (conventions in toolex.cli.output). ``columns`` names the header when there may be no rows:
    CSV then prints the header alone, a table its header and ``(0 rows)``.

    ``shown`` are the columns a table prints unless ``wide`` (``--wide``): a few named ones,
    most important first, of which those that fit the terminal (80 columns when it is not
    one), as duckdb's and psql's tables keep to the screen; a footer names how many more there
    are and how to see them. CSV and JSON always carry every column."""
    cols = list(columns) if columns is not None else (list(rows[0]) if rows else [])
    if fmt == "json":
        # each row keeps its own keys (a summary row may carry more than a per-query row)
        data = [{c: json_value(r.get(c)) for c in columns or r} for r in rows]
        click.echo(json_text(data, indent=2))
        return
    records = [[r.get(c) for c in cols] for r in rows]
    if fmt == "csv":
        buf = io.StringIO()
        out = CsvWriter(buf, cols)
        out.write(records)
        click.echo(buf.getvalue(), nl=False)
        return
    footer = None
    if shown is not None and not wide:
        # The named columns that fit the terminal, as duckdb's table keeps those that fit;
        # when some must go, the last named go first. They print in the table's own order.
        ranked = [cols.index(c) for c in shown if c in cols]
        keep = sorted(ranked)
        while len(keep) > 1 and not fits(
            [cols[i] for i in keep], [[r[i] for i in keep] for r in records]
        ):
            keep.remove(ranked.pop())
        if len(keep) < len(cols):
            more = "--wide shows all, " if has_wide() else ""
            footer = (
                f"({len(cols)} columns, {len(keep)} shown: {more}--format csv|json prints every "
                "column)"
            )
        cols = [cols[i] for i in keep]
        records = [[r[i] for i in keep] for r in records]
    print_table(cols, records, title, footer, fit=not wide)


class Summarized(Protocol):
    """A load's or import's result: every one says what it stored in a line."""

    def summary(self) -> str: ...


def echo_summary(result: Summarized) -> None:
    """A load's or import's summary, qrels-per-query histogram (if any) and notes, on stderr
    (not under ``-q``): only some results carry the last two."""
    from toolex.cli.progress import say

    say(result.summary())
    hist = getattr(result, "qrels_per_query", None)
    if hist:
        shown = ", ".join(f"{n}:{c}" for n, c in hist.items())
        say(f"qrels per query (qrels:queries): {shown}")
    for note in getattr(result, "notes", []):
        say(f"note: {note}")


def deprecated_k(value: int | None) -> int | None:
    """``--k`` of `expand` and `retrieve` is now ``--depth``: `--k` names a metric cut-off only
    (nDCG@k), as in every IR tool. The old spelling still works, with a warning on stderr."""
    if value is not None:
        click.echo("warning: --k here is now --depth (--k means a metric cut-off)", err=True)
    return value
