-- 02_qrels_of_benchmark: each query's original combination, which the imports check against.
-- Reads: qrels. Creates: nothing (rows). Parameters: $benchmark.
-- The original combination of every query, in slot order: imports check against it; and each
-- label's grade, which an item filling that slot inherits when scored (sql/metrics/020).
SELECT query_id, item_id, slot, relevance
FROM qrels
WHERE benchmark = $benchmark
ORDER BY query_id, slot;
