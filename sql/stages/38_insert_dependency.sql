-- 38_insert_dependency: one dependent slot pair of a query's original combination.
-- Reads: nothing. Creates: a dependencies row. Parameters: $benchmark, $expansion, $query_id,
-- $slot_a, $slot_b (slot_a < slot_b), $reason.
INSERT INTO dependencies (benchmark, expansion, query_id, slot_a, slot_b, reason)
VALUES ($benchmark, $expansion, $query_id, $slot_a, $slot_b, $reason)
ON CONFLICT DO NOTHING;
