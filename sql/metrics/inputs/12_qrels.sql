-- 12 qrels: the original labels of the benchmarks of the runs asked for.
-- Reads: qrels, runs. Parameters: $run_ids VARCHAR[].
-- Returns: benchmark, query_id, item_id, relevance, slot.
SELECT benchmark, query_id, item_id, relevance, slot
FROM qrels
WHERE benchmark IN (SELECT benchmark FROM runs WHERE list_contains($run_ids::VARCHAR[], run_id));
