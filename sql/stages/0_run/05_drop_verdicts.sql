-- 05_drop_verdicts: `toolex expand --replace` drops the expansion's verdicts rows (all of them,
-- imported ones included) before it recomputes; toolex.pipeline.record.drop_outputs runs it in one
-- transaction with the expansion tables' drops (toolex.expansions). Reads: verdicts. Deletes:
-- verdicts rows. Parameters: $benchmark, $expansion.
DELETE FROM verdicts WHERE benchmark = $benchmark AND expansion = $expansion;
