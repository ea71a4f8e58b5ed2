"""`toolex load plain`: the plain toolex schema, and a field mapping for files with their own
field names (toolex.loaders.fieldmap). Its help lists every field the loader reads."""

from __future__ import annotations

from dataclasses import dataclass

import click

from toolex.cli.load_options import KINDS, replace_option, run_load
from toolex.cli.options import NAME, db_option, echo_summary, open_store, option_group


@dataclass(frozen=True)
class PlainFiles:
    """The files of a plain benchmark and where their fields are (--map)."""

    items: str
    queries: str
    qrels: str | None
    fields: tuple[str, ...]


files_options = option_group(
    "files",
    [
        click.option(
            "--items",
            type=click.Path(exists=True, dir_okay=False),
            required=True,
            help="Items file: id; text or doc; name, platform, kind, task, category.",
        ),
        click.option(
            "--queries",
            type=click.Path(exists=True, dir_okay=False),
            required=True,
            help="Queries file: id, text; instruction, task, category, dependencies; labels "
            "(without --qrels).",
        ),
        click.option(
            "--qrels",
            type=click.Path(exists=True, dir_okay=False),
            default=None,
            help="Labels file: query_id, item_id; relevance, slot. Without it, each query's "
            "labels field holds its gold tools.",
        ),
        click.option(
            "--map",
            "fields",
            multiple=True,
            metavar="TARGET=SOURCE",
            help="Read a field from elsewhere in your records (repeatable): see FIELD MAPPING "
            "below.",
        ),
    ],
    PlainFiles,
)


@click.command("plain", short_help="Load a benchmark from the plain toolex schema.")
@files_options
@click.option("--name", required=True, help="Benchmark name in the store.", type=NAME)
@click.option(
    "--kind",
    type=KINDS,
    default="tool",
    show_default=True,
    help="Default kind of items that do not say (skill for SkillRet).",
)
@replace_option
@db_option
def plain_cmd(files: PlainFiles, name: str, kind: str, replace: bool, db: str) -> None:
    """Load a benchmark from the plain toolex schema (JSONL, JSON array or Parquet, by suffix).

    \b
    FIELDS READ (the names --map targets; the rest of a record is ignored):
    items    id (required); text or doc (one is required): text a plain
             description, doc the raw documentation object; name, platform
             (the provider issuing ids and tokens), kind (tool|skill), task,
             category
    queries  id, text (required); instruction, task, category;
             dependencies: the call chain, a list of {from, to, value}: from/to a
               slot (0-based) or a judged item id, the producer's output passed
               into the consumer's parameters, value what is handed over;
             labels (without --qrels): the gold tools in plan order, each an
               item id or {id, relevance, from, outputs, arguments}: from lists
               the steps whose output this step takes (0-based positions in
               labels, or item ids; a negative step, as in HuggingGPT's dep
               [-1], means none); outputs names the placeholders a step's
               results are written as (Seal-Tools' responses ["API_call_0"]),
               arguments holds its parameter values: a value holding another
               step's placeholder is a call chain from that step
    qrels    query_id, item_id (required); relevance (default 1), slot (0-based
             position in the annotated combination; default: file order within
             the query). A query's k labels fill slots 0..k-1: a negative slot,
             one past k-1 or one used twice is refused. A (query, item) label
             given twice (one tool in two steps) is one label in its first slot
             with the highest relevance, and the later labels move up a slot.

    \b
    One record of each (JSONL):
      items.jsonl    {"id": "weather::forecast", "name": "forecast",
                      "platform": "weather",
                      "doc": {"api_name": "forecast",
                              "api_description": "Daily forecast for a city",
                              "required_parameters":
                                  [{"name": "city", "type": "STRING"}]}}
      queries.jsonl  {"id": "q1", "text": "Will it rain in Lyon tomorrow?"}
      qrels.jsonl    {"query_id": "q1", "item_id": "weather::forecast",
                      "relevance": 1}

    A raw record in a benchmark's own shape (a ToolBench endpoint with api_name,
    api_description, required_parameters; an OpenAPI operation) goes whole under `doc`:
    it is rendered and read by the judges like every other benchmark's docs, its name
    is read from it (name, api_name or title) unless the item gives one, and `platform`
    (the provider that issues ids and tokens, ToolBench's tool_name) is worth giving:
    the platform rule needs it. Ids may hold spaces (TREC exports escape them, see
    `toolex export trec-run --help`), never a newline, tab or other control character,
    nor an invisible one (a byte order mark, a bidi override, a zero width space).

    \b
    FIELD MAPPING (--map TARGET=SOURCE, repeatable), for files with their own
    names:
    TARGET   FILE.FIELD, a field above (queries.text); FILE alone, where the
             records are when nested: a list inside a top-level object or inside
             each record (items=nodes; items=api_list makes each API of each tool
             record an item); FILE.FIELD.SUB, a field of each element of labels or
             dependencies (queries.labels.id=task,
             queries.labels.outputs=responses,
             queries.dependencies.from=source) or a key of the item's doc
             (items.doc.description=desc)
    SOURCE   a JSON path into the record: keys joined by dots (function.name),
             [N] an index, [*] every element (task_nodes[*].task), ["a.b"] a key
             with a dot, $ the record itself, ^ the enclosing record of a nested
             one (^.tool_name); or a template of paths: {^.tool_name}::{name}
    Unmapped fields are read under their own names; a mapping that finds nothing
    in its file is refused, and errors name fields as your file spells them.

    \b
    Examples:
      toolex load plain --name tools --items items.jsonl \\
          --queries queries.jsonl --qrels qrels.jsonl
      toolex load plain --name skills --kind skill --items skills.parquet \\
          --queries queries.parquet --qrels qrels.parquet
      # TaskBench: tools under "nodes" of one object; gold tools and call chain
      # in each request
      toolex load plain --name taskbench --items tool_desc.json \\
          --queries data.json --map items=nodes --map items.doc.name=id \\
          --map items.doc.description=desc \\
          --map items.doc.parameters=parameters --map queries.text=user_request \\
          --map queries.labels=task_nodes[*].task \\
          --map queries.dependencies=task_links \\
          --map queries.dependencies.from=source \\
          --map queries.dependencies.to=target
      # Seal-Tools: call chains as placeholders ("document_id": "API_call_0")
      toolex load plain --name seal --items tool.jsonl \\
          --queries test.jsonl --map items.id=api_name --map 'items.doc=$' \\
          --map queries.text=query --map queries.labels=calling \\
          --map queries.labels.id=api --map queries.labels.outputs=responses \\
          --map queries.labels.arguments=parameters
      # OpenAI-style function tools; gold tools: the names of the answer's calls
      toolex load plain --name fc --items tools.jsonl --queries queries.jsonl \\
          --map items.id=function.name --map items.doc=function \\
          --map queries.text=query --map queries.labels=answers[*].name
    SkillRet's own layout has a loader: `toolex load skillret --help`.
    """
    from toolex.api.load import load_plain

    with open_store(db) as store:
        result = run_load(
            "loading plain benchmark",
            lambda: load_plain(
                store,
                files.items,
                files.queries,
                files.qrels,
                name=name,
                kind=kind,
                fields=files.fields,
                replace=replace,
            ),
        )
    echo_summary(result)
