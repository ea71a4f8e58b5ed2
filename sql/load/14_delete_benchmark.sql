-- Reads: nothing. Deletes: every benchmarks row of one benchmark (part of a --replace swap,
-- run inside the same transaction as the inserts). Parameters: $benchmark.
DELETE FROM benchmarks WHERE benchmark = $benchmark;
