-- 10_conflicting_combinations: an imported combination the expansion already holds.
-- Reads: combinations, new_combinations (Arrow table registered by the import).
-- Creates: nothing (at most one row). Parameters: $benchmark, $expansion.
-- The first imported (query, combo_id) already stored in the expansion: without --replace an
-- import never overwrites a combination. combo 0 (the original) is shared, not a clash.
SELECT c.query_id, c.combo_id
FROM combinations AS c
JOIN new_combinations AS n ON n.query_id = c.query_id AND n.combo_id = c.combo_id
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.combo_id <> 0
ORDER BY c.query_id, c.combo_id
LIMIT 1;
