-- 30_toolret_queries: queries in ToolRet's shape, for the ToolRet-style JSONL export.
-- Reads: queries, qrels. Creates: nothing. Parameters: $benchmark VARCHAR.
-- labels is the original annotation in slot order ({id, relevance}), as in ToolRet's
-- queries.json; the valid combinations are added from 10_expanded_qrels by the exporter.
SELECT
    q.query_id AS id,
    q.text AS query,
    q.instruction,
    q.task,
    q.category,
    list({'id': g.item_id, 'relevance': g.relevance} ORDER BY g.slot) AS labels
FROM queries AS q
JOIN qrels AS g USING (benchmark, query_id)
WHERE q.benchmark = $benchmark
GROUP BY q.query_id, q.text, q.instruction, q.task, q.category
ORDER BY q.query_id;
