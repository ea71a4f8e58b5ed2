-- 31_tool_queries: the queries where an item is ground truth ('gt') and where it was accepted as
-- an equivalent of another slot's ground-truth tool ('equivalent'), with the slot and reason, in
-- natural order of the query ids (natural_key); the replaced tool's name beside its id.
-- Reads: qrels, verdicts, subqueries, queries, items. Creates: nothing.
-- Parameters: $benchmark, $expansion, $item_id, $limit (rows per role at most).
SELECT * FROM (
    SELECT 'gt' AS role, g.query_id, g.slot, NULL AS reference, NULL AS reference_name,
           NULL AS reason, q.text
    FROM qrels g JOIN queries q USING (benchmark, query_id)
    WHERE g.benchmark = $benchmark AND g.item_id = $item_id
    ORDER BY natural_key(g.query_id), g.query_id LIMIT $limit
)
UNION ALL
SELECT * FROM (
    SELECT 'equivalent', v.query_id, v.slot, s.reference, r.name, v.reason, q.text
    FROM verdicts v
    JOIN subqueries s USING (benchmark, expansion, query_id, slot)
    JOIN queries q USING (benchmark, query_id)
    LEFT JOIN items r ON r.benchmark = v.benchmark AND r.item_id = s.reference
    WHERE v.benchmark = $benchmark AND v.expansion = $expansion AND v.item_id = $item_id
      AND v.accepted AND s.reference <> v.item_id
    ORDER BY natural_key(v.query_id), v.query_id, v.slot LIMIT $limit
)
ORDER BY role DESC, natural_key(query_id), query_id, slot
