-- 44_drop_expansion: `toolex expand --replace` drops the expansion's row and the settings it
-- recorded before it recomputes. Reads: expansions. Deletes: one expansions row.
-- Parameters: $benchmark, $expansion.
DELETE FROM expansions WHERE benchmark = $benchmark AND expansion = $expansion;
