-- 03_drop_stage_failures: `toolex expand --replace` drops the expansion's stage_failures rows (all
-- of them, imported ones included) before it recomputes; toolex.pipeline.record.drop_outputs runs
-- it in one transaction with the expansion tables' drops (toolex.expansions). Reads:
-- stage_failures. Deletes: stage_failures rows. Parameters: $benchmark, $expansion.
DELETE FROM stage_failures WHERE benchmark = $benchmark AND expansion = $expansion;
