-- 51_drop_stage_failures: `toolex expand --replace` drops the expansion's stage_failures rows (all of them, imported
-- ones included) before it recomputes. Reads: stage_failures. Deletes: stage_failures rows.
-- Parameters: $benchmark, $expansion.
DELETE FROM stage_failures WHERE benchmark = $benchmark AND expansion = $expansion;
