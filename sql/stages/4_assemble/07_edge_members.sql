-- 07_edge_members: every accepted item, other than the slot's own reference, of a slot that sits
-- on an explicit edge naming the value it hands over, with the role it plays (produce | accept)
-- and its docs, for toolex.pipeline.platform_rule.edge_fit.
-- Reads: assembled_products, dependency_edges, subqueries, candidates, verdicts, items.
-- Creates: nothing. Parameters: $benchmark, $expansion.
WITH roles AS (
    SELECT query_id, producer_slot AS slot, 'produce' AS role, value,
           consumer_slot AS other_slot, source
    FROM dependency_edges
    WHERE benchmark = $benchmark AND value <> ''
      AND query_id IN (SELECT DISTINCT query_id FROM assembled_products)
    UNION ALL
    SELECT query_id, consumer_slot, 'accept', value, producer_slot, source
    FROM dependency_edges
    WHERE benchmark = $benchmark AND value <> ''
      AND query_id IN (SELECT DISTINCT query_id FROM assembled_products)
)
SELECT r.query_id, r.slot, v.item_id, r.value, r.role, r.other_slot, r.source, i.doc
FROM roles r
JOIN subqueries s ON s.benchmark = $benchmark AND s.expansion = $expansion
     AND s.query_id = r.query_id AND s.slot = r.slot
JOIN verdicts v ON v.benchmark = s.benchmark AND v.expansion = s.expansion
     AND v.query_id = s.query_id AND v.slot = s.slot AND v.accepted
     AND v.item_id <> s.reference
JOIN items i ON i.benchmark = v.benchmark AND i.item_id = v.item_id
ORDER BY r.query_id, r.slot, v.item_id, r.role, r.value;
