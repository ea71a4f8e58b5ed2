-- Reads: run_results. Creates: nothing (one row). Parameters: $run_id.
SELECT count(DISTINCT query_id) AS queries, count(*) AS results
FROM run_results
WHERE run_id = $run_id;
