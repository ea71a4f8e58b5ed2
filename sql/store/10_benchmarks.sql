-- 10_benchmarks: the names of every stored benchmark, for existence checks.
-- Reads: benchmarks. Creates: nothing. Parameters: none.
SELECT benchmark FROM benchmarks ORDER BY benchmark
