-- The ranked list of each query of one run, retrieved, imported or fused
-- from its sub-query lists (34_rrf.sql).
-- Reads: new_results (registered Arrow table: query_id, item_id, score, rank), queries.
-- Creates: run_results rows of one run. Parameters: $run_id, $benchmark.
-- Rows of queries the benchmark lacks are dropped here (an import has already refused them unless
-- --skip-unknown); a query is dropped whole, so the ranks of the others stand. The rank is
-- toolex.runs.write.ranked's (trec_eval's rule: score descending, ties by item_id descending,
-- 1-based; sql/checks/run_results_rank_order.sql states it in SQL).
INSERT INTO run_results (run_id, query_id, item_id, score, rank)
SELECT $run_id, query_id, item_id, score, rank
FROM new_results
SEMI JOIN (SELECT query_id FROM queries WHERE benchmark = $benchmark) AS q USING (query_id);
