-- 52_drop_dependencies: `toolex expand --replace` drops the expansion's dependencies rows (all of them, imported
-- ones included) before it recomputes. Reads: dependencies. Deletes: dependencies rows.
-- Parameters: $benchmark, $expansion.
DELETE FROM dependencies WHERE benchmark = $benchmark AND expansion = $expansion;
