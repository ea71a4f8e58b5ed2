-- 55_drop_verdicts: `toolex expand --replace` drops the expansion's verdicts rows (all of them, imported
-- ones included) before it recomputes. Reads: verdicts. Deletes: verdicts rows.
-- Parameters: $benchmark, $expansion.
DELETE FROM verdicts WHERE benchmark = $benchmark AND expansion = $expansion;
