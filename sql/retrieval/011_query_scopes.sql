-- 011_query_scopes: task and category of the queries a search was asked about.
-- Reads: queries, and the registered Arrow table retrieval_texts(query_id). Creates: nothing.
-- Parameters: $benchmark. Queries unknown to the store come back with NULL task/category.
SELECT t.query_id, q.task, q.category
FROM (SELECT DISTINCT query_id FROM retrieval_texts) AS t
LEFT JOIN queries AS q ON q.benchmark = $benchmark AND q.query_id = t.query_id
