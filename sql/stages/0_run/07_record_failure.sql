-- 07_record_failure: remember failed tasks (or count one more attempt of each).
-- Reads: stage_rows (a registered batch: stage, task_key, error, call_id), stage_failures.
-- Creates/updates: stage_failures rows. Parameters: $benchmark, $expansion.
INSERT INTO stage_failures (benchmark, expansion, stage, task_key, error, call_id)
SELECT $benchmark, $expansion, stage, task_key, error, call_id FROM stage_rows
ON CONFLICT DO UPDATE SET attempts = stage_failures.attempts + 1, error = excluded.error,
    call_id = excluded.call_id, failed_at = now();
