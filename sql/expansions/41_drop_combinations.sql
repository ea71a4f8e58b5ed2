-- 41_drop_combinations: `toolex expand --replace` drops the expansion's combinations rows (all
-- of them, imported ones included) before it recomputes. Reads: combinations.
-- Deletes: combinations rows. Parameters: $benchmark, $expansion.
DELETE FROM combinations WHERE benchmark = $benchmark AND expansion = $expansion;
