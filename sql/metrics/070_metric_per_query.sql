-- 070 metric_per_query(p_run_ids, p_ks, p_expansion): old and new in the long row shape.
-- Reads: metric_query_scores (060). Creates: TEMP table macro metric_per_query.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR.
-- Returns: run_id, query_id, task, category, has_results, metric ('ndcg' | 'recall' | 'comp' |
--          'p' | 'rr' | 'ap'), k, old, new.
-- (A cross join with the metric names rather than UNPIVOT: DuckDB cannot bind UNPIVOT over a
-- table macro nested in another macro.)
CREATE OR REPLACE TEMP MACRO metric_per_query(p_run_ids, p_ks, p_expansion) AS TABLE
SELECT s.run_id, s.query_id, s.task, s.category, s.has_results, m.metric, s.k,
       CASE m.metric WHEN 'ndcg' THEN s.ndcg_old WHEN 'recall' THEN s.recall_old
                     WHEN 'comp' THEN s.comp_old WHEN 'p' THEN s.p_old
                     WHEN 'rr' THEN s.rr_old ELSE s.ap_old END AS old,
       CASE m.metric WHEN 'ndcg' THEN s.ndcg_new WHEN 'recall' THEN s.recall_new
                     WHEN 'comp' THEN s.comp_new WHEN 'p' THEN s.p_new
                     WHEN 'rr' THEN s.rr_new ELSE s.ap_new END AS new
FROM metric_query_scores(p_run_ids, p_ks, p_expansion) AS s
CROSS JOIN (VALUES ('ndcg'), ('recall'), ('comp'), ('p'), ('rr'), ('ap')) AS m(metric);
