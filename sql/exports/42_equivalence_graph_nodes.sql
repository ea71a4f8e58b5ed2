-- 42_equivalence_graph_nodes: the equivalence graph's nodes: every item at either end of an
-- edge, with its name, platform and kind, and how many distinct items it is linked to.
-- Reads: equivalence_edges (the rows of 40, registered), items. Creates: nothing.
-- Parameters: $benchmark.
WITH ends AS (
    SELECT reference AS item_id, candidate AS other FROM equivalence_edges
    UNION
    SELECT candidate, reference FROM equivalence_edges
)
SELECT e.item_id AS id, i.name, i.platform, i.kind, count(DISTINCT e.other) AS degree
FROM ends e
JOIN items i ON i.benchmark = $benchmark AND i.item_id = e.item_id
GROUP BY ALL
ORDER BY degree DESC, id;
