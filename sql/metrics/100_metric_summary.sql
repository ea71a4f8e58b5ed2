-- 100 metric_summary(p_run_ids, p_ks, p_expansion, p_by): macro averages per group and overall.
-- Reads: metric_query_scores (060). Creates: TEMP table macro metric_summary.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR,
--             p_by VARCHAR ('category' | 'task': which query column forms the groups).
-- Returns: run_id, grp, metric, k, old, new, gain, n_queries, n_no_results.
-- Macro average: every query weighs the same (mean of per-query scores); grp = 'all' is the mean
-- over all the run's queries, not the mean of the group means. gain = new - old. A query without
-- a task/category is grouped under '(none)'. Averaged wide, then turned long (fewer rows).
-- Each mean sums its queries in query_id order: a float sum in the order rows arrive (which
-- varies with DuckDB's threads) differed from run to run in the last bit.
CREATE OR REPLACE TEMP MACRO metric_summary(p_run_ids, p_ks, p_expansion, p_by) AS TABLE
WITH scored AS (
    SELECT *, coalesce(CASE p_by WHEN 'task' THEN task ELSE category END, '(none)') AS grp
    FROM metric_query_scores(p_run_ids, p_ks, p_expansion)
), means AS (
    SELECT run_id, CASE WHEN grouping(grp) = 1 THEN 'all' ELSE grp END AS grp, k,
           avg(ndcg_old ORDER BY query_id) AS ndcg_old,
           avg(ndcg_new ORDER BY query_id) AS ndcg_new,
           avg(recall_old ORDER BY query_id) AS recall_old,
           avg(recall_new ORDER BY query_id) AS recall_new,
           avg(comp_old ORDER BY query_id) AS comp_old,
           avg(comp_new ORDER BY query_id) AS comp_new,
           avg(p_old ORDER BY query_id) AS p_old,
           avg(p_new ORDER BY query_id) AS p_new,
           avg(rr_old ORDER BY query_id) AS rr_old,
           avg(rr_new ORDER BY query_id) AS rr_new,
           avg(ap_old ORDER BY query_id) AS ap_old,
           avg(ap_new ORDER BY query_id) AS ap_new,
           count(*) AS n_queries,
           count(*) FILTER (WHERE NOT has_results) AS n_no_results
    FROM scored
    GROUP BY GROUPING SETS ((run_id, grp, k), (run_id, k))
), long AS (
    SELECT run_id, grp, m.metric, k,
           CASE m.metric WHEN 'ndcg' THEN ndcg_old WHEN 'recall' THEN recall_old
                         WHEN 'comp' THEN comp_old WHEN 'p' THEN p_old
                         WHEN 'rr' THEN rr_old ELSE ap_old END AS old,
           CASE m.metric WHEN 'ndcg' THEN ndcg_new WHEN 'recall' THEN recall_new
                         WHEN 'comp' THEN comp_new WHEN 'p' THEN p_new
                         WHEN 'rr' THEN rr_new ELSE ap_new END AS new,
           n_queries, n_no_results
    FROM means
    CROSS JOIN (VALUES ('ndcg'), ('recall'), ('comp'), ('p'), ('rr'), ('ap')) AS m(metric)
)
SELECT run_id, grp, metric, k, old, new, new - old AS gain, n_queries, n_no_results
FROM long;
