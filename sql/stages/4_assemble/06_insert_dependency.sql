-- 06_insert_dependency: dependent slot pairs of the queries' original combinations.
-- Reads: stage_rows (a registered batch: query_id, slot_a, slot_b (slot_a < slot_b), reason,
-- source (loaded | imported | docs | same_platform), producer_slot (or NULL), value (or NULL)).
-- Creates: dependencies rows. Parameters: $benchmark, $expansion.
INSERT INTO dependencies (benchmark, expansion, query_id, slot_a, slot_b, reason, source,
                          producer_slot, value)
SELECT $benchmark, $expansion, query_id, slot_a, slot_b, reason, source, producer_slot, value
FROM stage_rows
ON CONFLICT DO NOTHING;
