-- Reads: nothing. Deletes: every qrels row of one benchmark (part of a --replace swap,
-- run inside the same transaction as the inserts). Parameters: $benchmark.
DELETE FROM qrels WHERE benchmark = $benchmark;
