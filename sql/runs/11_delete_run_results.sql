-- Reads: nothing. Deletes: the ranked results of one run. Parameters: $run_id.
DELETE FROM run_results WHERE run_id = $run_id;
