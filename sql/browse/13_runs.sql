-- 13_runs: the query-level runs of a benchmark, offered by the run filters and shown in details.
-- Reads: runs. Creates: nothing. Parameters: $benchmark.
SELECT run_id, retriever, level, created_at
FROM runs
WHERE benchmark = $benchmark AND level = 'query'
ORDER BY run_id
