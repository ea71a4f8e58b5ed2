"""Benchmark loaders: each reads one on-disk format into a validated in-memory ``Benchmark``,
then ``write_benchmark`` stores it in ONE transaction (a failed load changes nothing).

Python API (what the CLI calls)::

    load_toolret(store, path, tasks=None, name="toolret", tools=None, replace=False) -> LoadResult
    load_stabletoolbench(store, path, groups=None, name="stabletoolbench", replace=False)
    load_beir(store, path, split="test", name="beir", kind="tool", replace=False)
    load_plain(store, items, queries, qrels=None, name=..., kind="tool", fields=(), replace=False)
    load_skillret(store, root, split="test", name="skillret", replace=False,
                  substitutable="equivalents") -> (LoadResult, SkillRet)
    load_docs(store, path, benchmark=..., rendering=..., replace=False) -> DocsResult
    load_toolret_hub(store, tasks, name="toolret", ...)  (toolex.loaders.hub)

Loading the same content under the same name again is a no-op (``status == "unchanged"``);
different content needs ``replace=True``, which swaps the benchmark's items, queries, qrels and
item_docs atomically.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toolex.loaders.benchmark import Benchmark
from toolex.loaders.docs import DocsResult, load_docs
from toolex.loaders.result import LoadResult
from toolex.loaders.write import write_benchmark
from toolex.store import Store

if TYPE_CHECKING:
    from toolex.loaders.skillret import SkillRet

__all__ = [
    "FORMATS",
    "Benchmark",
    "DocsResult",
    "LoadResult",
    "load_beir",
    "load_docs",
    "load_plain",
    "load_skillret",
    "load_stabletoolbench",
    "load_toolret",
    "write_benchmark",
]

# format name (benchmarks.format) -> module that reads it
FORMATS = {
    "toolret": "toolex.loaders.toolret",
    "stabletoolbench": "toolex.loaders.stabletoolbench",
    "beir": "toolex.loaders.beir",
    "plain": "toolex.loaders.plain",
    "skillret": "toolex.loaders.skillret",
    "hub": "toolex.loaders.hub",
}


def load_toolret(
    store: Store,
    path: str | Path,
    *,
    tasks: list[str] | None = None,
    name: str = "toolret",
    tools: str | Path | None = None,
    replace: bool = False,
) -> LoadResult:
    from toolex.loaders.toolret import read_toolret

    bench = read_toolret(path, tasks=tasks, name=name, tools=tools)
    return write_benchmark(store, bench, replace=replace)


def load_stabletoolbench(
    store: Store,
    path: str | Path,
    *,
    groups: list[str] | None = None,
    name: str = "stabletoolbench",
    replace: bool = False,
) -> LoadResult:
    from toolex.loaders.stabletoolbench import read_stabletoolbench

    return write_benchmark(
        store, read_stabletoolbench(path, groups=groups, name=name), replace=replace
    )


def load_beir(
    store: Store,
    path: str | Path,
    *,
    split: str = "test",
    name: str = "beir",
    kind: str = "tool",
    replace: bool = False,
) -> LoadResult:
    from toolex.loaders.beir import read_beir

    return write_benchmark(
        store, read_beir(path, split=split, name=name, kind=kind), replace=replace
    )


def load_plain(
    store: Store,
    items: str | Path,
    queries: str | Path,
    qrels: str | Path | None = None,
    *,
    name: str,
    kind: str = "tool",
    fields: Sequence[str] = (),
    replace: bool = False,
) -> LoadResult:
    """``qrels`` None: qrels from each query's ``labels``; ``fields``: ``--map`` mappings
    (``"queries.text=user_request"``, :mod:`toolex.loaders.fieldmap`)."""
    from toolex.loaders.plain import read_plain

    bench = read_plain(items, queries, qrels, name=name, kind=kind, fields=fields)
    return write_benchmark(store, bench, replace=replace)


def load_skillret(
    store: Store,
    root: str | Path,
    *,
    split: str = "test",
    name: str = "skillret",
    replace: bool = False,
    substitutable: str = "equivalents",
) -> tuple[LoadResult, SkillRet]:
    """Write the benchmark; the substitutable qrels come back as records
    (``SkillRet.substitutes``, toolex.loaders.skillret) for the expansion import: `toolex load
    skillret` makes them an expansion's valid combinations."""
    from toolex.loaders.skillret import read_skillret

    data = read_skillret(root, split=split, name=name, substitutable=substitutable)
    return write_benchmark(store, data.benchmark, replace=replace), data
