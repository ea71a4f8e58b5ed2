-- 41_references: the original combination of some queries, slot by slot, with the query and
-- each tool's documentation: what a decomposer needs for labels no expansion has a sub-query for.
-- Reads: queries, qrels, items. Creates: nothing.
-- Parameters: $benchmark, $query_ids (VARCHAR[]).
SELECT q.query_id, q.text AS query, q.instruction, g.slot, g.item_id,
       i.name, i.platform, i.doc, i.text, i.kind
FROM queries AS q
JOIN qrels AS g ON g.benchmark = q.benchmark AND g.query_id = q.query_id
JOIN items AS i ON i.benchmark = g.benchmark AND i.item_id = g.item_id
WHERE q.benchmark = $benchmark AND list_contains($query_ids, q.query_id)
ORDER BY q.query_id, g.slot;
