-- 21_query_subqueries: the ground-truth combination, slot by slot (each tool's id and name), with
-- each slot's sub-query.
-- Reads: qrels, items, subqueries. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_id.
SELECT g.slot, g.item_id AS gt_item, i.name AS gt_name, i.platform, s.text AS subquery, s.operation, s.entity
FROM qrels g
LEFT JOIN items i ON i.benchmark = g.benchmark AND i.item_id = g.item_id
LEFT JOIN subqueries s ON s.benchmark = g.benchmark AND s.expansion = $expansion
                      AND s.query_id = g.query_id AND s.slot = g.slot
WHERE g.benchmark = $benchmark AND g.query_id = $query_id
ORDER BY g.slot
