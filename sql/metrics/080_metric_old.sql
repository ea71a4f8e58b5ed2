-- 080 metric_old(p_run_ids, p_ks): the usual one-to-one scores against the original qrels.
-- Reads: metric_per_query (070). Creates: TEMP table macro metric_old.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[].
-- Returns: run_id, query_id, metric, k, value.
-- A NULL expansion selects no expanded combination, so only combo 0 (qrels) is scored: this is
-- trec_eval's ndcg_cut_K / recall_K per query, plus Comp@K.
CREATE OR REPLACE TEMP MACRO metric_old(p_run_ids, p_ks) AS TABLE
SELECT run_id, query_id, metric, k, old AS value
FROM metric_per_query(p_run_ids, p_ks, NULL::VARCHAR);
