-- 20_query_header: one query's text, instruction, task and category.
-- Reads: queries. Creates: nothing. Parameters: $benchmark, $query_id.
SELECT query_id, task, category, text, instruction
FROM queries
WHERE benchmark = $benchmark AND query_id = $query_id
