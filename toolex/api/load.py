"""Loading benchmarks into a store, one function per format `toolex load` reads.

Each reads the files into a validated benchmark, then writes it in one transaction: a failed
load changes nothing. Loading the same content under the same name again is a no-op
(``status == "unchanged"``); different content needs ``replace=True``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolex.loaders import DocsResult, LoadResult
    from toolex.store import Store


def load_toolret(
    store: Store,
    path: str | Path,
    *,
    tasks: Sequence[str] = (),
    name: str = "toolret",
    tools: str | Path | None = None,
    replace: bool = False,
) -> LoadResult:
    """Load ToolRet tasks (`toolex load toolret`).

    Args:
        store: A store opened for writing.
        path: Task folders ``<task>/queries.json`` + ``<task>/tools.json`` (or one task folder),
            or a Hugging Face snapshot of ``ToolRet-Queries``.
        tasks: Only these tasks; empty: every task found.
        name: The benchmark's name in the store.
        tools: A separate ``ToolRet-Tools`` snapshot, when ``path`` is ``ToolRet-Queries``.
        replace: Replace a benchmark of that name holding other content.

    Returns:
        What was loaded: ``status``, counts of items, queries and labels, and notes.

    Raises:
        InputError: A bad record, named by file and line or record.
    """
    from toolex.loaders import load_toolret as load

    return load(store, path, tasks=list(tasks) or None, name=name, tools=tools, replace=replace)


def load_hub(
    store: Store,
    tasks: Sequence[str],
    *,
    name: str = "toolret",
    cache_dir: str | Path | None = None,
    revision: str | None = None,
    replace: bool = False,
) -> LoadResult:
    """Download ToolRet tasks from the Hugging Face Hub and load them (`toolex load hub`).

    Args:
        store: A store opened for writing.
        tasks: ToolRet task names (``apibank``, ``gorilla-pytorch``, ...).
        name: The benchmark's name in the store.
        cache_dir: Folder for the downloaded Parquet files (default
            ``~/.cache/toolex/toolret``).
        revision: Pin both Hub datasets to this commit.
        replace: Replace a benchmark of that name holding other content.

    Raises:
        ModelUnavailableError: The Hub cannot be reached (offline, ``HF_HUB_OFFLINE=1``).
    """
    from toolex.loaders.hub import load_toolret_hub

    return load_toolret_hub(
        store, list(tasks), name=name, cache_dir=cache_dir, revision=revision, replace=replace
    )


def load_stabletoolbench(
    store: Store,
    path: str | Path,
    *,
    groups: Sequence[str] = (),
    name: str = "stabletoolbench",
    replace: bool = False,
) -> LoadResult:
    """Load ToolBench/StableToolBench test groups (`toolex load stabletoolbench`).

    Args:
        store: A store opened for writing.
        path: Holds ``test_instruction/<group>.json`` and optionally
            ``test_query_ids/<group>.json`` (only those solvable ids are kept).
        groups: Only these groups (``G1_tool``, ...); empty: all.
        name: The benchmark's name in the store.
        replace: Replace a benchmark of that name holding other content.
    """
    from toolex.loaders import load_stabletoolbench as load

    return load(store, path, groups=list(groups) or None, name=name, replace=replace)


def load_beir(
    store: Store,
    path: str | Path,
    *,
    split: str = "test",
    name: str = "beir",
    kind: str = "tool",
    replace: bool = False,
) -> LoadResult:
    """Load a benchmark in the BEIR layout (`toolex load beir`).

    Args:
        store: A store opened for writing.
        path: Holds ``corpus.jsonl``, ``queries.jsonl`` and ``qrels/<split>.tsv``.
        split: The qrels file to read.
        name: The benchmark's name in the store.
        kind: The items' kind (``tool``, ``skill``, ...).
        replace: Replace a benchmark of that name holding other content.
    """
    from toolex.loaders import load_beir as load

    return load(store, path, split=split, name=name, kind=kind, replace=replace)


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
    """Load a benchmark from plain item, query and label files (`toolex load plain`).

    Args:
        store: A store opened for writing.
        items: JSON, JSONL, CSV or Parquet of the items.
        queries: The queries (with their ``labels`` when ``qrels`` is None).
        qrels: Rows ``query_id, item_id[, relevance]``; None: each query's ``labels``.
        name: The benchmark's name in the store.
        kind: The items' kind.
        fields: Field mappings as ``--map`` takes them (``"queries.text=user_request"``).
        replace: Replace a benchmark of that name holding other content.
    """
    from toolex.loaders import load_plain as load

    return load(store, items, queries, qrels, name=name, kind=kind, fields=fields, replace=replace)


def load_skillret(
    store: Store,
    path: str | Path,
    *,
    split: str = "test",
    name: str = "skillret",
    substitutable: str = "equivalents",
    expansion: str = "substitutable",
    replace: bool = False,
) -> LoadResult:
    """Load a SkillRet-style skill library (`toolex load skillret`).

    SkillRet's "functionally substitutable" labels become valid combinations of
    ``expansion`` (``substitutable="equivalents"``), or are skipped (``"skip"``).

    Args:
        store: A store opened for writing.
        path: Holds ``skills/<split>.jsonl``, ``queries/<split>.jsonl`` and optionally
            ``qrels/<split>.jsonl``.
        split: The split to read.
        name: The benchmark's name in the store.
        substitutable: ``equivalents`` or ``skip``.
        expansion: The expansion the substitutable labels are imported into.
        replace: Replace a benchmark of that name holding other content.

    Returns:
        The load's result; a note says how many combinations the expansion received.
    """
    from toolex.loaders import load_skillret as load

    result, data = load(
        store, path, split=split, name=name, replace=replace, substitutable=substitutable
    )
    if data.substitutes:
        from toolex import expansions
        from toolex.expansions.combinations import import_combination_records
        from toolex.loaders.skillret import substitute_records

        # The expansion is the load's own, so a reload re-imports it (whole, when the
        # benchmark was replaced).
        if result.status == "replaced":
            expansions.drop_combinations(store, data.benchmark.name, expansion)
        done = import_combination_records(
            store,
            ((m.record(), m.line) for m in substitute_records(data)),
            data.qrels_path,
            benchmark=data.benchmark.name,
            expansion=expansion,
            replace=True,
        )
        result.notes.append(
            f"expansion {expansion!r}: {done.combinations} valid combination(s) of "
            f"{done.queries} queries from the substitutable labels (`toolex eval --expansion "
            f"{expansion}`)"
        )
    return result


def load_docs(
    store: Store, path: str | Path, *, benchmark: str, rendering: str, replace: bool = False
) -> DocsResult:
    """Load alternative documentation of a benchmark's items as a rendering (`toolex load docs`).

    Args:
        store: A store opened for writing.
        path: JSON array, JSONL or Parquet of ``{id, augmented: {...}}`` (or ``{id, doc}``).
        benchmark: The benchmark whose items the docs describe.
        rendering: The rendering's name (``gpt-4o-mini``), for `retrieve --rendering`.
        replace: Replace a rendering of that name.
    """
    from toolex.loaders import load_docs as load

    return load(store, path, benchmark=benchmark, rendering=rendering, replace=replace)
