"""`toolex load skillret`: a SkillRet-style skill library, and its substitutable labels as an
expansion's valid combinations (toolex.loaders.skillret)."""

from __future__ import annotations

import click

from toolex.cli.load_options import LoadTarget, run_load, target_options
from toolex.cli.options import echo_summary


@click.command("skillret", short_help="Load a SkillRet-style skill library.")
@click.argument("path", type=click.Path(exists=True, file_okay=False))
@click.option("--split", default="test", show_default=True, help="<part>/<split>.jsonl to read.")
@click.option(
    "--substitutable",
    type=click.Choice(["equivalents", "skip"]),
    default="equivalents",
    show_default=True,
    help="SkillRet's 'functionally substitutable' labels (graded below the seeds): valid "
    "combinations of --expansion (the paper does not say how it uses them), or skipped.",
)
@click.option(
    "--expansion",
    default="substitutable",
    show_default=True,
    help="Expansion the substitutable labels are imported into.",
)
@target_options("skillret")
def skillret_cmd(
    path: str, split: str, substitutable: str, expansion: str, target: LoadTarget
) -> None:
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

    The labels of a query's top grade form its annotated combination (the seeds). A
    lower grade (SkillRet's "functionally substitutable", relevance 1) is an equivalent
    of a seed: by default each becomes a valid combination of the expansion
    `substitutable`, its seed swapped for it (the seed a label names in seed_id, else
    the query's only seed), so `toolex eval --expansion substitutable` scores against
    SkillRet's own equivalents; --substitutable skip drops them, counted. The version
    read (v1.0: 4,997 test queries; v1.1: 4,392) is recorded in the benchmark's source
    (`toolex info`).

    \b
    Example:
      toolex load skillret ./SKILLRET --split test
      toolex eval --run bm25 --expansion substitutable
    """
    from toolex.api.load import load_skillret

    with target.open() as store:
        result = run_load(
            f"loading SkillRet from {path}",
            lambda: load_skillret(
                store,
                path,
                split=split,
                name=target.name,
                substitutable=substitutable,
                expansion=expansion,
                replace=target.replace,
            ),
        )
    echo_summary(result)
