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
# references in its top 20 than the BM25+WordLlama hybrid (40 of 743 vs 85; see the README).
CANDIDATE_RETRIEVER = "bm25"
# Candidates retrieved per sub-query (stage 2); an unretrieved reference is charged rank K + 1.
CANDIDATES_PER_SUBQUERY = 20
# Combinations audited per query, best RRF first (stage 3b); the rest are cut, not judged.
AUDIT_CAP = 20
# Library the candidates come from: the query's task when the items have tasks, else all of it.
SCOPE = "auto"
# Which ground-truth pairs must stay on one platform (toolex.pipeline.platform_rule).
PLATFORM_RULE = "feeds"
