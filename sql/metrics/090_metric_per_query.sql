-- 090 metric_per_query(p_run_ids, p_ks, p_expansion): old and new side by side, per query.
-- Reads: metric_values (060), metric_queries (010). Creates: TEMP table macro metric_per_query.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR.
-- Returns: run_id, query_id, task, category, has_results, metric, k, old, new.
-- One pass over the combination scores yields both families: old = the value on combo 0,
-- new = the max over all valid combinations (combo 0 included).
CREATE OR REPLACE TEMP MACRO metric_per_query(p_run_ids, p_ks, p_expansion) AS TABLE
WITH agg AS (
    SELECT run_id, query_id, metric, k,
           max(value) FILTER (WHERE combo_id = 0) AS old,
           max(value) AS new
    FROM metric_values(p_run_ids, p_ks, p_expansion)
    GROUP BY run_id, query_id, metric, k
)
SELECT a.run_id, a.query_id, u.task, u.category, u.has_results, a.metric, a.k, a.old, a.new
FROM agg AS a
JOIN metric_queries(p_run_ids) AS u ON u.run_id = a.run_id AND u.query_id = a.query_id;
