-- 23_insert_decomposed_subqueries: store the decompose stage's sub-queries
-- (toolex.expansions.insert_subqueries); a repeat is ignored.
-- Reads: stage_rows (a registered batch of SubqueryRow: query_id, slot, text, operation, entity,
-- reference, judge, call_id). Creates: subqueries rows. Parameters: $benchmark, $expansion.
INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, operation, entity,
                        reference, judge, call_id)
SELECT $benchmark, $expansion, query_id, slot, text, operation, entity, reference, judge, call_id
FROM stage_rows
ON CONFLICT DO NOTHING;
