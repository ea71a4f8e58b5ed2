"""`toolex load ...`: read a benchmark (or extra annotations) into the store, all or nothing."""

from __future__ import annotations

import click

from toolex.cli.load_candidates import candidates_cmd
from toolex.cli.load_options import KINDS, LoadTarget, replace_option, run_load, target_options
from toolex.cli.load_plain import plain_cmd
from toolex.cli.load_skillret import skillret_cmd
from toolex.cli.options import (
    benchmark_option,
    db_option,
    echo_summary,
    expansion_option,
    open_store,
)


@click.group(short_help="Load a benchmark, alternative docs, combinations, lists.")
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
@target_options("toolret")
def toolret_cmd(path: str, tasks: tuple[str, ...], tools: str | None, target: LoadTarget) -> None:
    """Load ToolRet tasks from PATH.

    PATH holds task folders `<task>/queries.json` + `<task>/tools.json` (or is one task folder),
    or Hugging Face snapshots `ToolRet-Queries/<task>/queries-*.parquet` and
    `ToolRet-Tools/<category>/tools-*.parquet`. Category (code/web/customized) follows ToolRet's
    own task map; labels keep relevance and order.

    \b
    Example:
      toolex load toolret ../shared/data/toolret --task apibank --task toolink
    """
    from toolex.api.load import load_toolret

    with target.open() as store:
        result = run_load(
            f"loading ToolRet from {path}",
            lambda: load_toolret(
                store, path, tasks=tasks, name=target.name, tools=tools, replace=target.replace
            ),
        )
    echo_summary(result)


@load.command("hub", short_help="Download ToolRet tasks from the Hugging Face Hub and load.")
@click.option("--task", "tasks", multiple=True, required=True, help="ToolRet task (repeatable).")
@click.option(
    "--cache",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder for the downloaded Parquet files [default: ~/.cache/toolex/toolret].",
)
@click.option("--revision", default=None, help="Pin the Hub datasets to this commit (both repos).")
@target_options("toolret")
def hub_cmd(
    tasks: tuple[str, ...], cache: str | None, revision: str | None, target: LoadTarget
) -> None:
    """Download ToolRet tasks from the Hugging Face Hub and load them.

    Reads mangopy/ToolRet-Queries (config per task) and mangopy/ToolRet-Tools (config per
    category). Fails fast offline (and under HF_HUB_OFFLINE=1); then use a local copy with
    `toolex load toolret FOLDER`.

    \b
    Example:
      toolex load hub --task apibank --task gorilla-pytorch
    """
    from toolex.api.load import load_hub

    with target.open() as store:
        result = run_load(
            "downloading ToolRet from the Hugging Face Hub",
            lambda: load_hub(
                store,
                tasks,
                name=target.name,
                cache_dir=cache,
                revision=revision,
                replace=target.replace,
            ),
        )
    echo_summary(result)


@load.command("stabletoolbench")
@click.argument("path", type=click.Path(exists=True, file_okay=False))
@click.option(
    "--group", "groups", multiple=True, help="Load only this group, e.g. G1_tool (repeatable)."
)
@target_options("stabletoolbench")
def stabletoolbench_cmd(path: str, groups: tuple[str, ...], target: LoadTarget) -> None:
    """Load ToolBench/StableToolBench test groups from PATH.

    PATH holds `test_instruction/<group>.json` and optionally `test_query_ids/<group>.json`
    (only those solvable ids are kept). The library is the union of all api_list entries:
    item `tool_name::api_name`, platform tool_name, category category_name. Query ids are
    `<group>:<query_id>`, labels come from `relevant APIs` in order.

    \b
    Example:
      toolex load stabletoolbench ../shared/data/stabletoolbench \\
          --group G2_instruction
    """
    from toolex.api.load import load_stabletoolbench

    with target.open() as store:
        result = run_load(
            f"loading StableToolBench from {path}",
            lambda: load_stabletoolbench(
                store, path, groups=groups, name=target.name, replace=target.replace
            ),
        )
    echo_summary(result)


@load.command("beir")
@click.argument("path", type=click.Path(exists=True, file_okay=False))
@click.option("--split", default="test", show_default=True, help="qrels/<split>.tsv to read.")
@click.option("--kind", type=KINDS, default="tool", show_default=True, help="Item kind.")
@target_options("beir")
def beir_cmd(path: str, split: str, kind: str, target: LoadTarget) -> None:
    """Load a benchmark in the BEIR layout from PATH.

    PATH holds corpus.jsonl (`_id`, `title`, `text`, optional `metadata`), queries.jsonl
    (`_id`, `text`) and qrels/<split>.tsv (header `query-id corpus-id score`). Only judged
    queries are loaded; judgments with score <= 0 are skipped. Scores are whole numbers
    (2.0 is 2); a fraction such as 1.5 is refused at its line, since trec_eval would
    truncate it. Ids may hold spaces, never a newline, tab or other control character.

    \b
    Example:
      toolex load beir ./mytools-beir --split test --name mytools
    """
    from toolex.api.load import load_beir

    with target.open() as store:
        result = run_load(
            f"loading BEIR from {path}",
            lambda: load_beir(
                store, path, split=split, name=target.name, kind=kind, replace=target.replace
            ),
        )
    echo_summary(result)


@load.command("docs", short_help="Load alternative documentation of loaded items.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@benchmark_option("Benchmark whose items the docs describe.")
@click.option(
    "--rendering", required=True, help="Name of this documentation variant, e.g. gpt-4o-mini."
)
@replace_option
@db_option
def docs_cmd(file: str, benchmark: str, rendering: str, replace: bool, db: str) -> None:
    """Load alternative documentation of loaded items (LLM-expanded, say) as a second rendering.

    FILE is a JSON array / JSONL / Parquet of {id, augmented: {...}} (or {id, doc: {...}});
    every id must name an item of the benchmark.

    \b
    Example:
      toolex load docs --benchmark toolret --rendering gpt-4o-mini \\
          ../shared/data/toolret/augmented_tools_apibank/gpt-4o-mini_tools.json
    """
    from toolex.api.load import load_docs

    with open_store(db) as store:
        result = load_docs(store, file, benchmark=benchmark, rendering=rendering, replace=replace)
    echo_summary(result)


@load.command("combinations", short_help="Import valid combinations of an expansion.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@benchmark_option()
@expansion_option(new=True)
@replace_option
@db_option
def combinations_cmd(file: str, benchmark: str, expansion: str, replace: bool, db: str) -> None:
    """Import valid combinations (rows query_id, combo_id, item_id[, slot]; JSONL or Parquet).

    combo_id 0 is reserved for the original ground truth, which every imported query gets.
    A combination names one tool per ground-truth tool of its query: slot (default: file order
    within the combination) is one of the query's slots 0..k-1, each filled once; a slot out of
    range or left empty is refused at its line.

    \b
    Example:
      toolex load combinations combos.parquet --benchmark toolret \\
          --expansion paper
    """
    from toolex.expansions.combinations import import_combinations

    with open_store(db) as store:
        result = import_combinations(
            store, file, benchmark=benchmark, expansion=expansion, replace=replace
        )
    echo_summary(result)


@load.command("subqueries", short_help="Import the sub-queries of an expansion.")
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


# `load plain`, `load skillret` and `load candidates` live in modules of their own (plain's help
# lists every field it reads and the mapping; skillret imports its substitutable labels;
# candidates imports lists made elsewhere into an expansion)
load.add_command(plain_cmd)
load.add_command(skillret_cmd)
load.add_command(candidates_cmd)
