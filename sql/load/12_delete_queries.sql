-- Reads: nothing. Deletes: every queries row of one benchmark (part of a --replace swap,
-- run inside the same transaction as the inserts). Parameters: $benchmark.
DELETE FROM queries WHERE benchmark = $benchmark;
