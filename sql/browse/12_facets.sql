-- 12_facets: the values offered by the list filters (tasks, categories, GT sizes) with counts.
-- Values in natural order (natural_key: G2 before G10, 2 tools before 10).
-- Reads: queries, qrels. Creates: nothing. Parameters: $benchmark.
WITH gt AS (
    SELECT query_id, count(*) AS n FROM qrels WHERE benchmark = $benchmark GROUP BY query_id
)
SELECT 'task' AS facet, task AS value, count(*) AS n
FROM queries WHERE benchmark = $benchmark AND task IS NOT NULL GROUP BY task
UNION ALL
SELECT 'category', category, count(*)
FROM queries WHERE benchmark = $benchmark AND category IS NOT NULL GROUP BY category
UNION ALL
SELECT 'n_gt', CAST(n AS VARCHAR), count(*) FROM gt GROUP BY n
ORDER BY facet, natural_key(value), value
