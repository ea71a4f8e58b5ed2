-- 04_audit_pending: the members of the pending combinations of some queries, for the audit judge.
-- Reads: combinations, combination_items, stage_failures. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]), $retry_failed (BOOLEAN).
-- Ids only: toolex.pipeline.audit reads each tool's documentation once per group of queries (05)
-- rather than once per member row (13 M rows of documentation at 200k tools).
SELECT c.query_id, c.combo_id, ci.slot, ci.item_id
FROM combinations c
JOIN combination_items ci ON ci.benchmark = c.benchmark AND ci.expansion = c.expansion
     AND ci.query_id = c.query_id AND ci.combo_id = c.combo_id
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.status = 'pending'
  AND list_contains($query_ids, c.query_id)
  AND ($retry_failed OR NOT EXISTS (
        SELECT 1 FROM stage_failures f WHERE f.benchmark = c.benchmark
        AND f.expansion = c.expansion AND f.stage = 'audit'
        AND f.task_key = c.query_id || '/' || c.combo_id))
ORDER BY c.query_id, c.rrf_rank, ci.slot;
