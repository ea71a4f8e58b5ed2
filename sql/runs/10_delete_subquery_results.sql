-- Reads: nothing. Deletes: the per-sub-query lists of one run. Parameters: $run_id.
DELETE FROM subquery_results WHERE run_id = $run_id;
