-- 20_source_counts: how many labels the store already holds for each source being imported
-- (an import replaces its sources whole).
-- Reads: labels, new_labels (registered). Creates: nothing. Parameters: none.
SELECT n.source, count(l.source) AS stored
FROM (SELECT DISTINCT source FROM new_labels) AS n
LEFT JOIN labels AS l ON l.source = n.source
GROUP BY n.source
ORDER BY n.source;
