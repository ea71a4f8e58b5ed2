"""toolex: expand tool-retrieval annotations with equivalent tools and re-score retrievers.

The Python API is what the `toolex` command itself calls::

    import toolex

    with toolex.open("toolex.duckdb") as store:
        toolex.load_toolret(store, "../shared/data/toolret", tasks=["apibank"])
        toolex.import_run(store, {"q1": {"tool-a": 2.0}}, run="mine", benchmark="toolret")
        toolex.expand(store, "toolret", progress=print)
        scores = toolex.evaluate(store, "mine", ["nDCG@10", "R@10"])  # a pandas DataFrame

``__all__`` is the stable surface; every other module is private. The names load on first use
(PEP 562), so ``import toolex`` (and ``toolex --help``) loads neither DuckDB, LanceDB, pyarrow
nor pandas. The core package is headless: it never imports Textual or the TUI package (a test
enforces it).
"""

from __future__ import annotations

# Not typing's: importing typing is most of what `import toolex` would cost. Type checkers
# read any TYPE_CHECKING as true.
TYPE_CHECKING = False

__version__ = "0.1.0"

# public name -> "module:attribute" it is read from.
_EXPORTS: dict[str, str] = {
    "InputError": "toolex.errors:InputError",
    "ModelUnavailableError": "toolex.errors:ModelUnavailableError",
    "NoOutcomeError": "toolex.errors:NoOutcomeError",
    "NotFoundError": "toolex.errors:NotFoundError",
    "Store": "toolex.store:Store",
    "StoreError": "toolex.errors:StoreError",
    "ToolexError": "toolex.errors:ToolexError",
    "delete_run": "toolex.api.runs:delete_run",
    "evaluate": "toolex.api.evaluate:evaluate",
    "expand": "toolex.api.expand:expand",
    "expand_settings": "toolex.api.expand:expand_settings",
    "export": "toolex.api.reports:export",
    "import_run": "toolex.api.runs:import_run",
    "list_runs": "toolex.api.runs:list_runs",
    "load_beir": "toolex.api.load:load_beir",
    "load_docs": "toolex.api.load:load_docs",
    "load_hub": "toolex.api.load:load_hub",
    "load_plain": "toolex.api.load:load_plain",
    "load_skillret": "toolex.api.load:load_skillret",
    "load_stabletoolbench": "toolex.api.load:load_stabletoolbench",
    "load_toolret": "toolex.api.load:load_toolret",
    "open": "toolex.api.store:open_store",
    "retrieve": "toolex.api.retrieve:retrieve",
    "sql": "toolex.api.sql:sql",
    "sql_df": "toolex.api.sql:sql_df",
    "stats": "toolex.api.reports:stats",
    "trust": "toolex.api.reports:trust",
}

# The stable surface: a test keeps it equal to _EXPORTS' names.
__all__ = [
    "__version__",
    "InputError",
    "ModelUnavailableError",
    "NoOutcomeError",
    "NotFoundError",
    "Store",
    "StoreError",
    "ToolexError",
    "delete_run",
    "evaluate",
    "expand",
    "expand_settings",
    "export",
    "import_run",
    "list_runs",
    "load_beir",
    "load_docs",
    "load_hub",
    "load_plain",
    "load_skillret",
    "load_stabletoolbench",
    "load_toolret",
    "open",
    "retrieve",
    "sql",
    "sql_df",
    "stats",
    "trust",
]

if TYPE_CHECKING:
    from toolex.api.evaluate import evaluate
    from toolex.api.expand import expand, expand_settings
    from toolex.api.load import (
        load_beir,
        load_docs,
        load_hub,
        load_plain,
        load_skillret,
        load_stabletoolbench,
        load_toolret,
    )
    from toolex.api.reports import export, stats, trust
    from toolex.api.retrieve import retrieve
    from toolex.api.runs import delete_run, import_run, list_runs
    from toolex.api.sql import sql, sql_df
    from toolex.api.store import open_store as open  # noqa: A004
    from toolex.errors import (
        InputError,
        ModelUnavailableError,
        NoOutcomeError,
        NotFoundError,
        StoreError,
        ToolexError,
    )
    from toolex.store import Store


def __getattr__(name: str) -> object:
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'toolex' has no attribute {name!r}")
    import importlib  # here: it imports warnings, which `import toolex` need not pay for

    module, attr = target.split(":")
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
