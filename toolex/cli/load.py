"""`toolex load ...`: read a benchmark (or extra annotations) into the store, all or nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from toolex.cli.options import (
    benchmark_option,
    db_option,
    echo_summary,
    expansion_option,
    open_store,
)

_KINDS = click.Choice(["tool", "skill"])


def replace_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--replace",
        is_flag=True,
        help="Swap out what is stored under this name (atomically). Without it, loading the same "
        "content again is a no-op and different content is refused.",
    )(f)


def name_option(default: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        "--name", default=default, show_default=True, help="Benchmark name in the store."
    )


def _run(label: str, fn: Callable[[], Any]) -> Any:
    """Run a load under a spinner on stderr, or a line when it starts and one when it ends when
    stderr is not a terminal (reading a large benchmark takes seconds)."""
    from toolex.cli.progress import status

    with status(label):
        return fn()


@click.group()
def load() -> None:
    """Load a benchmark, alternative docs, combinations, sub-queries or candidate lists.

    \b
    Examples:
      toolex load toolret ../shared/data/toolret --task apibank
      toolex load stabletoolbench ../shared/data/stabletoolbench
    """


@load.command("toolret")
@click.argument("path", type=click.Path(exists=True, file_okay=False))
@click.option("--task", "tasks", multiple=True, help="Load only this task (repeatable).")
@click.option(
    "--tools",
    type=click.Path(exists=True, file_okay=False),
    default=None,
    help="A separate ToolRet-Tools snapshot (<category>/tools-*.parquet); PATH is then the "
    "ToolRet-Queries snapshot (<task>/queries-*.parquet).",
)
@name_option("toolret")
@replace_option
@db_option
def toolret_cmd(
    path: str, tasks: tuple[str, ...], tools: str | None, name: str, replace: bool, db: str
) -> None:
    """Load ToolRet tasks from PATH.

    PATH holds task folders `<task>/queries.json` + `<task>/tools.json` (or is one task folder),
    or Hugging Face snapshots `ToolRet-Queries/<task>/queries-*.parquet` and
    `ToolRet-Tools/<category>/tools-*.parquet`. Category (code/web/customized) follows ToolRet's
    own task map; labels keep relevance and order.

    \b
    Example:
      toolex load toolret ../shared/data/toolret --task apibank --task toolink
    """
    from toolex.loaders import load_toolret

    with open_store(db) as store:
        result = _run(
            f"loading ToolRet from {path}",
            lambda: load_toolret(
                store, path, tasks=list(tasks) or None, name=name, tools=tools, replace=replace
            ),
        )
    echo_summary(result)


@load.command("hub")
@click.option("--task", "tasks", multiple=True, required=True, help="ToolRet task (repeatable).")
@click.option(
    "--cache",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder for the downloaded Parquet files [default: ~/.cache/toolex/toolret].",
)
@click.option("--revision", default=None, help="Pin the Hub datasets to this commit (both repos).")
@name_option("toolret")
@replace_option
@db_option
def hub_cmd(
    tasks: tuple[str, ...],
    cache: str | None,
    revision: str | None,
    name: str,
    replace: bool,
    db: str,
) -> None:
    """Download ToolRet tasks from the Hugging Face Hub and load them.

    Reads mangopy/ToolRet-Queries (config per task) and mangopy/ToolRet-Tools (config per
    category). Fails fast offline (and under HF_HUB_OFFLINE=1); then use a local copy with
    `toolex load toolret FOLDER`.

    \b
    Example:
      toolex load hub --task apibank --task gorilla-pytorch
    """
    from toolex.loaders.hub import load_toolret_hub

    with open_store(db) as store:
        result = _run(
            "downloading ToolRet from the Hugging Face Hub",
            lambda: load_toolret_hub(
                store, list(tasks), name=name, cache_dir=cache, revision=revision, replace=replace
            ),
        )
    echo_summary(result)


@load.command("stabletoolbench")
@click.argument("path", type=click.Path(exists=True, file_okay=False))
@click.option(
    "--group", "groups", multiple=True, help="Load only this group, e.g. G1_tool (repeatable)."
)
@name_option("stabletoolbench")
@replace_option
@db_option
def stabletoolbench_cmd(
    path: str, groups: tuple[str, ...], name: str, replace: bool, db: str
) -> None:
    """Load ToolBench/StableToolBench test groups from PATH.

    PATH holds `test_instruction/<group>.json` and optionally `test_query_ids/<group>.json`
    (only those solvable ids are kept). The library is the union of all api_list entries:
    item `tool_name::api_name`, platform tool_name, category category_name. Query ids are
    `<group>:<query_id>`, labels come from `relevant APIs` in order.

    \b
    Example:
      toolex load stabletoolbench ../shared/data/stabletoolbench --group G2_instruction
    """
    from toolex.loaders import load_stabletoolbench

    with open_store(db) as store:
        result = _run(
            f"loading StableToolBench from {path}",
            lambda: load_stabletoolbench(
                store, path, groups=list(groups) or None, name=name, replace=replace
            ),
        )
    echo_summary(result)


@load.command("beir")
@click.argument("path", type=click.Path(exists=True, file_okay=False))
@click.option("--split", default="test", show_default=True, help="qrels/<split>.tsv to read.")
@click.option("--kind", type=_KINDS, default="tool", show_default=True, help="Item kind.")
@name_option("beir")
@replace_option
@db_option
def beir_cmd(path: str, split: str, kind: str, name: str, replace: bool, db: str) -> None:
    """Load a benchmark in the BEIR layout from PATH.

    PATH holds corpus.jsonl (`_id`, `title`, `text`, optional `metadata`), queries.jsonl
    (`_id`, `text`) and qrels/<split>.tsv (header `query-id corpus-id score`). Only judged
    queries are loaded; judgments with score <= 0 are skipped.

    \b
    Example:
      toolex load beir ./mytools-beir --split test --name mytools
    """
    from toolex.loaders import load_beir

    with open_store(db) as store:
        result = _run(
            f"loading BEIR from {path}",
            lambda: load_beir(store, path, split=split, name=name, kind=kind, replace=replace),
        )
    echo_summary(result)


@load.command("plain")
@click.option(
    "--items",
    type=click.Path(exists=True, dir_okay=False),
    required=True,
    help="Items file: id; text or doc; name, platform, kind, task, category.",
)
@click.option(
    "--queries",
    type=click.Path(exists=True, dir_okay=False),
    required=True,
    help="Queries file: id, text; instruction, task, category.",
)
@click.option(
    "--qrels",
    type=click.Path(exists=True, dir_okay=False),
    required=True,
    help="Labels file: query_id, item_id; relevance, slot.",
)
@click.option("--name", required=True, help="Benchmark name in the store.")
@click.option(
    "--kind",
    type=_KINDS,
    default="tool",
    show_default=True,
    help="Default kind of items that do not say (skill for SkillRet).",
)
@replace_option
@db_option
def plain_cmd(
    items: str, queries: str, qrels: str, name: str, kind: str, replace: bool, db: str
) -> None:
    """Load a benchmark from the plain toolex schema (JSONL, JSON array or Parquet, by suffix).

    \b
    items    id; text or doc (one is required); optional name, platform,
             kind (tool|skill), task, category
               text: a plain description; doc: the raw documentation object
    queries  id, text; optional instruction, task, category
    qrels    query_id, item_id; optional relevance (default 1), slot (0-based position
             in the annotated combination; default file order within the query)

    \b
    One record of each (JSONL):
      items.jsonl    {"id": "weather::forecast", "name": "forecast", "platform": "weather",
                      "doc": {"api_name": "forecast",
                              "api_description": "Daily forecast for a city",
                              "required_parameters": [{"name": "city", "type": "STRING"}]}}
      queries.jsonl  {"id": "q1", "text": "Will it rain in Lyon tomorrow?"}
      qrels.jsonl    {"query_id": "q1", "item_id": "weather::forecast", "relevance": 1}

    A raw record in a benchmark's own shape (a ToolBench endpoint with api_name,
    api_description, required_parameters; an OpenAPI operation) goes whole under `doc`:
    it is rendered and read by the judges like every other benchmark's docs, its name
    is read from it (name, api_name or title) unless the item gives one, and `platform`
    (the provider that issues ids and tokens, ToolBench's tool_name) is worth giving:
    the platform rule needs it. Item ids may hold spaces (TREC exports escape them,
    see `toolex export trec-run --help`). A (query, item) label given twice keeps its
    highest relevance.

    \b
    Examples:
      toolex load plain --name tools --items items.jsonl --queries queries.jsonl \\
          --qrels qrels.jsonl
      toolex load plain --name skills --kind skill --items skills.parquet \\
          --queries queries.parquet --qrels qrels.parquet
    SkillRet's own layout has a loader: `toolex load skillret --help`.
    """
    from toolex.loaders import load_plain

    with open_store(db) as store:
        result = _run(
            "loading plain benchmark",
            lambda: load_plain(store, items, queries, qrels, name=name, kind=kind, replace=replace),
        )
    echo_summary(result)


@load.command("skillret")
@click.argument("path", type=click.Path(exists=True, file_okay=False))
@click.option("--split", default="test", show_default=True, help="<part>/<split>.jsonl to read.")
@name_option("skillret")
@replace_option
@db_option
def skillret_cmd(path: str, split: str, name: str, replace: bool, db: str) -> None:
    """Load a SkillRet-style skill library (skills are items of kind `skill`).

    PATH holds skills/<split>.jsonl, queries/<split>.jsonl and optionally
    qrels/<split>.jsonl (the layout of ThakiCloud/SKILLRET). The fields map onto the
    plain schema (`toolex load plain --help`):

    \b
      skills   id -> id, name -> name, description + skill_md -> doc (kind skill),
               category -> category
      queries  id -> id, query -> text, setting -> task, category -> category
      qrels    query_id -> query_id, skill_id -> item_id, relevance -> relevance
               (no qrels file: each query's labels [{id, relevance}] or skill_ids)

    The labels of a query's top grade form its annotated combination; lower grades
    (SkillRet's "functionally substitutable", relevance 1) are alternatives, not
    further steps: they are skipped and counted.

    \b
    Example:
      toolex load skillret ./SKILLRET --split test
    """
    from toolex.loaders import load_skillret

    with open_store(db) as store:
        result = _run(
            f"loading SkillRet from {path}",
            lambda: load_skillret(store, path, split=split, name=name, replace=replace),
        )
    echo_summary(result)


@load.command("docs")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@benchmark_option("Benchmark whose items the docs describe.")
@click.option(
    "--rendering", required=True, help="Name of this documentation variant, e.g. gpt-4o-mini."
)
@replace_option
@db_option
def docs_cmd(file: str, benchmark: str, rendering: str, replace: bool, db: str) -> None:
    """Load alternative (e.g. LLM-expanded) documentation of loaded items as a second rendering.

    FILE is a JSON array / JSONL / Parquet of {id, augmented: {...}} (or {id, doc: {...}});
    every id must name an item of the benchmark.

    \b
    Example:
      toolex load docs --benchmark toolret --rendering gpt-4o-mini \\
          ../shared/data/toolret/augmented_tools_apibank/gpt-4o-mini_tools.json
    """
    from toolex.loaders import load_docs

    with open_store(db) as store:
        result = load_docs(store, file, benchmark=benchmark, rendering=rendering, replace=replace)
    echo_summary(result)


@load.command("combinations")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@benchmark_option()
@expansion_option(new=True)
@replace_option
@db_option
def combinations_cmd(file: str, benchmark: str, expansion: str, replace: bool, db: str) -> None:
    """Import valid combinations (rows query_id, combo_id, item_id[, slot]; JSONL or Parquet).

    combo_id 0 is reserved for the original ground truth, which every imported query gets.

    \b
    Example:
      toolex load combinations combos.parquet --benchmark toolret --expansion paper
    """
    from toolex.expansions.combinations import import_combinations

    with open_store(db) as store:
        result = import_combinations(
            store, file, benchmark=benchmark, expansion=expansion, replace=replace
        )
    echo_summary(result)


@load.command("subqueries")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@benchmark_option()
@expansion_option(new=True)
@replace_option
@db_option
def subqueries_cmd(file: str, benchmark: str, expansion: str, replace: bool, db: str) -> None:
    """Import sub-queries (rows query_id, slot, text[, operation, entity]; JSONL or Parquet).

    Each query needs exactly one sub-query per ground-truth tool (slots 0..k-1).

    \b
    Example:
      toolex load subqueries subq.jsonl --benchmark toolret --expansion paper
    """
    from toolex.expansions.subqueries import import_subqueries

    with open_store(db) as store:
        result = import_subqueries(
            store, file, benchmark=benchmark, expansion=expansion, replace=replace
        )
    echo_summary(result)


from toolex.cli.load_candidates import candidates_cmd  # noqa: E402 (its own module: load.py's size)

load.add_command(candidates_cmd)
