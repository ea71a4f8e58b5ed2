-- 38_insert_dependency: dependent slot pairs of the queries' original combinations.
-- Reads: stage_rows (a registered batch: query_id, slot_a, slot_b (slot_a < slot_b), reason).
-- Creates: dependencies rows. Parameters: $benchmark, $expansion.
INSERT INTO dependencies (benchmark, expansion, query_id, slot_a, slot_b, reason)
SELECT $benchmark, $expansion, query_id, slot_a, slot_b, reason FROM stage_rows
ON CONFLICT DO NOTHING;
