-- 060 metric_query_scores(p_run_ids, p_ks, p_expansion): old and new of every metric, per query.
-- Reads: metric_combo_scores (050), which carries each query's task, category and has_results
-- (one value per run and query: a run ranks each item once). Creates: TEMP table macro
-- metric_query_scores. Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR.
-- Returns: run_id, query_id, task, category, has_results, k,
--          ndcg_old, ndcg_new, recall_old, recall_new, comp_old, comp_new, p_old, p_new,
--          rr_old, rr_new, ap_old, ap_new.
-- old = the score on combo 0 (the original qrels); new_M@K(q) = max over the valid combinations
-- C of q of M@K(run, C), per metric separately (the NDCG maximiser may differ from the Recall
-- one). The original is one of the C, so new >= old. Kept wide so one GROUP BY does all three
-- metrics (3x fewer rows than aggregating the long shape).
CREATE OR REPLACE TEMP MACRO metric_query_scores(p_run_ids, p_ks, p_expansion) AS TABLE
WITH agg AS (
    SELECT run_id, query_id, task, category, has_results, k,
           max(ndcg) FILTER (WHERE combo_id = 0) AS ndcg_old, max(ndcg) AS ndcg_new,
           max(recall) FILTER (WHERE combo_id = 0) AS recall_old, max(recall) AS recall_new,
           max(comp) FILTER (WHERE combo_id = 0) AS comp_old, max(comp) AS comp_new,
           max(p) FILTER (WHERE combo_id = 0) AS p_old, max(p) AS p_new,
           max(rr) FILTER (WHERE combo_id = 0) AS rr_old, max(rr) AS rr_new,
           max(ap) FILTER (WHERE combo_id = 0) AS ap_old, max(ap) AS ap_new
    FROM metric_combo_scores(p_run_ids, p_ks, p_expansion)
    GROUP BY run_id, query_id, task, category, has_results, k
)
SELECT run_id, query_id, task, category, has_results, k,
       ndcg_old, ndcg_new, recall_old, recall_new, comp_old, comp_new,
       p_old, p_new, rr_old, rr_new, ap_old, ap_new
FROM agg;
