"""DuckDB table macros expanded into the views an engine without macros runs.

The metric SQL is a chain of DuckDB table macros (``sql/metrics/NNN_*.sql``): ``CREATE TEMP MACRO
m(p_a, p_b) AS TABLE <query>``, called as ``FROM m($a, NULL)``. A DuckDB macro is substitution,
so it is expanded as one: each distinct call becomes a view whose query is the macro's body with
its parameters replaced by the call's arguments, and the call becomes a reference to that view.
Bound parameters (``$a``) stay placeholders for the engine to bind; nothing is formatted into
the SQL. Nested calls are expanded first, so the views come out in an order that runs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

import sqlglot
from sqlglot import exp

from toolex.errors import ToolexError

E = TypeVar("E", bound=exp.Expr)


@dataclass(frozen=True)
class Macro:
    """One DuckDB table macro: ``name(params) AS TABLE body``."""

    name: str
    params: tuple[str, ...]
    body: exp.Query


@dataclass
class Expansion:
    """A statement with its macro calls replaced by views; ``views`` in an order that runs."""

    statement: exp.Expr
    views: dict[str, exp.Query] = field(default_factory=dict)


def read_macros(texts: Iterable[tuple[str, str]]) -> dict[str, Macro]:
    """The table macros defined in ``(source, sql)`` pairs, by lower-case name; a file holding
    anything else is an error (only macro definitions can be expanded)."""
    macros: dict[str, Macro] = {}
    for source, text in texts:
        for stmt in sqlglot.parse(text, read="duckdb"):
            if stmt is None:
                continue
            udf = stmt.this if isinstance(stmt, exp.Create) else None
            body = stmt.expression if isinstance(stmt, exp.Create) else None
            if not (
                stmt.args.get("kind") == "MACRO"
                and isinstance(udf, exp.UserDefinedFunction)
                and isinstance(body, exp.Query)
            ):
                raise ToolexError(f"{source}: expected table macros (CREATE MACRO .. AS TABLE)")
            name = udf.this.name.lower()
            params = tuple(p.name.lower() for p in udf.expressions)
            macros[name] = Macro(name, params, body)
    return macros


def expand(statement: exp.Expr, macros: dict[str, Macro]) -> Expansion:
    """``statement`` with every call of ``macros`` replaced by a view (see the module doc)."""
    out = Expansion(statement.copy())
    out.statement = _replace_calls(out.statement, macros, out.views)
    return out


def _replace_calls(tree: E, macros: dict[str, Macro], views: dict[str, exp.Query]) -> E:
    """``tree`` itself, each macro call in it replaced by a view of the call (in ``views``)."""
    for table in list(tree.find_all(exp.Table)):
        call = table.this
        if not (isinstance(call, exp.Anonymous) and call.name.lower() in macros):
            continue
        macro = macros[call.name.lower()]
        if len(call.expressions) != len(macro.params):
            raise ToolexError(
                f"{macro.name}() takes {len(macro.params)} arguments, got {len(call.expressions)}"
            )
        body = _substitute(macro, call.expressions)
        body = _replace_calls(body, macros, views)  # nested calls, with arguments now concrete
        # Named after what it computes: the same call made twice is one view.
        digest = hashlib.sha1(body.sql(dialect="duckdb").encode()).hexdigest()[:12]
        view = f"{macro.name}_{digest}"
        views.setdefault(view, body)
        alias = table.args.get("alias") or exp.TableAlias(this=exp.to_identifier(macro.name))
        table.replace(exp.Table(this=exp.to_identifier(view), alias=alias))
    return tree


def _substitute(macro: Macro, args: list[exp.Expr]) -> exp.Query:
    """The macro's body with each unqualified reference to a parameter replaced by its argument
    (macro parameters are named p_*, so no column of a table can be mistaken for one)."""
    bound = dict(zip(macro.params, args, strict=True))

    def swap(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Column) and not node.table and node.name.lower() in bound:
            return bound[node.name.lower()].copy()
        return node

    body = macro.body.copy().transform(swap)
    assert isinstance(body, exp.Query)  # only column references were swapped
    return body


def base_tables(expansion: Expansion) -> set[str]:
    """The stored tables an expansion reads: every table name that is neither one of its views
    nor a CTE of the query naming it."""
    names: set[str] = set()
    for tree in [expansion.statement, *expansion.views.values()]:
        ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
        for table in tree.find_all(exp.Table):
            name = table.name.lower()
            if name and name not in ctes and name not in expansion.views:
                names.add(name)
    return names
