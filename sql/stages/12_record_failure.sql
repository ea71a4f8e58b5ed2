-- 12_record_failure: remember a failed task (or count one more attempt of it).
-- Reads: stage_failures. Creates/updates: a stage_failures row.
-- Parameters: $benchmark, $expansion, $stage, $task_key, $error, $call_id.
INSERT INTO stage_failures (benchmark, expansion, stage, task_key, error, call_id)
VALUES ($benchmark, $expansion, $stage, $task_key, $error, $call_id)
ON CONFLICT DO UPDATE SET attempts = stage_failures.attempts + 1, error = excluded.error,
    call_id = excluded.call_id, failed_at = now();
