-- 10 runs: the runs asked for, as an engine outside DuckDB receives them (toolex.engines.spark).
-- Reads: runs. Parameters: $run_ids VARCHAR[]. Returns: run_id, benchmark.
-- Every file of metrics/inputs/ is one stored table cut to what the metric macros read for
-- these parameters, with the columns they read; the engine names the rows after the table.
SELECT run_id, benchmark
FROM runs
WHERE list_contains($run_ids::VARCHAR[], run_id);
