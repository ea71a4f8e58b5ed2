-- 22_insert_subqueries: the sub-queries an import file holds.
-- Reads: new_subqueries (registered: query_id, slot, text, operation, entity), qrels.
-- Creates: subqueries rows, judge 'import'; reference is the ground-truth tool of the same slot.
-- Parameters: $benchmark, $expansion.
INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, operation, entity, reference, judge)
SELECT $benchmark, $expansion, s.query_id, s.slot, s.text, s.operation, s.entity, q.item_id, 'import'
FROM new_subqueries AS s
JOIN qrels AS q ON q.benchmark = $benchmark AND q.query_id = s.query_id AND q.slot = s.slot;
