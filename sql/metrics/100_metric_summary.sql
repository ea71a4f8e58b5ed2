-- 100 metric_summary(p_run_ids, p_ks, p_expansion, p_by): macro averages per group and overall.
-- Reads: metric_per_query (090). Creates: TEMP table macro metric_summary.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR,
--             p_by VARCHAR ('category' | 'task': which query column forms the groups).
-- Returns: run_id, grp, metric, k, old, new, gain, n_queries, n_no_results.
-- Macro average: every query weighs the same (mean of per-query scores); grp = 'all' is the mean
-- over all the run's queries, not the mean of the group means. gain = new - old. A query without
-- a task/category is grouped under '(none)'.
CREATE OR REPLACE TEMP MACRO metric_summary(p_run_ids, p_ks, p_expansion, p_by) AS TABLE
WITH scored AS (
    SELECT run_id, metric, k, old, new, has_results,
           coalesce(CASE p_by WHEN 'task' THEN task ELSE category END, '(none)') AS grp
    FROM metric_per_query(p_run_ids, p_ks, p_expansion)
)
SELECT run_id,
       CASE WHEN grouping(grp) = 1 THEN 'all' ELSE grp END AS grp,
       metric, k,
       avg(old) AS old, avg(new) AS new, avg(new) - avg(old) AS gain,
       count(*) AS n_queries,
       count(*) FILTER (WHERE NOT has_results) AS n_no_results
FROM scored
GROUP BY GROUPING SETS ((run_id, grp, metric, k), (run_id, metric, k));
