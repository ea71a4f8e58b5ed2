-- The per-sub-query lists of one sub-query-level run.
-- Reads: new_results (registered Arrow table: query_id, slot, item_id, score), queries.
-- Creates: subquery_results rows of one run. Parameters: $run_id, $benchmark.
-- Rank per (query, slot): score descending, then item_id descending (trec_eval's rule).
INSERT INTO subquery_results (run_id, query_id, slot, item_id, score, rank)
SELECT
    $run_id,
    query_id,
    slot,
    item_id,
    score,
    row_number() OVER (PARTITION BY query_id, slot ORDER BY score DESC, item_id DESC)
FROM new_results
SEMI JOIN (SELECT query_id FROM queries WHERE benchmark = $benchmark) AS q USING (query_id);
