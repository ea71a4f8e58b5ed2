-- 08_clear_failure: tasks that now succeeded are no longer failures.
-- Reads: stage_rows (a registered batch: stage, task_key). Deletes: stage_failures rows.
-- Parameters: $benchmark, $expansion.
DELETE FROM stage_failures f
WHERE f.benchmark = $benchmark AND f.expansion = $expansion
  AND EXISTS (SELECT 1 FROM stage_rows r WHERE r.stage = f.stage AND r.task_key = f.task_key);
