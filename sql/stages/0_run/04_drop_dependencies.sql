-- 04_drop_dependencies: `toolex expand --replace` drops the expansion's dependencies rows (all of
-- them, imported ones included) before it recomputes; toolex.pipeline.record.drop_outputs runs it
-- in one transaction with the expansion tables' drops (toolex.expansions). Reads: dependencies.
-- Deletes: dependencies rows. Parameters: $benchmark, $expansion.
DELETE FROM dependencies WHERE benchmark = $benchmark AND expansion = $expansion;
