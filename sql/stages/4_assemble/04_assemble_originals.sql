-- 04_assemble_originals: ground-truth docs of the queries about to be assembled (from 01), for
-- the dependency rule. Reads: assembled_products, subqueries, items. Creates: nothing.
-- Parameters: $benchmark, $expansion.
SELECT s.query_id, s.slot, s.reference AS item_id, i.platform, i.doc
FROM subqueries s
JOIN items i ON i.benchmark = s.benchmark AND i.item_id = s.reference
WHERE s.benchmark = $benchmark AND s.expansion = $expansion
  AND s.query_id IN (SELECT DISTINCT query_id FROM assembled_products)
ORDER BY s.query_id, s.slot;
