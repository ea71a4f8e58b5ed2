-- 48_run_ids: runs already stored for a benchmark (the demo reuses them).
-- Reads: runs. Creates: nothing. Parameters: $benchmark.
SELECT run_id FROM runs WHERE benchmark = $benchmark ORDER BY run_id;
