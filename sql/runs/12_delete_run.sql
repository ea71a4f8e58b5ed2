-- Reads: nothing. Deletes: the runs row of one run (after its results). Parameters: $run_id.
DELETE FROM runs WHERE run_id = $run_id;
