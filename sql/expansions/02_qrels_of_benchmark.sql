-- 02_qrels_of_benchmark: each query's original combination, which the imports check against.
-- Reads: qrels. Creates: nothing (rows). Parameters: $benchmark.
-- The original combination of every query, in slot order: imports check against it.
SELECT query_id, item_id, slot
FROM qrels
WHERE benchmark = $benchmark
ORDER BY query_id, slot;
