-- 063_delete_run: forget a run's ranked results before it is produced again (--replace).
-- Reads: nothing. Creates: nothing; deletes rows of run_results. Parameters: $run_id.
DELETE FROM run_results WHERE run_id = $run_id
