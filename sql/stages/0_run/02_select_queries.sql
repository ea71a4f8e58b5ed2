-- 02_select_queries: the queries a pipeline run works on, in a stable order.
-- Reads: queries, qrels. Creates: nothing. Parameters: $benchmark, $query_ids (VARCHAR[] or NULL),
-- $task (or NULL), $limit (or NULL). Queries without ground truth cannot be expanded; skipped.
SELECT q.query_id
FROM queries q
WHERE q.benchmark = $benchmark
  AND ($query_ids IS NULL OR list_contains($query_ids, q.query_id))
  AND ($task IS NULL OR q.task = $task)
  AND EXISTS (SELECT 1 FROM qrels r WHERE r.benchmark = q.benchmark AND r.query_id = q.query_id)
ORDER BY q.query_id
LIMIT coalesce($limit, 9223372036854775807);
