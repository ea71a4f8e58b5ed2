-- 40_drop_combination_items: `toolex expand --replace` drops the expansion's combination_items
-- rows (all of them, imported ones included) before it recomputes. Reads: combination_items.
-- Deletes: combination_items rows. Parameters: $benchmark, $expansion.
DELETE FROM combination_items WHERE benchmark = $benchmark AND expansion = $expansion;
