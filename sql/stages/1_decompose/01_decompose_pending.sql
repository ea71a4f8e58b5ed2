-- 01_decompose_pending: queries still to decompose, one row per ground-truth tool (slot order).
-- Reads: queries, qrels, items, subqueries, stage_failures. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]), $retry_failed (BOOLEAN).
-- item_found is false when a label names an item missing from the library (a failure).
SELECT q.query_id, q.text AS query, q.instruction, r.slot, r.item_id,
       i.name, i.platform, i.doc, i.text, i.kind, i.item_id IS NOT NULL AS item_found
FROM queries q
JOIN qrels r ON r.benchmark = q.benchmark AND r.query_id = q.query_id
LEFT JOIN items i ON i.benchmark = r.benchmark AND i.item_id = r.item_id
WHERE q.benchmark = $benchmark
  AND list_contains($query_ids, q.query_id)
  AND NOT EXISTS (SELECT 1 FROM subqueries s WHERE s.benchmark = q.benchmark
                  AND s.expansion = $expansion AND s.query_id = q.query_id)
  AND ($retry_failed OR NOT EXISTS (
        SELECT 1 FROM stage_failures f WHERE f.benchmark = q.benchmark AND f.expansion = $expansion
        AND f.stage = 'decompose' AND f.task_key = q.query_id))
ORDER BY q.query_id, r.slot, r.item_id;
