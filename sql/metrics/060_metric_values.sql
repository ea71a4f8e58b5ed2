-- 060 metric_values(p_run_ids, p_ks, p_expansion): combination scores in the one long row shape.
-- Reads: metric_combo_scores (050). Creates: TEMP table macro metric_values.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR.
-- Returns: run_id, query_id, combo_id, metric ('ndcg' | 'recall' | 'comp'), k, value.
-- (A cross join with the metric names rather than UNPIVOT: DuckDB cannot bind UNPIVOT over a
-- table macro nested in another macro.)
CREATE OR REPLACE TEMP MACRO metric_values(p_run_ids, p_ks, p_expansion) AS TABLE
SELECT s.run_id, s.query_id, s.combo_id, m.metric, s.k,
       CASE m.metric WHEN 'ndcg' THEN s.ndcg WHEN 'recall' THEN s.recall ELSE s.comp END AS value
FROM metric_combo_scores(p_run_ids, p_ks, p_expansion) AS s
CROSS JOIN (VALUES ('ndcg'), ('recall'), ('comp')) AS m(metric);
