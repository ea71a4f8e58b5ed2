-- 43_drop_subqueries: `toolex expand --replace` drops the expansion's subqueries rows (all of
-- them, imported ones included) before it recomputes. Reads: subqueries. Deletes: subqueries
-- rows. Parameters: $benchmark, $expansion.
DELETE FROM subqueries WHERE benchmark = $benchmark AND expansion = $expansion;
