-- 12_runs: the names of stored runs (of one benchmark, or all when $benchmark is NULL).
-- Reads: runs. Creates: nothing. Parameters: $benchmark (NULL for every benchmark).
SELECT run_id FROM runs WHERE $benchmark IS NULL OR benchmark = $benchmark ORDER BY run_id
