-- 071_query_texts: the queries of a benchmark with their instructions (query-level runs).
-- Reads: queries. Creates: nothing (rows query_id, text, instruction). Parameters: $benchmark.
SELECT query_id, text, instruction
FROM queries
WHERE benchmark = $benchmark
ORDER BY query_id
