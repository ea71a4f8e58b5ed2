"""The expansion's stages and defaults, one home each.

The pipeline (``runner.Settings``), the config file's ``[expand]`` section
(``toolex.pipeline.config``) and the options of `toolex expand` all read these names, so a default
changes in one place. An option given on the command line wins over the config file, which wins
over these (``toolex.pipeline.config.expand_settings``).
"""

from __future__ import annotations

STAGES = ("decompose", "candidates", "verify", "assemble", "audit")
# `toolex expand --stage` names: "verify" means retrieve candidates and judge them (stage 2 of the
# paper).
STAGE_GROUPS = {
    "all": STAGES,
    "decompose": ("decompose",),
    "candidates": ("candidates",),
    "verify": ("candidates", "verify"),
    "assemble": ("assemble",),
    "audit": ("audit",),
}

# BM25: offline, no model, the cheapest, and on the ToolBench-style sample it misses fewer
# references in its top 20 than the BM25+WordLlama hybrid (94 of 743 vs 146:
# benchmarks/bench_candidates.py).
CANDIDATE_RETRIEVER = "bm25"
# Candidates retrieved per sub-query (stage 2); an unretrieved reference is charged rank K + 1.
CANDIDATES_PER_SUBQUERY = 20
# Library searched, by `toolex retrieve` and by the candidates of stage 2: the whole benchmark.
# ToolRet scores retrievers over its pooled corpus and the paper retrieves candidates "over the
# full tool library"; searching only the query's task inflates baseline scores and hides
# equivalents that live in other tasks. 'task' / 'category' (and 'auto': the task when the items
# have tasks) are options that depart from the paper.
SCOPE = "benchmark"
# Documentation rendering stage 2 searches: 'default' = items.text; any rendering loaded with
# `toolex load docs` (e.g. Tool-DE-style expanded documentation) may be named instead. The paper
# searched Tool-DE's expanded documentation (its §3.2), which toolex does not write: a departure
# (docs/departures.md).
RENDERING = "default"
# Combinations audited per query, best RRF first (stage 3b). None = every one, as the paper does;
# a number is an opt-in cost control, and the combinations beyond it are 'cut' (counted, never
# audited, never relevant in `export qrels` unless asked).
AUDIT_CAP: int | None = None
# With no cap, a query whose product holds more pending combinations than this is audited up to
# it and the rest are cut; `expand` and `stats` report every query that hit it.
AUDIT_SAFETY_LIMIT = 1000
# Which ground-truth pairs must stay on one platform (toolex.pipeline.platform_rule).
PLATFORM_RULE = "feeds"
# What the verify stage sends to its judge (toolex.pipeline.verify_plan): the offline pre-screen
# ('off' = every candidate goes to the verifier, as the paper does; 'auto' = on for a verifier
# that makes calls only while the screen earns it, below), verdict reuse across sub-queries
# (None = same-step when the verifier makes calls) and the order tasks go out in.
PRESCREEN = "off"
REUSE: str | None = None
ORDER = "retrieval"

# The settings each stage runs with, as recorded in expansions.config (judges apart: the
# decompose, verify and audit stages record their judge's spec under "judges").
STAGE_SETTINGS: dict[str, tuple[str, ...]] = {
    "decompose": (),
    "candidates": ("retriever", "depth", "scope", "rendering"),
    "verify": (),
    "assemble": ("audit_cap", "audit_safety_limit", "platform_rule", "rrf_k"),
    "audit": (),
}
JUDGED_STAGES = ("decompose", "verify", "audit")
