-- 36_audit_pending: pending combinations with their members, for the audit judge.
-- Reads: combinations, combination_items, items, stage_failures. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]), $retry_failed (BOOLEAN).
SELECT c.query_id, c.combo_id, ci.slot, ci.item_id, i.name, i.platform, i.doc, i.text, i.kind
FROM combinations c
JOIN combination_items ci ON ci.benchmark = c.benchmark AND ci.expansion = c.expansion
     AND ci.query_id = c.query_id AND ci.combo_id = c.combo_id
JOIN items i ON i.benchmark = ci.benchmark AND i.item_id = ci.item_id
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.status = 'pending'
  AND list_contains($query_ids, c.query_id)
  AND ($retry_failed OR NOT EXISTS (
        SELECT 1 FROM stage_failures f WHERE f.benchmark = c.benchmark
        AND f.expansion = c.expansion AND f.stage = 'audit'
        AND f.task_key = c.query_id || '/' || c.combo_id))
ORDER BY c.query_id, c.rrf_rank, ci.slot;
