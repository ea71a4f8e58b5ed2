-- 01_run_benchmarks: every stored run and the benchmark it ranks, to pick and pair a report's runs.
-- Reads: runs. Creates: nothing. Parameters: none.
SELECT run_id, benchmark FROM runs ORDER BY run_id
