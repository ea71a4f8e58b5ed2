-- 064_delete_subquery_results: forget a run's per-sub-query lists (--replace).
-- Reads: nothing. Creates: nothing; deletes rows of subquery_results. Parameters: $run_id.
DELETE FROM subquery_results WHERE run_id = $run_id
