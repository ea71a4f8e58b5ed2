-- 42_drop_combination_products: `toolex expand --replace` drops the expansion's product counts
-- (064) with its combinations before it recomputes. Reads: combination_products.
-- Deletes: combination_products rows. Parameters: $benchmark, $expansion.
DELETE FROM combination_products WHERE benchmark = $benchmark AND expansion = $expansion;
