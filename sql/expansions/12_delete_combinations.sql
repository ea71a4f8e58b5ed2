-- 12_delete_combinations: the combinations half of a combinations import's --replace swap.
-- Reads: new_combinations (registered). Deletes: combinations of the expansion for every query
-- the import file covers (the --replace swap). Parameters: $benchmark, $expansion.
DELETE FROM combinations
WHERE benchmark = $benchmark AND expansion = $expansion
  AND query_id IN (SELECT query_id FROM new_combinations);
