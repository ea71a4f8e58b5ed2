-- 11_insert_subquery: store stage-1 outcomes; a repeat is ignored.
-- Reads: stage_rows (a registered batch: query_id, slot, text, operation, entity, ref_item_id,
-- judge, call_id). Creates: subqueries rows. Parameters: $benchmark, $expansion.
INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, operation, entity,
                        ref_item_id, judge, call_id)
SELECT $benchmark, $expansion, query_id, slot, text, operation, entity, ref_item_id, judge, call_id
FROM stage_rows
ON CONFLICT DO NOTHING;
