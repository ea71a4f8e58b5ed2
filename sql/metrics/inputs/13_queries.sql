-- 13 queries: the queries of the benchmarks of the runs asked for, with their groups.
-- Reads: queries, runs. Parameters: $run_ids VARCHAR[].
-- Returns: benchmark, query_id, task, category.
SELECT benchmark, query_id, task, category
FROM queries
WHERE benchmark IN (SELECT benchmark FROM runs WHERE list_contains($run_ids::VARCHAR[], run_id));
