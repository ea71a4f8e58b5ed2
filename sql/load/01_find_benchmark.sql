-- Reads: benchmarks. Creates: nothing (one row or none). Parameters: $benchmark.
-- Used before a load to decide between a no-op (same revision), an error, or a --replace swap.
SELECT benchmark, format, source, revision, loaded_at
FROM benchmarks
WHERE benchmark = $benchmark;
