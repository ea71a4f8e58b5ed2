-- 072_benchmark_revision: where a benchmark came from, recorded with each run.
-- Reads: benchmarks. Creates: nothing. Parameters: $benchmark.
SELECT format, source, revision FROM benchmarks WHERE benchmark = $benchmark
