-- 14 combinations: the valid combinations of the expansion, for the runs' benchmarks.
-- Reads: combinations, runs. Parameters: $run_ids VARCHAR[], $expansion VARCHAR (NULL: none).
-- Returns: benchmark, expansion, query_id, combo_id, is_original, status.
-- The metric macros keep status 'valid' only (020); the rest never leaves the store.
SELECT benchmark, expansion, query_id, combo_id, is_original, status
FROM combinations
WHERE expansion = $expansion::VARCHAR AND status = 'valid'
  AND benchmark IN (SELECT benchmark FROM runs WHERE list_contains($run_ids::VARCHAR[], run_id));
