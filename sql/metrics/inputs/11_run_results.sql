-- 11 run_results: the results of the runs asked for, down to the largest cut-off K.
-- Reads: run_results. Parameters: $run_ids VARCHAR[], $ks INTEGER[].
-- Returns: run_id, query_id, item_id, rank.
-- The metric macros read no deeper (rank = 1 in 010, rank <= max(K) in 040), so a run of 100
-- scored at K = 10 goes out at a tenth of its size.
SELECT run_id, query_id, item_id, rank
FROM run_results
WHERE list_contains($run_ids::VARCHAR[], run_id)
  AND rank <= list_max($ks::INTEGER[]);
