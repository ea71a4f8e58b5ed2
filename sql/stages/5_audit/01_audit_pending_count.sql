-- 01_audit_pending_count: how many pending combinations the audit has to judge.
-- Reads: combinations, stage_failures. Creates: nothing (one number).
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]), $retry_failed (BOOLEAN).
-- The same combinations as 04 reads group by group, counted up front for the progress bar.
SELECT count(*)
FROM combinations c
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.status = 'pending'
  AND list_contains($query_ids, c.query_id)
  AND ($retry_failed OR NOT EXISTS (
        SELECT 1 FROM stage_failures f WHERE f.benchmark = c.benchmark
        AND f.expansion = c.expansion AND f.stage = 'audit'
        AND f.task_key = c.query_id || '/' || c.combo_id));
