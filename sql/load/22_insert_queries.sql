-- Reads: new_queries (registered Arrow table). Creates: queries rows. Parameters: $benchmark.
INSERT INTO queries (benchmark, query_id, task, category, text, instruction)
SELECT $benchmark, query_id, task, category, text, instruction
FROM new_queries;
