-- 18_delete_combination_products: the product counts (schema 064) of the queries whose
-- combinations the --replace swap deleted (11, 12): an imported query's combinations are no
-- longer the assembly's. Reads: new_combinations (registered). Deletes: combination_products
-- rows. Parameters: $benchmark, $expansion.
DELETE FROM combination_products
WHERE benchmark = $benchmark AND expansion = $expansion
  AND query_id IN (SELECT query_id FROM new_combinations);
