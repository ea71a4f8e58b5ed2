-- The ranked list of each query of one run, retrieved, imported or fused
-- from its sub-query lists (34_rrf.sql).
-- Reads: new_results (registered Arrow table: query_id, item_id, score), queries.
-- Creates: run_results rows of one run. Parameters: $run_id, $benchmark.
-- Rows of queries the benchmark lacks are dropped here (an import has already refused them unless
-- --skip-unknown). Rank follows trec_eval: score descending, ties by item_id descending, 1-based.
INSERT INTO run_results (run_id, query_id, item_id, score, rank)
SELECT
    $run_id,
    query_id,
    item_id,
    score,
    row_number() OVER (PARTITION BY query_id ORDER BY score DESC, item_id DESC)
FROM new_results
SEMI JOIN (SELECT query_id FROM queries WHERE benchmark = $benchmark) AS q USING (query_id);
