-- 001_base: the whole toolex data model, version 1.
-- Reads: nothing. Creates: every table below. Parameters: none.
-- Keys: everything is scoped by benchmark, because one store may hold several benchmarks
-- (ToolRet and StableToolBench side by side) whose ids could collide. Pipeline outputs are
-- further scoped by `expansion` (a named annotation run, default 'default'), so a heuristic and
-- an LLM expansion of the same benchmark can live in one store and be compared.

CREATE TABLE IF NOT EXISTS benchmarks (
    benchmark   VARCHAR PRIMARY KEY,          -- user-facing name, e.g. 'toolret', 'stabletoolbench'
    format      VARCHAR NOT NULL,             -- loader that read it: toolret|stabletoolbench|beir|plain|hub
    source      VARCHAR NOT NULL,             -- path or hub id it was read from
    revision    VARCHAR,                      -- content hash of the inputs, or the hub revision
    loaded_at   TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- The tool (or skill) library.
CREATE TABLE IF NOT EXISTS items (
    benchmark   VARCHAR NOT NULL,
    item_id     VARCHAR NOT NULL,
    kind        VARCHAR NOT NULL DEFAULT 'tool',   -- tool | skill
    name        VARCHAR,
    platform    VARCHAR,                      -- provider that issues ids/tokens (ToolBench tool_name)
    task        VARCHAR,                      -- ToolRet task, or NULL for a pooled library
    category    VARCHAR,                      -- ToolRet code/web/customized, ToolBench category_name
    doc         JSON NOT NULL,                -- raw documentation, exactly as loaded
    text        VARCHAR NOT NULL,             -- default rendering (toolex.tooldoc.render.render_doc)
    PRIMARY KEY (benchmark, item_id)
);

-- Alternative documentation of the same items (Tool-DE style expansions), by rendering name.
CREATE TABLE IF NOT EXISTS item_docs (
    benchmark   VARCHAR NOT NULL,
    item_id     VARCHAR NOT NULL,
    rendering   VARCHAR NOT NULL,             -- e.g. 'gpt-4o-mini'; 'default' is items.text
    doc         JSON NOT NULL,
    text        VARCHAR NOT NULL,
    PRIMARY KEY (benchmark, item_id, rendering)
);

CREATE TABLE IF NOT EXISTS queries (
    benchmark   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    task        VARCHAR,
    category    VARCHAR,
    text        VARCHAR NOT NULL,
    instruction VARCHAR,
    PRIMARY KEY (benchmark, query_id)
);

-- The original ground truth: ONE annotated combination per query; slot = position in it.
CREATE TABLE IF NOT EXISTS qrels (
    benchmark   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    item_id     VARCHAR NOT NULL,
    relevance   INTEGER NOT NULL DEFAULT 1,
    slot        INTEGER NOT NULL,
    PRIMARY KEY (benchmark, query_id, item_id)
);

-- Retrieval runs: imported files or produced by `toolex retrieve`.
CREATE TABLE IF NOT EXISTS runs (
    run_id      VARCHAR PRIMARY KEY,          -- user-facing name, unique in the store
    benchmark   VARCHAR NOT NULL,
    level       VARCHAR NOT NULL,             -- query | subquery
    retriever   VARCHAR,                      -- spec string, e.g. 'bm25', 'fastembed:...', NULL if imported
    source      VARCHAR,                      -- file it was imported from, NULL if produced here
    params      JSON,                         -- everything needed to reproduce it (model, rendering, K, versions...)
    created_at  TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Ranked results. rank follows trec_eval: score descending, ties by item_id descending.
CREATE TABLE IF NOT EXISTS run_results (
    run_id      VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    item_id     VARCHAR NOT NULL,
    score       DOUBLE NOT NULL,
    rank        INTEGER NOT NULL,
    PRIMARY KEY (run_id, query_id, item_id)
);

-- Per-sub-query lists of a sub-query-level run, before RRF fuses them into run_results.
CREATE TABLE IF NOT EXISTS subquery_results (
    run_id      VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    slot        INTEGER NOT NULL,
    item_id     VARCHAR NOT NULL,
    score       DOUBLE NOT NULL,
    rank        INTEGER NOT NULL,
    PRIMARY KEY (run_id, query_id, slot, item_id)
);

-- Named expansions (annotation runs) and their settings.
CREATE TABLE IF NOT EXISTS expansions (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    config      JSON,                         -- judges per stage, retriever, K, audit cap ...
    created_at  TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (benchmark, expansion)
);

-- Stage 1: exactly k sub-queries per query, slot i answers ground-truth tool i.
CREATE TABLE IF NOT EXISTS subqueries (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    slot        INTEGER NOT NULL,
    text        VARCHAR NOT NULL,
    operation   VARCHAR,                      -- retrieve, calculate, convert, ...
    entity      VARCHAR,                      -- what the operation acts on
    reference   VARCHAR NOT NULL,             -- the ground-truth tool of this slot (before 072: ref_item_id)
    judge       VARCHAR,                      -- judge spec, or 'import'
    call_id     VARCHAR,                      -- llm_calls row that produced it, if any
    PRIMARY KEY (benchmark, expansion, query_id, slot)
);

-- Stage 2a: top-K candidates per sub-query.
CREATE TABLE IF NOT EXISTS candidates (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    slot        INTEGER NOT NULL,
    item_id     VARCHAR NOT NULL,
    rank        INTEGER NOT NULL,             -- retrieval rank, 1-based; the reference gets its own rank or K+1
    score       DOUBLE,
    retriever   VARCHAR NOT NULL,
    PRIMARY KEY (benchmark, expansion, query_id, slot, item_id)
);

-- Stage 2b: one verdict per candidate. The reference always passes (judge = 'reference').
CREATE TABLE IF NOT EXISTS verdicts (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    slot        INTEGER NOT NULL,
    item_id     VARCHAR NOT NULL,
    accepted    BOOLEAN NOT NULL,
    reason      VARCHAR,
    judge       VARCHAR NOT NULL,
    call_id     VARCHAR,
    PRIMARY KEY (benchmark, expansion, query_id, slot, item_id)
);

-- Stage 3: combinations (Cartesian product of verified sets) and their fate.
-- status: valid | rejected_audit | rejected_platform | cut | pending.
-- combo_id 0 is always the original combination (status 'valid', is_original).
CREATE TABLE IF NOT EXISTS combinations (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    combo_id    INTEGER NOT NULL,
    rrf         DOUBLE,                       -- RRF over the members' per-sub-query ranks
    rrf_rank    INTEGER,                      -- 1 = best
    is_original BOOLEAN NOT NULL DEFAULT false,
    status      VARCHAR NOT NULL,
    reason      VARCHAR,
    judge       VARCHAR,
    call_id     VARCHAR,
    PRIMARY KEY (benchmark, expansion, query_id, combo_id)
);

CREATE TABLE IF NOT EXISTS combination_items (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    combo_id    INTEGER NOT NULL,
    slot        INTEGER NOT NULL,
    item_id     VARCHAR NOT NULL,
    PRIMARY KEY (benchmark, expansion, query_id, combo_id, slot)
);

-- The LLM call ledger: one row per attempt, failures included. Cache hits are served from the
-- newest 'ok' row with the same input_hash; failures are never served as answers.
CREATE TABLE IF NOT EXISTS llm_calls (
    call_id            VARCHAR PRIMARY KEY,   -- uuid of the attempt
    stage              VARCHAR NOT NULL,      -- decompose | verify | audit
    judge              VARCHAR NOT NULL,      -- judge spec (provider:model or base URL)
    model              VARCHAR,
    prompt_version     VARCHAR NOT NULL,      -- hash of the prompt template
    input_hash         VARCHAR NOT NULL,      -- hash of (judge, model, prompt_version, rendered input)
    task_key           VARCHAR,               -- which query/slot/item/combination it was for
    status             VARCHAR NOT NULL,      -- ok | error | malformed | pending (batch submitted)
    error              VARCHAR,
    response           VARCHAR,               -- raw model text (never the API key or headers)
    parsed             JSON,
    prompt_tokens      INTEGER,
    completion_tokens  INTEGER,
    latency_ms         DOUBLE,
    cost_usd           DOUBLE,
    attempt            INTEGER NOT NULL DEFAULT 1,
    batch_id           VARCHAR,
    created_at         TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Embedding cache, keyed by content hash, so re-indexing an unchanged library embeds nothing.
CREATE TABLE IF NOT EXISTS embeddings (
    embedder    VARCHAR NOT NULL,             -- embedder spec incl. model and max length
    text_hash   VARCHAR NOT NULL,             -- sha256 of the exact text embedded
    vector      FLOAT[] NOT NULL,
    PRIMARY KEY (embedder, text_hash)
);

-- Human validation protocol.
CREATE TABLE IF NOT EXISTS review_samples (
    sample_id   VARCHAR NOT NULL,             -- name of the audit sample
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    combo_id    INTEGER NOT NULL,
    stratum     VARCHAR NOT NULL,             -- category x number of tools
    position    INTEGER NOT NULL,             -- order shown to reviewers
    seed        INTEGER NOT NULL,
    PRIMARY KEY (sample_id, benchmark, expansion, query_id, combo_id)
);

CREATE TABLE IF NOT EXISTS review_labels (
    sample_id   VARCHAR NOT NULL,
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    combo_id    INTEGER NOT NULL,
    role        VARCHAR NOT NULL,             -- reviewer1 | reviewer2 | adjudicator
    reviewer    VARCHAR NOT NULL,             -- person's name
    label       VARCHAR NOT NULL,             -- valid | invalid
    bucket      VARCHAR,                      -- decomposition_ambiguity | near_synonym | incomplete_coverage | platform_mismatch
    note        VARCHAR,
    labelled_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (sample_id, benchmark, expansion, query_id, combo_id, role)
);
