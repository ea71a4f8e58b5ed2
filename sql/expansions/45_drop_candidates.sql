-- 45_drop_candidates: `toolex expand --replace` drops the expansion's candidates rows (all of
-- them, imported ones included) before it recomputes; toolex.pipeline.record.drop_outputs runs it
-- in one transaction with the other drops. Reads: candidates. Deletes: candidates rows.
-- Parameters: $benchmark, $expansion.
DELETE FROM candidates WHERE benchmark = $benchmark AND expansion = $expansion;
