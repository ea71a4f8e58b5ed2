-- Reads: nothing. Deletes: every item_docs row of one benchmark (part of a --replace swap,
-- run inside the same transaction as the inserts). Parameters: $benchmark.
DELETE FROM item_docs WHERE benchmark = $benchmark;
