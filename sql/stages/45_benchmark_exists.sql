-- 45_benchmark_exists: one row when the benchmark is loaded.
-- Reads: benchmarks. Creates: nothing. Parameters: $benchmark.
SELECT benchmark FROM benchmarks WHERE benchmark = $benchmark;
