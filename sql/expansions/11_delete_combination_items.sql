-- 11_delete_combination_items: the members half of a combinations import's --replace swap.
-- Reads: new_combinations (registered). Deletes: combination_items of the expansion for every
-- query the import file covers (the --replace swap). Parameters: $benchmark, $expansion.
DELETE FROM combination_items
WHERE benchmark = $benchmark AND expansion = $expansion
  AND query_id IN (SELECT query_id FROM new_combinations);
