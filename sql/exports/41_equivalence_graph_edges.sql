-- 41_equivalence_graph_edges: the equivalence graph's edges, one per (reference, candidate)
-- pair: how many sub-queries (steps) and queries it holds under, the distinct sub-queries, the
-- judges, and the mean confidence where known.
-- Reads: equivalence_edges (the rows of 40, registered). Creates: nothing (a result set).
-- Parameters: none.
SELECT reference AS source, candidate AS target,
       count(*) AS steps, count(DISTINCT query_id) AS queries,
       list(DISTINCT subquery ORDER BY subquery) AS subqueries,
       list(DISTINCT judge ORDER BY judge) AS judges,
       avg(confidence) AS mean_confidence
FROM equivalence_edges
GROUP BY ALL
ORDER BY steps DESC, source, target;
