-- Reads: nothing. Deletes: every items row of one benchmark (part of a --replace swap,
-- run inside the same transaction as the inserts). Parameters: $benchmark.
DELETE FROM items WHERE benchmark = $benchmark;
