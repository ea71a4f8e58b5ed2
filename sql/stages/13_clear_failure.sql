-- 13_clear_failure: a task that now succeeded is no longer a failure.
-- Reads: nothing. Deletes: a stage_failures row. Parameters: $benchmark, $expansion, $stage, $task_key.
DELETE FROM stage_failures
WHERE benchmark = $benchmark AND expansion = $expansion AND stage = $stage AND task_key = $task_key;
