-- 080 metric_new(p_run_ids, p_ks, p_expansion): equivalence-aware scores.
-- Reads: metric_values (060). Creates: TEMP table macro metric_new.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR.
-- Returns: run_id, query_id, metric, k, value.
-- new_M@K(q) = max over valid combinations C of q of M@K(run, C), per metric separately (the
-- NDCG maximiser may differ from the Recall maximiser). The original is one of the C, so new >= old.
CREATE OR REPLACE TEMP MACRO metric_new(p_run_ids, p_ks, p_expansion) AS TABLE
SELECT run_id, query_id, metric, k, max(value) AS value
FROM metric_values(p_run_ids, p_ks, p_expansion)
GROUP BY run_id, query_id, metric, k;
