"""DuckDB as the store loads it: the engine alone until a caller needs the Python package.

DuckDB 2.x splits in two. The engine is the C++ extension ``_duckdb``: connections, ``execute``
with bound values, ``fetchall``, cursors, ``extract_statements``, ``register`` of a DuckDB
relation, and every error class (``duckdb.Error`` *is* ``_duckdb.Error``). The package ``duckdb``
adds, in Python, the relation layer (``con.sql``, Arrow results, reading Arrow tables) onto the
same connection class. Importing the package costs 0.09-0.1 CPU-s more than the engine (its
relation and expression modules, 36 dataclasses, and ``importlib.metadata`` for its version
string): more than half of pytrec_eval's whole process, which `toolex eval` is measured against
(issue 34; benchmarks/bench_startup.py).

So the store's modules import ``duckdb`` from here, which is the engine when DuckDB ships one
apart (and the package itself before 2.0, where there is nothing to split), and every store
method that reaches the relation layer or Arrow calls :func:`relations` first. A `toolex eval`
that reads rows and prints them never loads the package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb
else:
    try:
        import _duckdb as duckdb
    except ImportError:  # DuckDB 1.x: the package is the engine
        import duckdb


def relations() -> None:
    """Load DuckDB's Python package: it adds the relation methods (``sql``, ``to_arrow_table``,
    ...) to every connection, existing ones included, and teaches the engine to read Arrow."""
    import duckdb as package  # noqa: F401 - imported for what it installs

    del package


__all__ = ["duckdb", "relations"]
