-- 063_dependency_edges: explicit producer->consumer edges, where each platform came from, and
-- what the dependency check of each combination could decide.
-- Reads: nothing. Creates: dependency_edges; adds items.platform_source, dependencies.source /
-- producer_slot / value, combinations.dependency_check. Parameters: none.

-- dependency_edges: call chains a benchmark (or an import) records explicitly: the response of
-- the producer slot's call is passed into the consumer slot's parameters. Slots are those of the
-- query's original combination (qrels.slot). Benchmark-level facts about the annotated plan, so
-- every expansion of the benchmark uses them; toolex/loaders writes them, with the benchmark
-- (source 'loaded') or handed by the combinations import (source 'imported').
CREATE TABLE IF NOT EXISTS dependency_edges (
    benchmark      VARCHAR NOT NULL,
    query_id       VARCHAR NOT NULL,
    producer_slot  INTEGER NOT NULL,
    consumer_slot  INTEGER NOT NULL,
    value          VARCHAR NOT NULL DEFAULT '',  -- what is handed over (a field name); '' = unnamed
    source         VARCHAR NOT NULL,             -- loaded | imported
    origin         VARCHAR,                      -- the file (or format) the edge was read from
    PRIMARY KEY (benchmark, query_id, producer_slot, consumer_slot, value)
);

-- Where items.platform was read or derived from, e.g. 'doc.tool_name', 'field platform',
-- 'task apibank', "description 'the Spotify API'"; NULL when the item has no platform.
ALTER TABLE items ADD COLUMN IF NOT EXISTS platform_source VARCHAR;

-- dependencies (050) per pair: source = loaded | imported (explicit edges), docs (the ground-truth
-- docs show an id/token hand-off) or same_platform (platform rule 'strict'); producer_slot is the
-- slot whose output is handed over (NULL when the pair has no direction); value what is handed.
ALTER TABLE dependencies ADD COLUMN IF NOT EXISTS source VARCHAR;
ALTER TABLE dependencies ADD COLUMN IF NOT EXISTS producer_slot INTEGER;
ALTER TABLE dependencies ADD COLUMN IF NOT EXISTS value VARCHAR;

-- What the deterministic dependency check could decide for the combination (stage 3a):
-- 'none' (the query has no known dependency), 'passed' (every dependent pair was checked),
-- 'unknown' (a replaced member's platform, or whether it produces/accepts the handed value,
-- is not known, so the pair could not be checked), 'failed' (rejected_platform). NULL for
-- combinations assembled before this column existed, and for imported ones.
ALTER TABLE combinations ADD COLUMN IF NOT EXISTS dependency_check VARCHAR;
