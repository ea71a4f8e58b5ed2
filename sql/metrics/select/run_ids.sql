-- run_ids: every run in the store, by name. Reads: runs. Parameters: none.
SELECT run_id FROM runs ORDER BY run_id;
