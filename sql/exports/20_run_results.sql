-- 20_run_results: one run's ranked results for a TREC run file.
-- Reads: run_results. Creates: nothing. Parameters: $run_id VARCHAR.
-- Ordered by query, then rank (trec_eval's rule: score descending, ties by item_id descending,
-- already applied when the rank was stored).
SELECT query_id, item_id, rank, score
FROM run_results
WHERE run_id = $run_id
ORDER BY query_id, rank;
