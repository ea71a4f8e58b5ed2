-- 065_delete_run_row: forget a run's registration (--replace), after its results.
-- Reads: nothing. Creates: nothing; deletes the runs row. Parameters: $run_id.
DELETE FROM runs WHERE run_id = $run_id
