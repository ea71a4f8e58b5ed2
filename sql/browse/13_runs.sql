-- 13_runs: the query-level runs of a benchmark, offered by the run filters and shown in details,
-- in natural order (natural_key).
-- Reads: runs. Creates: nothing. Parameters: $benchmark.
SELECT run_id, retriever, level, created_at
FROM runs
WHERE benchmark = $benchmark AND level = 'query'
ORDER BY natural_key(run_id), run_id
